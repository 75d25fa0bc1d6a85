import {
  type ClaimStats,
  type CommissionReport,
  type Dashboard,
  fromCents,
  type InstallmentRow,
  type Lead,
  type LeadStats,
  type Paged,
  type Policy,
  type PolicyStats,
  type PortfolioHistory,
  toCents,
} from '@coverdesk/contract';
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

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Agency = Awaited<ReturnType<typeof signedInAgency>>;

const dayAfter = (day: string, days: number) => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

const sum = (amounts: string[]) => fromCents(amounts.reduce((total, amount) => total + toCents(amount), 0n));

const todayOf = (agency: Agency) => withTenant(t.database.db, agency.user.tenant_id, (tx) => agencyToday(tx));

/**
 * A small agency through the API, as a broker builds it, with dates around its today:
 *
 *   policy  customer  insurer (pays)   type   term (days from today)  premium  frequency  paid
 *   P1      Dana      Harel (full)     Motor  -200 .. +165            1200.00  monthly    2 instalments
 *   P2      Yossi     Clal (pro rata)  Home   -60 .. +20 (expiring)    900.00  monthly    40.00 of the first
 *   P3      Rina      Harel (full)     Home   -400 .. -35 (expired)    500.00  single     nothing (overdue)
 *   P4      Dana      Clal (pro rata)  Motor  +10 .. +375 (pending)    300.00  single     nothing
 *   P5      Yossi     Harel (full)     Motor  -30 .. +335, cancelled   700.00  single     all
 *   P6      Rina      Clal (pro rata)  Motor  -100 .. +5, renewed      400.00  single     all
 *   P7      Rina      Clal (pro rata)  Motor  renews P6 (pending)      400.00  single     nothing
 *
 * Leads: two open (new 1000.00, quoted 2500.50), one won, one lost. Claims on P1: one open, one closed.
 */
async function buildAgency(as: Caller, today: string) {
  const day = (days: number) => dayAfter(today, days);
  const { motor, home, harel, clal, dana, yossi, rina } = await addBookParties(as);

  let numbered = 0;
  const policy = async (
    customer_id: string,
    company_id: string,
    policy_type_id: string,
    [start, end]: [number, number],
    total_premium: string,
    payment_frequency = 'single',
  ) =>
    (
      await ok<{ id: string }>(
        as.post('/api/policies/', {
          policy_number: `P${++numbered}`,
          customer_id,
          company_id,
          policy_type_id,
          start_date: day(start),
          end_date: day(end),
          total_premium,
          payment_frequency,
        }),
        201,
      )
    ).id;
  const pay = async (policyId: string, sequence: number, amount?: string) => {
    const { results } = await ok<{ results: { id: string }[] }>(
      as.get(`/api/policies/${policyId}/installments/`),
    );
    const instalment = results[sequence - 1];
    if (!instalment) throw new Error(`no instalment ${sequence}`);
    await ok(
      as.post(`/api/installments/${instalment.id}/payment/`, {
        payment_method: 'bank_transfer',
        ...(amount ? { amount } : {}),
      }),
    );
  };

  const p1 = await policy(dana, harel.id, motor.id, [-200, 165], '1200.00', 'monthly');
  await pay(p1, 1);
  await pay(p1, 2);
  const p2 = await policy(yossi, clal.id, home.id, [-60, 20], '900.00', 'monthly');
  await pay(p2, 1, '40.00');
  await policy(rina, harel.id, home.id, [-400, -35], '500.00');
  await policy(dana, clal.id, motor.id, [10, 375], '300.00');
  const p5 = await policy(yossi, harel.id, motor.id, [-30, 335], '700.00');
  await pay(p5, 1);
  await ok(as.post(`/api/policies/${p5}/cancel/`, { cancelled_at: day(-5), reason: 'Sold the car' }));
  const p6 = await policy(rina, clal.id, motor.id, [-100, 5], '400.00');
  await pay(p6, 1);
  await ok(as.post(`/api/policies/${p6}/renew/`, {}), 201);

  const lead = (body: Record<string, unknown>) => ok(as.post('/api/leads/', body), 201);
  await lead({ first_name: 'Maya', last_name: 'Ron', estimated_premium: '1000.00' });
  await lead({ business_name: 'Ron Bakery', status: 'quoted', estimated_premium: '2500.50' });
  await lead({ first_name: 'Eli', last_name: 'Gal', status: 'won', estimated_premium: '700.00' });
  await lead({
    first_name: 'Tal',
    last_name: 'Bar',
    status: 'lost',
    lost_reason: 'Price',
    estimated_premium: '50.00',
  });

  const claim = (amount_claimed: string) =>
    ok<{ id: string }>(
      as.post('/api/claims/', {
        policy_id: p1,
        incident_date: day(-3),
        claim_type: 'accident',
        amount_claimed,
      }),
      201,
    );
  await claim('4200.00');
  const closed = await claim('300.00');
  await ok(as.post(`/api/claims/${closed.id}/transition/`, { status: 'closed', note: 'Withdrawn' }));
  return { motor: motor.id, home: home.id };
}

