import { readFile } from 'node:fs/promises';
import { FIGURES } from '@coverdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiAs,
  createTestApp,
  databaseCalendar,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';

// One truth per figure (docs/figures.md): every screen's version of a figure, read from the API behind
// it, is the same number, for the demo agency and for an agency built by hand.

let t: TestApp;
let day: (days: number) => string;
let today: string;
beforeAll(async () => {
  t = await createTestApp({}, { demoAgency: true });
  ({ day, today } = await databaseCalendar(t));
});
afterAll(() => t.close());

type Caller = ReturnType<typeof apiAs>;

async function read<T>(as: Caller, url: string): Promise<T> {
  const answer = await as.get(url);
  expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
  return answer.json() as T;
}

interface Summary {
  total_expected_commission: string;
  total_received_commission: string;
  outstanding_commission: string;
}

/** Each figure as every screen that shows it gives it. */
async function everyScreen(as: Caller) {
  const year = today.slice(0, 4);
  const dashboard = await read<{
    policies: { active_policies: number; premium_in_force: string };
    commission: {
      this_month: { expected: string; received: string };
      this_year: { expected: string; received: string };
    };
    payments: { overdue_count: number; overdue_amount: string };
  }>(as, '/api/dashboard/');
  const portfolio = await read<{
    in_force: { policies: number; premium: string };
    commission_this_year: { expected: string; received: string; outstanding: string };
    overdue: { instalments: number; amount: string };
  }>(as, '/api/analytics/portfolio/');
  const stats = await read<{ by_status: { active: number }; active_premium: string }>(
    as,
    '/api/policies/stats/',
  );
  const history = await read<{
    results: {
      policies_in_force: number;
      premium_in_force: string;
      expected_commission: string;
      received_commission: string;
    }[];
  }>(as, '/api/analytics/portfolio-history/?months=12');
  const yearReport = await read<{ summary: Summary }>(
    as,
    `/api/policies/commission_batch/?include=summary&start_date=${year}-01-01&end_date=${year}-12-31`,
  );
  const csv = (await as.get(`/api/policies/commission_csv/?start_date=${year}-01-01&end_date=${year}-12-31`))
    .body;
  const csvExpected = csv
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .slice(1, -1)
    .reduce((cents, line) => {
      // Policy numbers and names hold no commas in these agencies; the 12th column is the expected commission.
      const expected = line.split(',')[11] ?? '0';
      return cents + Math.round(Number(expected) * 100);
    }, 0);
  const overdue = await read<{ count: number }>(as, '/api/installments/?status=overdue&page_size=1');
  const thisMonthHistory = history.results.at(-1);
  return {
    in_force: {
      dashboard: [dashboard.policies.active_policies, dashboard.policies.premium_in_force],
      portfolio: [portfolio.in_force.policies, portfolio.in_force.premium],
      stats: [stats.by_status.active, stats.active_premium],
      history: [thisMonthHistory?.policies_in_force, thisMonthHistory?.premium_in_force],
    },
    this_year: {
      dashboard: [dashboard.commission.this_year.expected, dashboard.commission.this_year.received],
      portfolio: [portfolio.commission_this_year.expected, portfolio.commission_this_year.received],
      report: [yearReport.summary.total_expected_commission, yearReport.summary.total_received_commission],
      csv: [(csvExpected / 100).toFixed(2), yearReport.summary.total_received_commission],
    },
    outstanding_this_year: {
      portfolio: portfolio.commission_this_year.outstanding,
      report: yearReport.summary.outstanding_commission,
    },
    this_month: {
      dashboard: [dashboard.commission.this_month.expected, dashboard.commission.this_month.received],
      history: [thisMonthHistory?.expected_commission, thisMonthHistory?.received_commission],
    },
    overdue: {
      dashboard: [dashboard.payments.overdue_count, dashboard.payments.overdue_amount],
      portfolio: [portfolio.overdue.instalments, portfolio.overdue.amount],
      list: [overdue.count, portfolio.overdue.amount],
    },
  };
}

/** Every screen's version of each figure is the first one's. */
function expectAllEqual(figures: Awaited<ReturnType<typeof everyScreen>>) {
  for (const [figure, versions] of Object.entries(figures)) {
    const [first, ...others] = Object.values(versions);
    for (const other of others) expect(other, figure).toEqual(first);
  }
}

