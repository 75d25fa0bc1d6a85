import type {
  CommissionSummary,
  CustomerAnalytics,
  Policy,
  PortfolioAnalytics,
  PortfolioHistory,
} from '@coverdesk/contract';
import { describe, expect, it } from 'vitest';
import {
  amount,
  cents,
  companyChecks,
  countCheck,
  customerChecks,
  historyChecks,
  moneyCheck,
  sumCents,
  summaryChecks,
  timingSummary,
} from './checks.js';

const row = (company: string, premium: string, expected: string, received: string, paid: string) => ({
  company_id: company,
  company_name: `Insurer ${company}`,
  total_premium: premium,
  expected_commission: expected,
  received_commission: received,
  amount_paid: paid,
});

describe('cents', () => {
  it('reads and writes amounts exactly, signs included', () => {
    expect(cents('1234.56')).toBe(123456n);
    expect(cents('0.1')).toBe(10n);
    expect(cents('-1.50')).toBe(-150n);
    expect(amount(-150n)).toBe('-1.50');
    expect(amount(5n)).toBe('0.05');
  });

  it('adds what floating point would not', () => {
    // 0.1 + 0.2 in floats is 0.30000000000000004.
    expect(amount(sumCents(['0.10', '0.20'], (value) => value))).toBe('0.30');
  });
});

describe('checks', () => {
  it('find a one-cent difference and say by how much', () => {
    expect(moneyCheck('x', '10.00', 1001n)).toEqual({
      label: 'x',
      expected: '10.00',
      actual: '10.01',
      difference: '0.01',
      matches: false,
    });
    expect(moneyCheck('x', '10.00', 1000n).matches).toBe(true);
    expect(countCheck('n', 3, 2)).toMatchObject({ difference: '-1', matches: false });
  });

  it('recompute the report summary from its rows', () => {
    const rows = [
      row('a', '1000.00', '125.00', '31.25', '250.00'),
      row('b', '333.33', '33.33', '0.00', '0.00'),
    ];
    const summary: CommissionSummary = {
      total_policies: 2,
      total_premium: '1333.33',
      total_commission: '158.33',
      total_expected_commission: '158.33',
      total_received_commission: '31.25',
      total_paid: '250.00',
      total_pending: '1083.33',
      total_earned: '31.25',
      outstanding_commission: '127.08',
      commission_received_percentage: '19.74',
      average_commission_percentage: '12.50',
    };
    expect(summaryChecks(summary, rows).every((check) => check.matches)).toBe(true);
    const offByACent = summaryChecks({ ...summary, total_paid: '250.01' }, rows);
    expect(offByACent.filter((check) => !check.matches).map((check) => check.label)).toEqual(['total_paid']);
  });

  it('check each insurer, including one only one side knows', () => {
    const rows = [row('a', '100.00', '10.00', '5.00', '50.00')];
    const figures = [
      {
        company_id: 'a',
        company_name: 'Insurer a',
        total_policies: 1,
        total_premium: '100.00',
        total_expected_commission: '10.00',
        total_received_commission: '5.00',
        outstanding_commission: '5.00',
      },
      {
        company_id: 'b',
        company_name: 'Insurer b',
        total_policies: 1,
        total_premium: '1.00',
        total_expected_commission: '0.00',
        total_received_commission: '0.00',
        outstanding_commission: '0.00',
      },
    ];
    const [a, b] = companyChecks(figures, rows);
    expect(a?.checks.every((check) => check.matches)).toBe(true);
    expect(b?.checks.filter((check) => !check.matches).map((check) => check.label)).toEqual([
      'total_policies',
      'total_premium',
    ]);
  });
});