describe('commission this month', () => {
  it("is the commission of the terms started this month by today, and received on this month's payments", async () => {
    const agency = await signedInAgency(t.app);
    const { as } = agency;
    const today = await todayOf(agency);
    const firstOfMonth = `${today.slice(0, 7)}-01`;
    const lastMonthEnd = dayAfter(firstOfMonth, -1);
    const { motor, harel, clal, dana } = await addBookParties(as);
    const policy = async (
      policy_number: string,
      company_id: string,
      start_date: string,
      total_premium: string,
      payment_frequency = 'single',
    ) =>
      (
        await ok<{ id: string }>(
          as.post('/api/policies/', {
            policy_number,
            customer_id: dana,
            company_id,
            policy_type_id: motor.id,
            start_date,
            end_date: dayAfter(start_date, 364),
            total_premium,
            payment_frequency,
          }),
          201,
        )
      ).id;
    const payFirst = async (policyId: string, paid_date: string) => {
      const { results } = await ok<{ results: { id: string }[] }>(
        as.get(`/api/policies/${policyId}/installments/`),
      );
      await ok(
        as.post(`/api/installments/${results[0]?.id}/payment/`, {
          payment_method: 'bank_transfer',
          paid_date,
        }),
      );
    };
    // Started on the first of this month, Harel 10% paid by the full policy, paid in full today:
    // 100.00 expected this month and 100.00 received.
    await payFirst(await policy('THIS-1', harel.id, firstOfMonth, '1000.00'), today);
    // Started the day before, Clal 12.5% pro rata, a quarter paid today: nothing expected this month,
    // 25.00 of its 100.00 received.
    await payFirst(await policy('LAST-1', clal.id, lastMonthEnd, '800.00', 'quarterly'), today);
    // Started last month and paid then: neither expected nor received this month.
    await payFirst(await policy('LAST-2', harel.id, dayAfter(lastMonthEnd, -10), '600.00'), lastMonthEnd);
    // Starting tomorrow: not this month's yet.
    await policy('NEXT-1', clal.id, dayAfter(today, 1), '400.00');

    const board = await ok<Dashboard>(as.get('/api/dashboard/'));
    expect(board.commission?.this_month).toEqual({
      start_date: firstOfMonth,
      end_date: today,
      expected: '100.00',
      received: '125.00',
    });
  });
});