/**
 * A new agency with one insurer (10% on Motor, paid pro rata) and one customer, and a way to write
 * its policies through the API: `policy(number, start, end)` in days from today.
 */
async function handBuiltAgency() {
  const { as } = await signedInAgency(t.app);
  const created = async (url: string, body: object) => {
    const answer = await as.post(url, body);
    expect(answer.statusCode, answer.body).toBe(201);
    return (answer.json() as { id: string }).id;
  };
  const type = await created('/api/policy-types/', { name: 'Motor', category: 'auto' });
  const insurer = await created('/api/companies/', {
    name: 'Harel',
    commission_payment_method: 'pro_rata',
    policy_types: [{ policy_type_id: type, commission_percentage: '10' }],
  });
  const customer = await created('/api/customers/', { first_name: 'Dana', last_name: 'Levi' });
  const policy = (number: string, start: number, end: number, frequency = 'quarterly', premium = '1200.00') =>
    created('/api/policies/', {
      policy_number: number,
      customer_id: customer,
      company_id: insurer,
      policy_type_id: type,
      start_date: day(start),
      end_date: day(end),
      total_premium: premium,
      payment_frequency: frequency,
    });
  return { as, policy };
}

describe('every screen gives each figure the same value', () => {
  it('for the demo agency', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/accounts/login/demo/' });
    const figures = await everyScreen(apiAs(t.app, login.json().access_token));
    expectAllEqual(figures);
    // The demo holds a book: the comparison is of real numbers, not of zeros.
    expect(figures.in_force.stats[0]).toBeGreaterThan(0);
    expect(Number(figures.this_year.report[0])).toBeGreaterThan(0);
  });

  it('for an agency built by hand, with a term renewed early and a cancellation', async () => {
    const { as, policy } = await handBuiltAgency();
    await policy('A-1', -100, 264);
    const early = await policy('A-2', -340, 24, 'single');
    // Renewed a month before its end: the renewal starts tomorrow.
    expect((await as.post(`/api/policies/${early}/renew/`, { start_date: day(1) })).statusCode).toBe(201);
    const cancelled = await policy('A-3', -60, 304);
    expect(
      (await as.post(`/api/policies/${cancelled}/cancel/`, { cancelled_at: day(-5), reason: 'Sold' }))
        .statusCode,
    ).toBe(200);
    expectAllEqual(await everyScreen(as));
  });
});

describe('a term renewed early', () => {
  it('is in force to its end on the dashboard, as the commission report counts it', async () => {
    const { as, policy } = await handBuiltAgency();
    await policy('B-1', -100, 264, 'single', '1000.00');
    // Ends in ten days and is renewed today: its renewal starts the day after its end.
    const early = await policy('B-2', -355, 10, 'single', '1000.00');
    expect((await as.post(`/api/policies/${early}/renew/`, {})).statusCode).toBe(201);

    const report = await read<{ summary: { total_policies: number; total_premium: string } }>(
      as,
      `/api/policies/commission_batch/?include=summary&start_date=${today}&end_date=${today}`,
    );
    const dashboard = await read<{
      policies: { active_policies: number; premium_in_force: string; expiring_in_30_days: number };
    }>(as, '/api/dashboard/');
    const history = await read<{ results: { policies_in_force: number }[] }>(
      as,
      '/api/analytics/portfolio-history/?months=12',
    );
    // B-1 and B-2 cover today; B-2's renewal starts later.
    expect(report.summary).toMatchObject({ total_policies: 2, total_premium: '2000.00' });
    expect(dashboard.policies).toMatchObject({ active_policies: 2, premium_in_force: '2000.00' });
    expect(history.results.at(-1)?.policies_in_force).toBe(2);
    // Renewed already: not a renewal still to agree.
    expect(dashboard.policies.expiring_in_30_days).toBe(0);
    const b2 = await read<{ status: string }>(as, `/api/policies/${early}/`);
    expect(b2.status).toBe('active');
  });
});

describe('the glossary', () => {
  it('docs/figures.md says what the screens show on hover, word for word', async () => {
    const page = await readFile(new URL('../../../../docs/figures.md', import.meta.url), 'utf8');
    for (const { label, definition } of Object.values(FIGURES)) {
      expect(page).toContain(`## ${label}\n\n${definition}\n`);
    }
  });
});
