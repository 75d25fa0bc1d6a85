import type { CustomerAnalytics, PortfolioAnalytics, PortfolioHistory } from '@coverdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBookParties, type Caller, ok } from '../../../test/book-parties.js';
import {
  addPlanWithout,
  createTestApp,
  setSubscription,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';
import { agencyToday, withTenant } from '../../db/tenant.js';

// A small agency worked out by hand. Its dates hang on the agency's today (PostgreSQL cannot be
// told another date), counted in whole months back from the current one: `month(3)` is the first
// day of the month three months ago, `month(-1)` the first of next month. The agency keeps its
// day in UTC+14, so its today is often not the server's.
//
//   policy  customer  insurer (pays)   type   premium  net     %     expected  paid         received  today
//   P1      Dana      Harel (full)     Motor  1200.00  1000.00 10    100.00    all          100.00    active
//   P2      Dana      Clal (pro rata)  Home   1000.00   800.00 12.5  100.00    250 + 100    35.00     active, 2nd instalment overdue (150.00)
//   P3      Yossi     Harel (full)     Motor   600.00   500.00 10     50.00    all           50.00    renewed by P4
//   P4      Yossi     Harel (full)     Motor   660.00   550.00 10     55.00    300 of 660     0.00    active, overdue (360.00)
//   P5      Rina      Clal (pro rata)  Motor   800.00   800.00 12.5  100.00    all          cancelled: earns its days of cover (p5Earned)
//   P6      Rina      Harel (full)     Home    500.00   400.00 15     60.00    all           60.00    expired, not renewed
//   P7      Yossi     Clal (pro rata)  Home    300.00   300.00 12.5   37.50    all           37.50    active, ends in 20 days
//   P8      Rina      Harel (full)     Motor   400.00   400.00 10     40.00    nothing        0.00    pending (starts next month)
//   P9      Avi       Clal (pro rata)  Motor   200.00   200.00 12.5   25.00    4 x 50        25.00    expired, not renewed
//                                                                  (quarterly, paid 15, 12, 9 and 6 months ago: 6.25 each)
//   Ben has no policy.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const utc = (day: string) => new Date(`${day}T00:00:00Z`);
const addDays = (day: string, days: number) => isoDay(new Date(utc(day).getTime() + days * 86_400_000));

/** The agency's calendar, from its own today. */
function calendar(today: string) {
  const base = utc(today);
  const month = (back: number) =>
    isoDay(new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() - back, 1)));
  const monthKey = (back: number) => month(back).slice(0, 7);
  return { today, month, monthKey, year: base.getUTCFullYear() };
}

/**
 * What P5 earns, in cents, for the days it covered before its cancellation: its premium for those days
 * of its term, and its 100.00 of commission in the same proportion, each to the cent (as the database's
 * policy_earned_premium and policy_earned_commission). Paid in full, it is all received.
 */
function p5EarnedPremium(today: string) {
  const { month } = calendar(today);
  const days = (from: string, to: string) => (utc(to).getTime() - utc(from).getTime()) / 86_400_000;
  const start = month(3);
  const term = days(start, addDays(month(-9), -1)) + 1;
  return Math.round((80000 * days(start, addDays(month(1), 9))) / term);
}

/** P5's earned commission, in cents: 100.00 x its earned premium over its premium. */
function p5Earned(today: string) {
  return Math.round((10000 * p5EarnedPremium(today)) / 80000);
}

const todayOf = (tenantId: string) => withTenant(t.database.db, tenantId, (tx) => agencyToday(tx));

