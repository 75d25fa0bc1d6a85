import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptAndAfresh, statsFromPolicies } from '../../../test/kept-totals.js';
import { createTestApp, databaseCalendar, signedInAgency, type TestApp } from '../../../test/test-app.js';

// A cancelled policy asks for nothing more: its instalments due after the cancellation are cancelled
// (kept, never due, overdue, reminded or on the calendar), and its commission is what the earned part
// of the term carries, the same on the policy, its stats, the commission report and the analytics.

let t: TestApp;
/** The date `days` from today (negative for the past). */
let day: (days: number) => string;
beforeAll(async () => {
  t = await createTestApp();
  ({ day } = await databaseCalendar(t));
});
afterAll(() => t.close());

type Agency = Awaited<ReturnType<typeof signedInAgency>>;
interface Instalment {
  id: string;
  sequence: number;
  due_date: string;
  status: string;
  is_overdue: boolean;
}

async function ok<T = Record<string, unknown>>(
  response: Promise<{ statusCode: number; body: string; json(): unknown }>,
  status = 200,
): Promise<T> {
  const answered = await response;
  expect(answered.statusCode, answered.body).toBe(status);
  return answered.json() as T;
}

/**
 * SL-MOT-4001 as the broker found it: 900.00 quarterly (4 x 225.00) over a year from `start` days
 * from today, net 800.00 at 12.5% (expected 100.00), the first instalment paid. `method` is how
 * the insurer pays its commission.
 */
async function quarterlyPolicy(start: number, method: 'full_policy' | 'pro_rata' = 'pro_rata') {
  const agency = await signedInAgency(t.app);
  const { as } = agency;
  const motor = await ok<{ id: string }>(
    as.post('/api/policy-types/', { name: 'Motor', category: 'auto' }),
    201,
  );
  const insurer = await ok<{ id: string }>(
    as.post('/api/companies/', {
      name: 'Shirbit',
      commission_payment_method: method,
      policy_types: [{ policy_type_id: motor.id, commission_percentage: '12.5' }],
    }),
    201,
  );
  const customer = await ok<{ id: string }>(
    as.post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' }),
    201,
  );
  const policy = await ok<{ id: string }>(
    as.post('/api/policies/', {
      policy_number: 'SL-MOT-4001',
      customer_id: customer.id,
      company_id: insurer.id,
      policy_type_id: motor.id,
      start_date: day(start),
      end_date: day(start + 364),
      total_premium: '900.00',
      net_premium: '800.00',
      payment_frequency: 'quarterly',
    }),
    201,
  );
  const [first] = await instalmentsOf(agency, policy.id);
  if (!first) throw new Error('a quarterly policy has instalments');
  await ok(as.post(`/api/installments/${first.id}/payment/`, { payment_method: 'bank_transfer' }));
  return { ...agency, policyId: policy.id };
}

async function instalmentsOf(agency: Agency, policyId: string) {
  const page = await ok<{ results: Instalment[] }>(agency.as.get(`/api/policies/${policyId}/installments/`));
  return page.results;
}

const cancel = (agency: Agency & { policyId: string }, body: Record<string, unknown>) =>
  agency.as.post(`/api/policies/${agency.policyId}/cancel/`, { reason: 'Car sold', ...body });

/** What every screen says the agency's commission is, and what the policy itself says. */
async function commissionEverywhere(agency: Agency & { policyId: string }) {
  const policy = await ok<{ expected_commission: string; received_commission: string }>(
    agency.as.get(`/api/policies/${agency.policyId}/`),
  );
  const stats = await ok<{ expected_commission: string; received_commission: string }>(
    agency.as.get('/api/policies/stats/'),
  );
  const report = await ok<{
    summary: { total_expected_commission: string; total_received_commission: string };
  }>(agency.as.get('/api/policies/commission_batch/'));
  return {
    policy: [policy.expected_commission, policy.received_commission],
    stats: [stats.expected_commission, stats.received_commission],
    report: [report.summary.total_expected_commission, report.summary.total_received_commission],
  };
}