describe('the history checks', () => {
  const policy = (fields: Partial<Policy>) =>
    ({
      status: 'active',
      start_date: '2026-03-10',
      end_date: '2027-03-09',
      cancelled_at: null,
      renewed_from_id: null,
      expected_commission: '12.50',
      ...fields,
    }) as Policy;
  const month = (fields: Partial<PortfolioHistory['results'][number]>) => ({
    month: '2026-03',
    as_of: '2026-03-31',
    policies_in_force: 0,
    premium_in_force: '0.00',
    new_policies: 0,
    renewed: 0,
    expired: 0,
    cancelled: 0,
    expected_commission: '0.00',
    received_commission: '0.00',
    retention_rate: '0.00',
    ...fields,
  });
  const portfolio = { in_force: { policies: 0, premium: '0.00' } } as PortfolioAnalytics;
  const failing = (history: PortfolioHistory['results'], policies: Policy[]) =>
    historyChecks({ months: 12, today: '2026-03-31', results: history }, portfolio, policies)
      .filter((check) => !check.matches)
      .map((check) => check.label);

  it('recount a month from the policies dated in it, up to its last day', () => {
    const policies = [
      policy({}),
      // A renewal is not new business; a cancelled term counts with the commission it earned.
      policy({ renewed_from_id: 'earlier', expected_commission: '7.50' }),
      policy({ status: 'cancelled', cancelled_at: '2026-03-20', expected_commission: '1.00' }),
      policy({ start_date: '2025-03-10', end_date: '2026-03-09', status: 'renewed' }),
      policy({ start_date: '2025-03-12', end_date: '2026-03-11', status: 'expired' }),
      // After the month's last day: not counted.
      policy({ start_date: '2026-04-01', end_date: '2027-03-31', status: 'pending' }),
    ];
    const right = month({
      new_policies: 2,
      expected_commission: '21.00',
      renewed: 1,
      expired: 1,
      cancelled: 1,
    });
    expect(failing([right], policies)).toEqual([]);
    expect(failing([{ ...right, expected_commission: '21.01', expired: 0 }], policies)).toEqual([
      '2026-03: expected commission = terms started, a cancelled one with what it earned',
      '2026-03: expired = terms ended and expired',
    ]);
  });
});

describe('the customer checks', () => {
  const dana = { id: 'dana', display_name: 'Dana Levi' };
  const policies = [
    { customer: dana, status: 'active', total_premium: '1000.00', earned_premium: '1000.00' },
    // Cancelled a quarter into its term: it counts with the premium and the commission it earned.
    { customer: dana, status: 'cancelled', total_premium: '800.00', earned_premium: '200.00' },
  ].map(
    (fields) =>
      ({ expected_commission: '10.00', received_commission: '5.00', ...fields }) as unknown as Policy,
  );
  const lifetime = (premium: string, policies: number) =>
    ({
      total_customers: 1,
      active_customers: 1,
      inactive_customers: 0,
      policies_per_customer: { one: 1, two: 0, three: 0, four_or_more: 0 },
      overdue: { customers: 0, instalments: 0, amount_overdue: '0.00' },
      lifetime_value: { customers_with_policies: 1, total_premium: premium },
      top_by_premium: [
        {
          customer_id: 'dana',
          customer_name: 'Dana Levi',
          policies,
          lifetime_premium: premium,
          expected_commission: '20.00',
          received_commission: '10.00',
        },
      ],
      top_by_commission: [],
    }) as unknown as CustomerAnalytics;
  const portfolio = { overdue: { instalments: 0, amount: '0.00' } } as PortfolioAnalytics;
  const failing = (analytics: CustomerAnalytics) =>
    customerChecks(analytics, 1, policies, portfolio)
      .filter((check) => !check.matches)
      .map((check) => check.label);

  it('count a cancelled policy with its earned premium, as its commission', () => {
    expect(failing(lifetime('1200.00', 2))).toEqual([]);
    // Leaving the cancelled policy out, as the customer totals once did, is a difference.
    expect(failing(lifetime('1000.00', 1))).toEqual([
      'Lifetime premium = earned premium of the policies, a cancelled one with what it earned',
      'Dana Levi: policies',
      'Dana Levi: lifetime premium',
    ]);
  });
});

describe('timings', () => {
  it('give p50, p95 and max by nearest rank', () => {
    const durations = Array.from({ length: 20 }, (_, index) => 20 - index);
    expect(timingSummary(durations)).toEqual({ p50: 10, p95: 19, max: 20 });
    expect(timingSummary([])).toEqual({ p50: 0, p95: 0, max: 0 });
  });
});