/** Builds the agency of the table above through the API, as a broker would. */
async function buildAgency(as: Caller, today: string) {
  const { month } = calendar(today);
  const { motor, home, harel, clal, customer, dana, yossi, rina } = await addBookParties(as);
  const avi = await customer('Avi', 'Bar');
  await customer('Ben', 'Shalom');

  let numbered = 0;
  const policy = async (
    customer_id: string,
    company_id: string,
    policy_type_id: string,
    start_date: string,
    end_date: string,
    total_premium: string,
    net_premium: string,
    commission_percentage: string,
    payment_frequency = 'single',
  ) =>
    (
      await ok<{ id: string }>(
        as.post('/api/policies/', {
          policy_number: `P${++numbered}`,
          customer_id,
          company_id,
          policy_type_id,
          start_date,
          end_date,
          total_premium,
          net_premium,
          commission_percentage,
          payment_frequency,
        }),
        201,
      )
    ).id;
  const instalments = async (policyId: string) =>
    (await ok<{ results: { id: string }[] }>(as.get(`/api/policies/${policyId}/installments/`))).results;
  const pay = async (policyId: string, sequence: number, paid_date: string, amount?: string) => {
    const instalment = (await instalments(policyId))[sequence - 1];
    if (!instalment) throw new Error(`no instalment ${sequence}`);
    await ok(
      as.post(`/api/installments/${instalment.id}/payment/`, {
        paid_date,
        payment_method: 'bank_transfer',
        ...(amount ? { amount } : {}),
      }),
    );
  };
  const endOf = (back: number) => addDays(month(back - 1), -1);

  const p1 = await policy(dana, harel.id, motor.id, month(2), endOf(-9), '1200.00', '1000.00', '10');
  await pay(p1, 1, addDays(month(2), 5));
  const p2 = await policy(
    dana,
    clal.id,
    home.id,
    month(4),
    endOf(-7),
    '1000.00',
    '800.00',
    '12.5',
    'quarterly',
  );
  await pay(p2, 1, addDays(month(4), 3));
  await pay(p2, 2, addDays(month(1), 2), '100.00');
  const p3 = await policy(yossi, harel.id, motor.id, month(13), endOf(2), '600.00', '500.00', '10');
  await pay(p3, 1, addDays(month(13), 1));
  const p4 = (
    await ok<{ id: string }>(
      as.post(`/api/policies/${p3}/renew/`, {
        start_date: month(1),
        end_date: endOf(-10),
        total_premium: '660.00',
        net_premium: '550.00',
        commission_percentage: '10',
      }),
      201,
    )
  ).id;
  await pay(p4, 1, addDays(month(1), 3), '300.00');
  const p5 = await policy(rina, clal.id, motor.id, month(3), endOf(-8), '800.00', '800.00', '12.5');
  await pay(p5, 1, addDays(month(3), 1));
  await ok(
    as.post(`/api/policies/${p5}/cancel/`, { cancelled_at: addDays(month(1), 9), reason: 'Sold the car' }),
  );
  const p6 = await policy(rina, harel.id, home.id, month(14), endOf(3), '500.00', '400.00', '15');
  await pay(p6, 1, addDays(month(14), 2));
  const p7 = await policy(
    yossi,
    clal.id,
    home.id,
    addDays(month(11), 14),
    addDays(today, 20),
    '300.00',
    '300.00',
    '12.5',
  );
  await pay(p7, 1, addDays(month(11), 14));
  await policy(rina, harel.id, motor.id, month(-1), endOf(-12), '400.00', '400.00', '10');
  const p9 = await policy(
    avi,
    clal.id,
    motor.id,
    month(15),
    endOf(4),
    '200.00',
    '200.00',
    '12.5',
    'quarterly',
  );
  for (const [sequence, back] of [15, 12, 9, 6].entries()) await pay(p9, sequence + 1, month(back));
  return { dana, yossi, rina, avi, harel: harel.id, clal: clal.id, motor: motor.id, home: home.id };
}