/** Which of the agency's instalments the payments list calls due and overdue, and the calendar shows. */
async function stillChased(agency: Agency) {
  const due = await ok<{ results: Instalment[] }>(agency.as.get('/api/installments/?status=due'));
  const overdue = await ok<{ results: Instalment[] }>(agency.as.get('/api/installments/?status=overdue'));
  const calendar = await ok<{ results: { kind: string; start: string }[] }>(
    agency.as.get(`/api/calendar/events/?start=${day(-150)}&end=${day(249)}`),
  );
  const dashboard = await ok<{ payments: { overdue_count: number } }>(agency.as.get('/api/dashboard/'));
  return {
    due: due.results.map((row) => row.sequence),
    overdue: overdue.results.map((row) => row.sequence),
    calendar: calendar.results.filter((event) => event.kind === 'installment').map((event) => event.start),
    dashboardOverdue: dashboard.payments.overdue_count,
  };
}

async function expectKeptTotalsAgree(agency: Agency) {
  const { kept, afresh } = await keptAndAfresh(t.database.db, agency.user.tenant_id);
  expect(kept).toEqual(afresh);
  const stats = await ok(agency.as.get('/api/policies/stats/'));
  expect(stats).toEqual(await statsFromPolicies(t.database.db, agency.user.tenant_id));
}

