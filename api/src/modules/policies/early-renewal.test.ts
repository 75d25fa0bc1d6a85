import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptAndAfresh, statsFromPolicies } from '../../../test/kept-totals.js';
import { createTestApp, databaseCalendar, signedInAgency, type TestApp } from '../../../test/test-app.js';

// No day insured twice (issue 49): a renewal that starts before its term's end ends that term the day
// before, as insurers treat a rewrite, and the term earns its premium and commission for its days of
// cover by the cancellation's rule; every figure that sums commission sums it so.

let t: TestApp;
let today: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ today } = await databaseCalendar(t));
});
afterAll(() => t.close());

type Agency = Awaited<ReturnType<typeof signedInAgency>>;

async function ok<T = Record<string, unknown>>(
  response: Promise<{ statusCode: number; body: string; json(): unknown }>,
  status = 200,
): Promise<T> {
  const answered = await response;
  expect(answered.statusCode, answered.body).toBe(status);
  return answered.json() as T;
}

interface Policy {
  id: string;
  status: string;
  cancelled_at: string | null;
  cancellation_reason: string;
  earned_premium: string;
  expected_commission: string;
  renewed_to_id: string | null;
}

/** An agency with one insurer paying 10% on Motor (pro rata), one customer, and a way to add terms. */
async function agency() {
  const signedIn = await signedInAgency(t.app);
  const { as } = signedIn;
  const motor = await ok<{ id: string }>(
    as.post('/api/policy-types/', { name: 'Motor', category: 'auto' }),
    201,
  );
  const insurer = await ok<{ id: string }>(
    as.post('/api/companies/', {
      name: 'Harel',
      commission_payment_method: 'pro_rata',
      policy_types: [{ policy_type_id: motor.id, commission_percentage: '10' }],
    }),
    201,
  );
  const customer = await ok<{ id: string }>(
    as.post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' }),
    201,
  );
  const term = (policy_number: string, start_date: string, end_date: string) =>
    ok<Policy>(
      as.post('/api/policies/', {
        policy_number,
        customer_id: customer.id,
        company_id: insurer.id,
        policy_type_id: motor.id,
        start_date,
        end_date,
        total_premium: '1200.00',
        payment_frequency: 'monthly',
      }),
      201,
    );
  return { ...signedIn, term };
}

const instalments = async ({ as }: Agency, id: string) =>
  (await ok<{ results: { due_date: string; status: string }[] }>(as.get(`/api/policies/${id}/installments/`)))
    .results;

async function expectKeptTotalsAgree({ user, as }: Agency) {
  const { kept, afresh } = await keptAndAfresh(t.database.db, user.tenant_id);
  expect(kept).toEqual(afresh);
  expect(await ok(as.get('/api/policies/stats/'))).toEqual(
    await statsFromPolicies(t.database.db, user.tenant_id),
  );
}