describe('the dashboard of a worked example', () => {
  let owner: Agency;
  let other: Agency;
  let today: string;
  let board: Dashboard;

  beforeAll(async () => {
    owner = await signedInAgency(t.app);
    today = await todayOf(owner);
    await buildAgency(owner.as, today);
    // Another agency with the same book: none of it may show.
    other = await signedInAgency(t.app);
    await buildAgency(other.as, await todayOf(other));
    board = await ok<Dashboard>(owner.as.get('/api/dashboard/'));
  });

  it('counts the policies as the policy stats and lists do', async () => {
    const stats = await ok<PolicyStats>(owner.as.get('/api/policies/stats/'));
    const policies = board.policies;
    expect(board.today).toBe(today);
    expect(policies).toMatchObject({
      active_policies: stats.by_status.active,
      premium_in_force: stats.active_premium,
      expiring_in_30_days: stats.expiring_in_30_days,
    });
    // Worked by hand: P1, P2 and P6 (renewed early, covering to its end) are active; P2 ends within
    // 30 days, P6 too but its renewal is agreed.
    expect(policies).toMatchObject({
      active_policies: 3,
      premium_in_force: '2500.00',
      expiring_in_30_days: 1,
    });

    for (const type of policies?.by_type ?? []) {
      const list = await ok<Paged<Policy>>(
        owner.as.get(`/api/policies/?status=active&policy_type_id=${type.policy_type_id}&page_size=100`),
      );
      expect([type.policies, type.premium]).toEqual([
        list.count,
        sum(list.results.map((p) => p.total_premium)),
      ]);
    }
    expect(policies?.by_type.map((type) => [type.policy_type_name, type.policies, type.premium])).toEqual([
      ['Motor', 2, '1600.00'],
      ['Home', 1, '900.00'],
    ]);

    const expiring = await ok<Paged<Policy>>(
      owner.as.get('/api/policies/?expiring_within_days=30&ordering=end_date&page_size=5'),
    );
    expect(policies?.renewals_due.map((policy) => policy.id)).toEqual(expiring.results.map((p) => p.id));
    expect(policies?.renewals_due[0]).toMatchObject({
      policy_number: 'P2',
      customer_name: 'Yossi Cohen',
      company_name: 'Clal',
      end_date: dayAfter(today, 20),
      total_premium: '900.00',
      days_left: 20,
    });
  });

  it("sums this year's commission as the commission report does for the year", async () => {
    const commission = board.commission;
    const { start_date, end_date } = commission?.this_year ?? { start_date: '', end_date: '' };
    expect(start_date).toBe(`${today.slice(0, 4)}-01-01`);
    expect(end_date).toBe(`${today.slice(0, 4)}-12-31`);
    const report = await ok<CommissionReport>(
      owner.as.get(
        `/api/policies/commission_batch/?start_date=${start_date}&end_date=${end_date}&include=summary`,
      ),
    );
    expect(commission?.this_year).toMatchObject({
      expected: report.summary.total_expected_commission,
      received: report.summary.total_received_commission,
    });
    expect(commission?.by_company).toEqual(
      report.company_summary.map((company) => ({
        company_id: company.company_id,
        company_name: company.company_name,
        expected: company.total_expected_commission,
        received: company.total_received_commission,
      })),
    );
  });

  it("gives this month's commission as the portfolio history's current month", async () => {
    const history = await ok<PortfolioHistory>(owner.as.get('/api/analytics/portfolio-history/?months=12'));
    const month = history.results.at(-1);
    // The worked example's payments were made today: this month's received commission is not nothing.
    expect(month?.received_commission).not.toBe('0.00');
    expect(board.commission?.this_month).toEqual({
      start_date: `${today.slice(0, 7)}-01`,
      end_date: today,
      expected: month?.expected_commission,
      received: month?.received_commission,
    });
  });

  it('charts the months as the policies and the portfolio history give them', async () => {
    const history = await ok<PortfolioHistory>(owner.as.get('/api/analytics/portfolio-history/?months=12'));
    const all = await ok<Paged<Policy>>(owner.as.get('/api/policies/?page_size=100'));
    expect(board.months?.map((month) => month.month)).toEqual(history.results.map((month) => month.month));
    for (const [index, month] of (board.months ?? []).entries()) {
      expect(month.commission_received).toBe(history.results[index]?.received_commission);
      const written = all.results.filter(
        (policy) =>
          policy.start_date.startsWith(month.month) &&
          policy.start_date <= today &&
          policy.status !== 'cancelled',
      );
      expect(month.premium_written, month.month).toBe(sum(written.map((policy) => policy.total_premium)));
    }
    // Something was written and earned in the window, so the comparison above compared figures.
    expect(sum(board.months?.map((month) => month.premium_written) ?? [])).not.toBe('0.00');
    expect(sum(board.months?.map((month) => month.commission_received) ?? [])).not.toBe('0.00');
  });

  it('adds up the overdue instalments as the payments list shows them', async () => {
    const overdue = await ok<Paged<InstallmentRow>>(
      owner.as.get('/api/installments/?status=overdue&ordering=due_date&page_size=100'),
    );
    const payments = board.payments;
    expect(payments?.overdue_count).toBe(overdue.count);
    expect(payments?.overdue_count).toBeGreaterThan(5);
    expect(payments?.overdue_amount).toBe(
      sum(overdue.results.map((row) => fromCents(toCents(row.amount_due) - toCents(row.amount_paid)))),
    );
    expect(payments?.overdue.map(({ days_overdue, ...row }) => row)).toEqual(overdue.results.slice(0, 5));
    // The oldest is P3's single instalment, due on its first day.
    expect(payments?.overdue[0]).toMatchObject({
      policy_number: 'P3',
      days_overdue: 400,
      amount_due: '500.00',
    });
  });

  it('counts the open leads and claims as their stats do', async () => {
    const leadStats = await ok<LeadStats>(owner.as.get('/api/leads/stats/'));
    const latest = await ok<Paged<Lead>>(owner.as.get('/api/leads/?page_size=5'));
    expect(board.leads).toMatchObject({
      open_count: leadStats.open_count,
      open_pipeline_premium: leadStats.open_pipeline_premium,
    });
    expect(board.leads).toMatchObject({ open_count: 2, open_pipeline_premium: '3500.50' });
    expect(board.leads?.recent.map((lead) => lead.id)).toEqual(latest.results.map((lead) => lead.id));
    expect(board.leads?.recent[0]).toMatchObject({ display_name: 'Tal Bar', status: 'lost' });

    const claimStats = await ok<ClaimStats>(owner.as.get('/api/claims/stats/'));
    expect(board.claims).toEqual({ open_count: claimStats.open_count });
    expect(board.claims?.open_count).toBe(1);
  });

  it("shows today's agenda as the calendar's day", async () => {
    const today = board.today;
    const meeting = await owner.as.post('/api/calendar/meetings/', {
      title: 'Fleet review',
      all_day: true,
      start: today,
      end: today,
    });
    expect(meeting.statusCode).toBe(201);
    const now = await ok<Dashboard>(owner.as.get('/api/dashboard/'));
    const day = await ok<{ results: unknown[] }>(
      owner.as.get(`/api/calendar/events/?start=${today}&end=${today}`),
    );
    expect(now.agenda).toEqual(day.results);
    expect(now.agenda?.map((event) => event.title)).toContain('Fleet review');
  });

  it("never shows another agency's records", async () => {
    const theirs = await ok<Paged<Policy>>(other.as.get('/api/policies/?page_size=100'));
    const text = JSON.stringify(board);
    for (const policy of theirs.results) expect(text).not.toContain(policy.id);
    const theirLeads = await ok<Paged<Lead>>(other.as.get('/api/leads/?page_size=100'));
    for (const lead of theirLeads.results) expect(text).not.toContain(lead.id);
  });
});