describe('analytics of a hand-computed agency', () => {
  let owner: Awaited<ReturnType<typeof signedInAgency>>;
  let today: string;
  let ids: Awaited<ReturnType<typeof buildAgency>>;

  beforeAll(async () => {
    owner = await signedInAgency(t.app, { time_zone: 'Pacific/Kiritimati' });
    today = await todayOf(owner.user.tenant_id);
    ids = await buildAgency(owner.as, today);
    // Another agency's book, with an overdue instalment of its own, never counts.
    const other = await signedInAgency(t.app);
    await buildAgency(other.as, await todayOf(other.user.tenant_id));
  });

  it('sums the customers to the cent', async () => {
    const { monthKey } = calendar(today);
    const figures = await ok<CustomerAnalytics>(owner.as.get('/api/analytics/customers/?period=12m'));
    const value = (
      id: string,
      name: string,
      policies: number,
      premium: string,
      expected: string,
      received: string,
    ) => ({
      customer_id: id,
      customer_name: name,
      policies,
      lifetime_premium: premium,
      expected_commission: expected,
      received_commission: received,
    });
    const dana = value(ids.dana, 'Dana Levi', 2, '2200.00', '200.00', '135.00');
    const yossi = value(ids.yossi, 'Yossi Cohen', 3, '1560.00', '142.50', '87.50');
    const p5 = p5Earned(today);
    // Rina's cancelled P5 counts as one of her terms, with the premium and commission it earned.
    const p5Premium = p5EarnedPremium(today);
    const rina = value(
      ids.rina,
      'Rina Azulay',
      3,
      ((90000 + p5Premium) / 100).toFixed(2),
      ((10000 + p5) / 100).toFixed(2),
      ((6000 + p5) / 100).toFixed(2),
    );
    const avi = value(ids.avi, 'Avi Bar', 1, '200.00', '25.00', '25.00');
    expect(figures).toEqual({
      period: '12m',
      period_start: expect.any(String),
      today,
      total_customers: 5,
      // Dana's first policy began four months ago; the others' first policies are older than a year.
      new_customers: 1,
      new_per_month: Array.from({ length: 12 }, (_, index) => ({
        month: monthKey(11 - index),
        new_customers: 11 - index === 4 ? 1 : 0,
      })),
      // Rina holds only a policy that starts next month: still a customer.
      active_customers: 3,
      inactive_customers: 2,
      // Yossi, Rina and Avi were covered a year ago; Avi's cover ran out.
      retention: { base_customers: 3, retained_customers: 2, retention_rate: '66.67' },
      top_by_premium: [dana, yossi, rina, avi],
      top_by_commission: [dana, yossi, rina, avi],
      policies_per_customer: { one: 1, two: 2, three: 0, four_or_more: 0 },
      by_policy_type: [
        { policy_type_id: ids.motor, policy_type_name: 'Motor', customers: 3 },
        { policy_type_id: ids.home, policy_type_name: 'Home', customers: 2 },
      ],
      by_company: [
        { company_id: ids.harel, company_name: 'Harel', customers: 3 },
        { company_id: ids.clal, company_name: 'Clal', customers: 2 },
      ],
      overdue: { customers: 2, instalments: 2, amount_overdue: '510.00' },
      // (4860.00 + P5's earned premium) / 4; (467.50 + P5's) / 4 and (307.50 + P5's) / 4, rounded half-up.
      lifetime_value: {
        customers_with_policies: 4,
        total_premium: ((486000 + p5Premium) / 100).toFixed(2),
        average_premium: (Math.round((486000 + p5Premium) / 4) / 100).toFixed(2),
        average_expected_commission: (Math.round((46750 + p5) / 4) / 100).toFixed(2),
        average_received_commission: (Math.round((30750 + p5) / 4) / 100).toFixed(2),
      },
    });
    // A year back to the day, in the agency's calendar.
    const start = utc(today);
    start.setUTCFullYear(start.getUTCFullYear() - 1);
    if (start.getUTCDate() !== utc(today).getUTCDate()) start.setUTCDate(0);
    expect(figures.period_start).toBe(isoDay(start));
  });

  it('takes the period from the query', async () => {
    const { month } = calendar(today);
    const thisYear = await ok<CustomerAnalytics>(owner.as.get('/api/analytics/customers/?period=ytd'));
    expect(thisYear.period_start).toBe(`${today.slice(0, 4)}-01-01`);
    // Dana is new this year when her first policy (four months ago) began this year.
    expect(thisYear.new_customers).toBe(month(4) >= thisYear.period_start ? 1 : 0);
    const quarter = await ok<CustomerAnalytics>(owner.as.get('/api/analytics/customers/?period=3m'));
    expect(quarter.new_customers).toBe(0);
    // Three months back Dana (P2), Yossi (P3, P7) and Rina (P5, not yet cancelled, and P6) were
    // covered, and all three still are; Avi's P9 had ended the month before.
    expect(quarter.retention).toEqual({ base_customers: 3, retained_customers: 3, retention_rate: '100.00' });
    const defaulted = await ok<CustomerAnalytics>(owner.as.get('/api/analytics/customers/'));
    expect(defaulted.period).toBe('12m');
  });

  it('shows the portfolio in force today', async () => {
    const { month, year } = calendar(today);
    const figures = await ok<PortfolioAnalytics>(owner.as.get('/api/analytics/portfolio/'));
    // Commission of the policies whose term overlaps this calendar year (P5 what it earned), as the
    // dashboard and the commission report count it, whatever today is.
    const p5 = p5Earned(today) / 100;
    const endOf = (back: number) => addDays(month(back - 1), -1);
    const started = [
      { start: month(2), end: endOf(-9), expected: 100, received: 100 },
      { start: month(4), end: endOf(-7), expected: 100, received: 35 },
      { start: month(13), end: endOf(2), expected: 50, received: 50 },
      { start: month(1), end: endOf(-10), expected: 55, received: 0 },
      { start: month(3), end: endOf(-8), expected: p5, received: p5 },
      { start: month(14), end: endOf(3), expected: 60, received: 60 },
      { start: addDays(month(11), 14), end: addDays(today, 20), expected: 37.5, received: 37.5 },
      { start: month(-1), end: endOf(-12), expected: 40, received: 0 },
      { start: month(15), end: endOf(4), expected: 25, received: 25 },
    ].filter((policy) => policy.start <= `${year}-12-31` && policy.end >= `${year}-01-01`);
    const expected = started.reduce((sum, policy) => sum + Math.round(policy.expected * 100), 0);
    const received = started.reduce((sum, policy) => sum + Math.round(policy.received * 100), 0);
    const cents = (amount: number) => (amount / 100).toFixed(2);
    expect(figures).toEqual({
      today,
      in_force: { policies: 4, premium: '3160.00' },
      by_company: [
        {
          company_id: ids.harel,
          company_name: 'Harel',
          policies: 2,
          premium: '1860.00',
          share_percentage: '58.86',
        },
        {
          company_id: ids.clal,
          company_name: 'Clal',
          policies: 2,
          premium: '1300.00',
          share_percentage: '41.14',
        },
      ],
      by_policy_type: [
        {
          policy_type_id: ids.motor,
          policy_type_name: 'Motor',
          policies: 2,
          premium: '1860.00',
          share_percentage: '58.86',
        },
        {
          policy_type_id: ids.home,
          policy_type_name: 'Home',
          policies: 2,
          premium: '1300.00',
          share_percentage: '41.14',
        },
      ],
      by_payment_frequency: [
        { payment_frequency: 'single', policies: 3, premium: '2160.00', share_percentage: '68.35' },
        { payment_frequency: 'quarterly', policies: 1, premium: '1000.00', share_percentage: '31.65' },
      ],
      commission_this_year: {
        year,
        policies: started.length,
        expected: cents(expected),
        received: cents(received),
        outstanding: cents(expected - received),
        received_percentage: expected === 0 ? '0.00' : ((received * 100) / expected).toFixed(2),
      },
      concentration: {
        company_id: ids.harel,
        company_name: 'Harel',
        premium: '1860.00',
        share_percentage: '58.86',
      },
      renewals_due: [
        { within_days: 30, policies: 1, premium: '300.00' },
        { within_days: 60, policies: 1, premium: '300.00' },
        { within_days: 90, policies: 1, premium: '300.00' },
      ],
      overdue: { instalments: 2, amount: '510.00' },
    });
  });

  it('tells the history month by month', async () => {
    const { monthKey } = calendar(today);
    const figures = await ok<PortfolioHistory>(owner.as.get('/api/analytics/portfolio-history/?months=12'));
    expect(figures.months).toBe(12);
    expect(figures.today).toBe(today);
    // Months back from the current one (0): what the table above says happened in each.
    const quiet = {
      policies_in_force: 4,
      premium_in_force: '1600.00',
      new_policies: 0,
      renewed: 0,
      expired: 0,
      cancelled: 0,
      expected_commission: '0.00',
      received_commission: '0.00',
      retention_rate: '0.00',
    };
    const byMonth: Record<number, Partial<typeof quiet>> = {
      // P7 starts and is paid; P3, P6, P7 and P9 are in force.
      11: { new_policies: 1, expected_commission: '37.50', received_commission: '37.50' },
      // P9's third and fourth quarters are paid, 100.00 of its 200.00 having come in before the
      // window: 18.75 - 12.50, then 25.00 - 18.75.
      9: { received_commission: '6.25' },
      6: { received_commission: '6.25' },
      // P2 starts, its first quarter paid (250 of 1000: 25.00 of 100.00); P9 expires.
      4: {
        policies_in_force: 5,
        premium_in_force: '2600.00',
        new_policies: 1,
        expired: 1,
        expected_commission: '100.00',
        received_commission: '25.00',
      },
      // P5 starts (cancelled since: it earns its days of cover, paid in full); P6 expires.
      3: {
        policies_in_force: 5,
        premium_in_force: '3200.00',
        new_policies: 1,
        expired: 1,
        expected_commission: (p5Earned(today) / 100).toFixed(2),
        received_commission: (p5Earned(today) / 100).toFixed(2),
      },
      // P1 starts and is paid; P3 ends, renewed.
      2: {
        policies_in_force: 5,
        premium_in_force: '3900.00',
        new_policies: 1,
        renewed: 1,
        retention_rate: '100.00',
        expected_commission: '100.00',
        received_commission: '100.00',
      },
      // P4 renews P3 (300 of 660 paid: nothing yet from a full-policy insurer); P5 cancelled;
      // P2's second quarter part paid (350 of 1000: 35.00, of which 25.00 earned before).
      1: {
        policies_in_force: 4,
        premium_in_force: '3160.00',
        cancelled: 1,
        expected_commission: '55.00',
        received_commission: '10.00',
      },
      // Today: the active policies.
      0: { policies_in_force: 4, premium_in_force: '3160.00' },
    };
    expect(figures.results.map(({ as_of: _, ...row }) => row)).toEqual(
      Array.from({ length: 12 }, (_, index) => ({
        month: monthKey(11 - index),
        ...quiet,
        ...byMonth[11 - index],
      })),
    );
    expect(figures.results.at(-1)?.as_of).toBe(today);
    expect(figures.results.at(-2)?.as_of).toBe(addDays(calendar(today).month(0), -1));

    const longer = await ok<PortfolioHistory>(owner.as.get('/api/analytics/portfolio-history/?months=36'));
    expect(longer.results).toHaveLength(36);
    expect(longer.results.slice(24)).toEqual(figures.results);
    // Every payment falls within three years: the months add up to what the policies have earned.
    const earned = longer.results.reduce(
      (sum, row) => sum + Math.round(Number(row.received_commission) * 100),
      0,
    );
    expect(earned).toBe(30750 + p5Earned(today));
  });

  it('agrees with the policy pages', async () => {
    const stats = await ok<{
      active_premium: string;
      by_status: { active: number };
      received_commission: string;
    }>(owner.as.get('/api/policies/stats/'));
    const portfolio = await ok<PortfolioAnalytics>(owner.as.get('/api/analytics/portfolio/'));
    expect(portfolio.in_force).toEqual({ policies: stats.by_status.active, premium: stats.active_premium });
    const customers = await ok<CustomerAnalytics>(owner.as.get('/api/analytics/customers/'));
    const received = customers.lifetime_value.average_received_commission;
    expect(received).toBe((Math.round((30750 + p5Earned(today)) / 4) / 100).toFixed(2));
    expect(stats.received_commission).toBe(((30750 + p5Earned(today)) / 100).toFixed(2));
    const overdue = await ok<{ count: number }>(owner.as.get('/api/installments/?status=overdue'));
    expect(overdue.count).toBe(portfolio.overdue.instalments);
  });
});