describe('cancelling a policy', () => {
  it('today: the instalments still to come are cancelled, and the commission is the days covered', async () => {
    // Started 40 days ago: instalment 1 (paid) is behind, 2-4 due in about 51, 142 and 233 days.
    const agency = await quarterlyPolicy(-40);
    expect((await stillChased(agency)).due).toEqual([2, 3, 4]);

    const cancelled = await ok<{ status: string; cancellation_refund: string | null }>(
      cancel(agency, { cancelled_at: day(0) }),
    );
    expect(cancelled).toMatchObject({ status: 'cancelled', cancellation_refund: null });
    expect((await instalmentsOf(agency, agency.policyId)).map((row) => [row.sequence, row.status])).toEqual([
      [1, 'paid'],
      [2, 'cancelled'],
      [3, 'cancelled'],
      [4, 'cancelled'],
    ]);
    expect(await stillChased(agency)).toEqual({ due: [], overdue: [], calendar: [], dashboardOverdue: 0 });

    // 40 days of cover of 365: 900.00 x 40 / 365 = 98.63 earned; 100.00 x 98.63 / 900.00 = 10.96.
    // The 225.00 paid covers what was earned, so the pro rata insurer owes all of it.
    expect(await commissionEverywhere(agency)).toEqual({
      policy: ['10.96', '10.96'],
      stats: ['10.96', '10.96'],
      report: ['10.96', '10.96'],
    });
    await expectKeptTotalsAgree(agency);

    // Nothing can be paid on a cancelled instalment.
    const [, second] = await instalmentsOf(agency, agency.policyId);
    const refused = await agency.as.post(`/api/installments/${second?.id}/payment/`, {
      payment_method: 'cash',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/cancelled with its policy/);
  });

  it('in the past: what fell due before the cancellation is still owed, and overdue', async () => {
    // Started 200 days ago: instalments due 200, 109 and 18 days ago, and in 73 days; only 1 paid.
    const agency = await quarterlyPolicy(-200, 'full_policy');
    const cancelled = await ok<{ expected_commission: string }>(cancel(agency, { cancelled_at: day(-50) }));
    const rows = await instalmentsOf(agency, agency.policyId);
    expect(rows.map((row) => [row.sequence, row.status, row.is_overdue])).toEqual([
      [1, 'paid', false],
      [2, 'pending', true],
      [3, 'cancelled', false],
      [4, 'cancelled', false],
    ]);
    expect(await stillChased(agency)).toEqual({
      due: [2],
      overdue: [2],
      calendar: [rows[1]?.due_date],
      dashboardOverdue: 1,
    });
    // 150 days of 365: 900.00 x 150 / 365 = 369.86 earned; 100.00 x 369.86 / 900.00 = 41.10. A
    // full-policy insurer pays once the earned premium is paid: 225.00 is not yet.
    expect(cancelled.expected_commission).toBe('41.10');
    expect(await commissionEverywhere(agency)).toEqual({
      policy: ['41.10', '0.00'],
      stats: ['41.10', '0.00'],
      report: ['41.10', '0.00'],
    });
    await expectKeptTotalsAgree(agency);
  });

  it('in the future within the term: instalments due until then stay due', async () => {
    const agency = await quarterlyPolicy(-40);
    await ok(cancel(agency, { cancelled_at: day(100) }));
    expect((await instalmentsOf(agency, agency.policyId)).map((row) => row.status)).toEqual([
      'paid',
      'pending',
      'cancelled',
      'cancelled',
    ]);
    const chased = await stillChased(agency);
    expect(chased).toMatchObject({ due: [2], overdue: [], dashboardOverdue: 0 });
    expect(chased.calendar).toHaveLength(1);
    // 140 days of 365: 900.00 x 140 / 365 = 345.21 earned; 100.00 x 345.21 / 900.00 = 38.36;
    // received pro rata 38.36 x 225.00 / 345.21 = 25.00.
    expect(await commissionEverywhere(agency)).toEqual({
      policy: ['38.36', '25.00'],
      stats: ['38.36', '25.00'],
      report: ['38.36', '25.00'],
    });
    await expectKeptTotalsAgree(agency);
  });

  it('with a refund: the term earns its premium less the refund', async () => {
    const agency = await quarterlyPolicy(-40);
    const cancelled = await ok<{ cancellation_refund: string; expected_commission: string }>(
      cancel(agency, { cancelled_at: day(0), refund_amount: '600.00' }),
    );
    // 900.00 - 600.00 = 300.00 earned: 100.00 x 300 / 900 = 33.33; 225.00 paid of it pro rata: 25.00.
    expect(cancelled).toMatchObject({ cancellation_refund: '600.00', expected_commission: '33.33' });
    expect(await commissionEverywhere(agency)).toEqual({
      policy: ['33.33', '25.00'],
      stats: ['33.33', '25.00'],
      report: ['33.33', '25.00'],
    });
    await expectKeptTotalsAgree(agency);
  });

  it('refuses a day outside the term, a refund above the premium, and a second cancellation', async () => {
    const agency = await quarterlyPolicy(-40);
    const before = await cancel(agency, { cancelled_at: day(-41) });
    expect(before.statusCode).toBe(400);
    expect(before.json().cancelled_at[0]).toMatch(/^Choose a day within the policy's term, from /);
    const after = await cancel(agency, { cancelled_at: day(325) });
    expect(after.statusCode).toBe(400);
    const refund = await cancel(agency, { cancelled_at: day(0), refund_amount: '900.01' });
    expect(refund.statusCode).toBe(400);
    expect(refund.json().refund_amount[0]).toMatch(/cannot be more than the policy's premium/);
    // None of these cancelled anything.
    expect((await stillChased(agency)).due).toEqual([2, 3, 4]);

    await ok(cancel(agency, { cancelled_at: day(0) }));
    const again = await cancel(agency, { cancelled_at: day(0) });
    expect(again.statusCode).toBe(409);
  });

  it('keeps a cancelled policy’s later instalments cancelled when its schedule is rebuilt', async () => {
    const agency = await signedInAgency(t.app);
    const { as } = agency;
    const motor = await ok<{ id: string }>(
      as.post('/api/policy-types/', { name: 'Motor', category: 'auto' }),
      201,
    );
    const insurer = await ok<{ id: string }>(
      as.post('/api/companies/', {
        name: 'Shirbit',
        policy_types: [{ policy_type_id: motor.id, commission_percentage: '10' }],
      }),
      201,
    );
    const customer = await ok<{ id: string }>(
      as.post('/api/customers/', { first_name: 'Avi', last_name: 'Cohen' }),
      201,
    );
    const body = {
      policy_number: 'SL-MOT-4002',
      customer_id: customer.id,
      company_id: insurer.id,
      policy_type_id: motor.id,
      start_date: day(-40),
      end_date: day(324),
      total_premium: '900.00',
      payment_frequency: 'quarterly',
    };
    const policy = await ok<{ id: string }>(as.post('/api/policies/', body), 201);
    const withId = { ...agency, policyId: policy.id };
    await ok(cancel(withId, { cancelled_at: day(0) }));
    // Nothing paid yet, so a new frequency rebuilds the schedule: monthly, 12 instalments.
    await ok(as.put(`/api/policies/${policy.id}/`, { ...body, payment_frequency: 'monthly' }));
    const rows = await instalmentsOf(agency, policy.id);
    expect(rows).toHaveLength(12);
    for (const row of rows) expect(row.status).toBe(row.due_date > day(0) ? 'cancelled' : 'pending');
    await expectKeptTotalsAgree(agency);
  });
});