describe('the dashboard of a new agency', () => {
  it('answers zeros and empty lists', async () => {
    const agency = await signedInAgency(t.app);
    const board = await ok<Dashboard>(agency.as.get('/api/dashboard/'));
    expect(board.policies).toEqual({
      active_policies: 0,
      premium_in_force: '0.00',
      expiring_in_30_days: 0,
      by_type: [],
      renewals_due: [],
    });
    expect(board.commission).toMatchObject({
      this_month: { expected: '0.00', received: '0.00' },
      this_year: { expected: '0.00', received: '0.00' },
      by_company: [],
    });
    expect(board.months).toHaveLength(12);
    expect(board.months?.at(-1)?.month).toBe(board.today.slice(0, 7));
    for (const month of board.months ?? []) {
      expect(month).toMatchObject({ premium_written: '0.00', commission_received: '0.00' });
    }
    expect(board.payments).toEqual({ overdue_count: 0, overdue_amount: '0.00', overdue: [] });
    expect(board.leads).toEqual({ open_count: 0, open_pipeline_premium: '0.00', recent: [] });
    expect(board.claims).toEqual({ open_count: 0 });
    expect(board.agenda).toEqual([]);
  });
});

describe('the plan gate', () => {
  it('refuses without an active subscription (402) and without the module (403)', async () => {
    const lapsed = await signedInAgency(t.app);
    await setSubscription(t, lapsed.user.tenant_id, { status: 'expired' });
    expect((await lapsed.as.get('/api/dashboard/')).statusCode).toBe(402);

    const without = await signedInAgency(t.app);
    await setSubscription(t, without.user.tenant_id, { plan: await addPlanWithout(t, 'module_dashboard') });
    expect((await without.as.get('/api/dashboard/')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/dashboard/' })).statusCode).toBe(401);
  });

  it('leaves out the sections of modules the plan does not include', async () => {
    const cases = [
      ['module_leads', 'leads'],
      ['module_claims', 'claims'],
      ['module_payments', 'payments'],
      ['module_policies', 'policies'],
      ['module_commission_reports', 'commission'],
    ] as const;
    for (const [module, section] of cases) {
      const agency = await signedInAgency(t.app);
      await setSubscription(t, agency.user.tenant_id, { plan: await addPlanWithout(t, module) });
      const board = await ok<Dashboard>(agency.as.get('/api/dashboard/'));
      expect(board[section], module).toBeNull();
      const others = (['policies', 'commission', 'payments', 'leads', 'claims'] as const).filter(
        (name) => name !== section,
      );
      for (const name of others) expect(board[name], `${module}: ${name}`).not.toBeNull();
      const chartShown = module !== 'module_policies' && module !== 'module_commission_reports';
      expect(board.months === null, `${module}: months`).toBe(!chartShown);
    }
  });
});