describe('an agency without policies', () => {
  it('answers zeros, never a division by zero', async () => {
    const { as } = await signedInAgency(t.app);
    const customers = await ok<CustomerAnalytics>(as.get('/api/analytics/customers/'));
    expect(customers.retention).toEqual({ base_customers: 0, retained_customers: 0, retention_rate: '0.00' });
    expect(customers.lifetime_value.average_premium).toBe('0.00');
    expect(customers.top_by_premium).toEqual([]);
    const portfolio = await ok<PortfolioAnalytics>(as.get('/api/analytics/portfolio/'));
    expect(portfolio.concentration).toBeNull();
    expect(portfolio.in_force).toEqual({ policies: 0, premium: '0.00' });
    expect(portfolio.by_company).toEqual([]);
    const history = await ok<PortfolioHistory>(as.get('/api/analytics/portfolio-history/?months=24'));
    expect(history.results).toHaveLength(24);
    expect(
      history.results.every((row) => row.premium_in_force === '0.00' && row.retention_rate === '0.00'),
    ).toBe(true);
  });
});

describe('the analytics requests', () => {
  it('refuse a period or a span they do not know, with the field', async () => {
    const { as } = await signedInAgency(t.app);
    const period = await as.get('/api/analytics/customers/?period=2y');
    expect(period.statusCode).toBe(400);
    expect(period.json()).toEqual({ period: ['Choose a period: 3m, 6m, 12m or ytd.'] });
    for (const months of ['7', 'twelve', '']) {
      const span = await as.get(`/api/analytics/portfolio-history/?months=${months}`);
      expect(span.statusCode, months).toBe(400);
      expect(span.json()).toEqual({ months: ['Choose 12, 24 or 36 months.'] });
    }
  });

  it.each([
    ['module_customer_analytics', '/api/analytics/customers/', 'Customer Analytics'],
    ['module_portfolio_analytics', '/api/analytics/portfolio/', 'Current Portfolio'],
    ['module_portfolio_history', '/api/analytics/portfolio-history/', 'Portfolio History'],
  ] as const)('keep %s to plans that include it', async (module, path, label) => {
    const { as, user } = await signedInAgency(t.app);
    expect((await as.get(path)).statusCode).toBe(200);
    await setSubscription(t, user.tenant_id, { plan: await addPlanWithout(t, module) });
    const refused = await as.get(path);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe(
      `Your Test plan does not include ${label}. Upgrade your plan on the Billing page to use it.`,
    );
    await setSubscription(t, user.tenant_id, { status: 'expired' });
    const lapsed = await as.get(path);
    expect(lapsed.statusCode).toBe(402);
    expect(lapsed.json().detail).toMatch(/Billing page/);
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(401);
  });
});