describe('a renewal that starts before its term ends', () => {
  it('ends the term the day before: 1,200.00 from 1 January renewed from 20 December earns 1,160.55 and 116.06', async () => {
    const broker = await agency();
    const { as, term } = broker;
    const old = await term('POL-1', '2025-01-01', '2025-12-31');
    expect(old).toMatchObject({ earned_premium: '1200.00', expected_commission: '120.00' });

    // Told before saving: 353 of the year's 365 days.
    expect(await ok(as.get(`/api/policies/${old.id}/renewal-preview/?start_date=2025-12-20`))).toEqual({
      ends_on: '2025-12-19',
      earned_premium: '1160.55',
      expected_commission: '116.06',
    });
    // A renewal from the day after the end, the default, changes nothing.
    expect(await ok(as.get(`/api/policies/${old.id}/renewal-preview/`))).toEqual({
      ends_on: null,
      earned_premium: '1200.00',
      expected_commission: '120.00',
    });

    const renewal = await ok<Policy>(
      as.post(`/api/policies/${old.id}/renew/`, { start_date: '2025-12-20' }),
      201,
    );
    expect(renewal).toMatchObject({
      start_date: '2025-12-20',
      end_date: '2026-12-19',
      expected_commission: '120.00',
    });
    expect(await ok<Policy>(as.get(`/api/policies/${old.id}/`))).toMatchObject({
      status: 'renewed',
      renewed_to_id: renewal.id,
      cancelled_at: '2025-12-20',
      cancellation_reason: '',
      earned_premium: '1160.55',
      expected_commission: '116.06',
    });
    // The agency's commission counts the old term for its days alone.
    const stats = await ok<{ expected_commission: string; by_status: Record<string, number> }>(
      as.get('/api/policies/stats/'),
    );
    expect(stats.expected_commission).toBe('236.06');
    expect(stats.by_status.cancelled).toBe(0);
    const report = await ok<{ summary: { total_expected_commission: string } }>(
      as.get('/api/policies/commission_batch/?include=summary&start_date=2025-01-01&end_date=2025-12-31'),
    );
    expect(report.summary.total_expected_commission).toBe('236.06');
    await expectKeptTotalsAgree(broker);

    // Its renewal ends it: it cannot be cancelled as well.
    const cancel = await as.post(`/api/policies/${old.id}/cancel/`, {
      cancelled_at: '2025-06-01',
      reason: 'Sold',
    });
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().detail).toMatch(/has been renewed/);
  });

  it("cancels the instalments due after the term's end, and deleting the renewal gives the term back whole", async () => {
    const broker = await agency();
    const { as, term } = broker;
    const old = await term('POL-2', '2025-01-01', '2025-12-31');
    // January paid: a paid instalment stays paid.
    const { results } = await ok<{ results: { id: string }[] }>(
      as.get(`/api/policies/${old.id}/installments/`),
    );
    await ok(as.post(`/api/installments/${results[0]?.id}/payment/`, { payment_method: 'cash' }));

    const renewal = await ok<Policy>(
      as.post(`/api/policies/${old.id}/renew/`, { start_date: '2025-11-15' }),
      201,
    );
    expect((await instalments(broker, old.id)).map((row) => [row.due_date, row.status]).slice(-3)).toEqual([
      ['2025-10-01', 'pending'],
      ['2025-11-01', 'pending'],
      ['2025-12-01', 'cancelled'],
    ]);
    expect((await instalments(broker, old.id))[0]?.status).toBe('paid');
    // 318 of 365 days.
    expect(await ok<Policy>(as.get(`/api/policies/${old.id}/`))).toMatchObject({
      earned_premium: '1045.48',
      expected_commission: '104.55',
    });
    await expectKeptTotalsAgree(broker);

    // The renewal's start is the term's end: it cannot move on its own.
    const values = await ok<Record<string, unknown>>(as.get(`/api/policies/${renewal.id}/`));
    const moved = await as.put(`/api/policies/${renewal.id}/`, {
      ...Object.fromEntries(
        [
          'policy_number',
          'company_id',
          'policy_type_id',
          'end_date',
          'total_premium',
          'net_premium',
          'commission_percentage',
          'payment_frequency',
        ].map((key) => [key, values[key]]),
      ),
      customer_id: (values.customer as { id: string }).id,
      start_date: '2025-11-20',
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toEqual({
      start_date: [
        'This renewal ended the term it renews the day before it starts. To start it on another day, delete it and renew that term again.',
      ],
    });

    expect((await as.delete(`/api/policies/${renewal.id}/`)).statusCode).toBe(204);
    expect(await ok<Policy>(as.get(`/api/policies/${old.id}/`))).toMatchObject({
      status: 'expired',
      cancelled_at: null,
      renewed_to_id: null,
      earned_premium: '1200.00',
      expected_commission: '120.00',
    });
    expect((await instalments(broker, old.id)).map((row) => row.status).slice(-2)).toEqual([
      'pending',
      'pending',
    ]);
    await expectKeptTotalsAgree(broker);
  });

  it('must start after the term starts', async () => {
    const { as, term } = await agency();
    const old = await term('POL-3', '2025-03-01', '2026-02-28');
    const same = await as.post(`/api/policies/${old.id}/renew/`, { start_date: '2025-03-01' });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toEqual({
      start_date: ['The renewal must start after this term starts, 1 Mar 2025.'],
    });
    const unknown = await as.get(
      '/api/policies/0191d6b2-6f44-7c55-8a3f-7f1e2d3c4b5a/renewal-preview/?start_date=2025-12-20',
    );
    expect(unknown.statusCode).toBe(404);
    const bad = await as.get(`/api/policies/${old.id}/renewal-preview/?start_date=soon`);
    expect(bad.statusCode).toBe(400);
  });
});

describe('commission this year with an early renewal', () => {
  it('equals the sum of the portfolio history months, on the dashboard, the current portfolio and the commission report', async () => {
    // The year's first day has no earlier day to renew from within the year.
    if (today.endsWith('-01-01')) return;
    const broker = await agency();
    const { as, term } = broker;
    const year = today.slice(0, 4);
    const old = await term('POL-4', `${year}-01-01`, `${year}-12-31`);
    const renewal = await ok<Policy>(as.post(`/api/policies/${old.id}/renew/`, { start_date: today }), 201);
    const ended = await ok<Policy>(as.get(`/api/policies/${old.id}/`));
    expect(Number(ended.expected_commission)).toBeLessThan(120);

    const dashboard = await ok<{ commission: { this_year: { expected: string } } }>(
      as.get('/api/dashboard/'),
    );
    const portfolio = await ok<{ commission_this_year: { expected: string } }>(
      as.get('/api/analytics/portfolio/'),
    );
    const report = await ok<{ summary: { total_expected_commission: string } }>(
      as.get(
        `/api/policies/commission_batch/?include=summary&start_date=${year}-01-01&end_date=${year}-12-31`,
      ),
    );
    const history = await ok<{ results: { month: string; expected_commission: string }[] }>(
      as.get('/api/analytics/portfolio-history/?months=12'),
    );
    const historyCents = history.results
      .filter((row) => row.month.startsWith(year))
      .reduce((cents, row) => cents + Math.round(Number(row.expected_commission) * 100), 0);
    const historyYear = (historyCents / 100).toFixed(2);
    // The old term for its days of cover and the renewal in full: no day counted twice.
    const cents =
      Math.round(Number(ended.expected_commission) * 100) +
      Math.round(Number(renewal.expected_commission) * 100);
    expect(historyYear).toBe((cents / 100).toFixed(2));
    expect({
      dashboard: dashboard.commission.this_year.expected,
      portfolio: portfolio.commission_this_year.expected,
      report: report.summary.total_expected_commission,
    }).toEqual({ dashboard: historyYear, portfolio: historyYear, report: historyYear });
    await expectKeptTotalsAgree(broker);
  });
});
