import { policyPage, termEnd } from '@coverdesk/contract';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { column, expectFormatAndGate, exportBoth, xlsxFormats } from '../../../test/export-file.js';
import {
  addPlanWithout,
  createTestApp,
  databaseCalendar,
  PASSWORD,
  setSubscription,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { installments, policies } from './tables.js';

let t: TestApp;
let today: string;
/** The date `days` from today (negative for the past). */
let day: (days: number) => string;
beforeAll(async () => {
  t = await createTestApp();
  ({ today, day } = await databaseCalendar(t));
});
afterAll(() => t.close());

type Agency = Awaited<ReturnType<typeof signedInAgency>>;
type Caller = Agency['as'];

const missing = '01900000-0000-7000-8000-000000000000';

async function created(response: { statusCode: number; body: string; json(): unknown }) {
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string } & Record<string, unknown>;
}

/** An agency with a Motor type sold by Harel at 12.5%, and one customer. */
async function setUp(commission_payment_method: 'full_policy' | 'pro_rata' = 'full_policy') {
  const agency = await signedInAgency(t.app);
  const { as } = agency;
  const motor = await created(await as.post('/api/policy-types/', { name: 'Motor', category: 'auto' }));
  const harel = await created(
    await as.post('/api/companies/', {
      name: 'Harel',
      commission_payment_method,
      policy_types: [{ policy_type_id: motor.id, commission_percentage: '12.5' }],
    }),
  );
  const customer = await created(await as.post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' }));
  const base = {
    customer_id: customer.id,
    company_id: harel.id,
    policy_type_id: motor.id,
    start_date: day(-10),
    end_date: day(354),
    total_premium: '1000.00',
  };
  const addPolicy = async (overrides: Record<string, unknown> = {}, caller: Caller = as) =>
    created(await caller.post('/api/policies/', { policy_number: 'POL-1', ...base, ...overrides }));
  return { ...agency, motor, harel, customer, base, addPolicy };
}

/** Records a payment on one instalment the way the payments module does, keeping the policy's totals. */
async function pay(tenantId: string, policyId: string, sequence: number, amount: string) {
  await withTenant(t.database.db, tenantId, async (tx) => {
    await tx
      .update(installments)
      .set({
        amountPaid: sql`${installments.amountPaid} + ${amount}::numeric`,
        status: sql`case when ${installments.amountPaid} + ${amount}::numeric >= ${installments.amountDue} then 'paid' else 'partially_paid' end`,
        paidDate: today,
      })
      .where(and(eq(installments.policyId, policyId), eq(installments.sequence, sequence)));
    await tx
      .update(policies)
      .set({
        amountPaid: sql`(select sum(amount_paid) from installments where policy_id = ${policyId})`,
        installmentsPaid: sql`(select count(*) from installments where policy_id = ${policyId} and status = 'paid')::int`,
      })
      .where(eq(policies.id, policyId));
  });
}

async function instalmentCount(tenantId: string, policyId: string) {
  const [row] = await withTenant(t.database.db, tenantId, (tx) =>
    tx.select({ n: count() }).from(installments).where(eq(installments.policyId, policyId)),
  );
  return row?.n;
}

describe('policies', () => {
  it('adds a policy with its instalments, the commission rate taken from the insurer', async () => {
    const { as, addPolicy, customer, harel, motor } = await setUp();
    const policy = await addPolicy({
      start_date: '2026-01-31',
      end_date: '2027-01-30',
      total_premium: '1000.01',
      payment_frequency: 'quarterly',
      insured_item: 'Mazda 3, 12-345-67',
    });
    expect(policy).toMatchObject({
      policy_number: 'POL-1',
      customer: { id: customer.id, first_name: 'Dana', last_name: 'Levi' },
      customer_name: 'Dana Levi',
      company_id: harel.id,
      company_name: 'Harel',
      commission_payment_method: 'full_policy',
      policy_type_id: motor.id,
      policy_type_name: 'Motor',
      total_premium: '1000.01',
      net_premium: '1000.01',
      commission_percentage: '12.50',
      payment_frequency: 'quarterly',
      custom_installments: null,
      expected_commission: '125.00',
      received_commission: '0.00',
      amount_paid: '0.00',
      installments_paid: 0,
      total_installments: 4,
      renewed_from_id: null,
      renewed_to_id: null,
      cancelled_at: null,
    });
    // Read alone, a policy also counts its claims.
    expect((await as.get(`/api/policies/${policy.id}/`)).json()).toEqual({ ...policy, claim_count: 0 });

    const schedule = await as.get(`/api/policies/${policy.id}/installments/`);
    expect(schedule.statusCode).toBe(200);
    expect(
      schedule
        .json()
        .results.map((row: Record<string, unknown>) => [row.sequence, row.due_date, row.amount_due]),
    ).toEqual([
      [1, '2026-01-31', '250.01'],
      [2, '2026-04-30', '250.00'],
      [3, '2026-07-31', '250.00'],
      [4, '2026-10-31', '250.00'],
    ]);
    expect(schedule.json().results[0]).toMatchObject({
      policy_id: policy.id,
      amount_paid: '0.00',
      status: 'pending',
      paid_date: null,
      is_overdue: '2026-01-31' < today,
    });
  });

  it('keeps an explicit commission and net premium, and flags unpaid instalments past due', async () => {
    const { as, addPolicy } = await setUp();
    const policy = await addPolicy({
      start_date: day(-45),
      end_date: day(319),
      net_premium: '800.00',
      commission_percentage: 10,
      payment_frequency: 'custom',
      custom_installments: 3,
    });
    expect(policy).toMatchObject({
      net_premium: '800.00',
      commission_percentage: '10.00',
      expected_commission: '80.00',
      custom_installments: 3,
    });
    const rows = (await as.get(`/api/policies/${policy.id}/installments/`)).json().results;
    expect(rows.map((row: { amount_due: string }) => row.amount_due)).toEqual(['333.34', '333.33', '333.33']);
    expect(rows.map((row: { is_overdue: boolean }) => row.is_overdue)).toEqual([true, false, false]);
  });

  it('earns pro rata commission as the premium is paid', async () => {
    const { as, addPolicy, user } = await setUp('pro_rata');
    const policy = await addPolicy();
    await pay(user.tenant_id, policy.id, 1, '333.33');
    expect((await as.get(`/api/policies/${policy.id}/`)).json()).toMatchObject({
      commission_payment_method: 'pro_rata',
      amount_paid: '333.33',
      installments_paid: 0,
      expected_commission: '125.00',
      received_commission: '41.67',
    });
  });

  it('earns full-policy commission only once the whole premium is paid', async () => {
    const { as, addPolicy, user } = await setUp('full_policy');
    const policy = await addPolicy({ payment_frequency: 'semi_annual' });
    const read = async () => (await as.get(`/api/policies/${policy.id}/`)).json();
    await pay(user.tenant_id, policy.id, 1, '500.00');
    expect(await read()).toMatchObject({
      amount_paid: '500.00',
      installments_paid: 1,
      received_commission: '0.00',
    });
    await pay(user.tenant_id, policy.id, 2, '500.00');
    expect(await read()).toMatchObject({
      amount_paid: '1000.00',
      installments_paid: 2,
      received_commission: '125.00',
    });
    const installmentRows = (await as.get(`/api/policies/${policy.id}/installments/`)).json().results;
    expect(installmentRows.map((row: { status: string }) => row.status)).toEqual(['paid', 'paid']);
  });

  it('lists a page at a time with search, filters, statuses and sort on the server', async () => {
    const { as, addPolicy, customer } = await setUp();
    const other = await created(await as.post('/api/customers/', { first_name: 'Avi', last_name: 'Cohen' }));
    const pending = await addPolicy({ policy_number: 'P-PENDING', start_date: day(10), end_date: day(374) });
    const expiring = await addPolicy({
      policy_number: 'P-EXPIRING',
      start_date: day(-345),
      end_date: day(20),
    });
    const active = await addPolicy({
      policy_number: 'P-ACTIVE',
      customer_id: other.id,
      start_date: day(-5),
      end_date: day(359),
      total_premium: '2500.00',
    });
    const expired = await addPolicy({
      policy_number: 'P-EXPIRED',
      start_date: day(-400),
      end_date: day(-36),
    });
    const cancelled = await addPolicy({
      policy_number: 'P-CANCELLED',
      start_date: day(-100),
      end_date: day(264),
    });
    await as.post(`/api/policies/${cancelled.id}/cancel/`, { cancelled_at: today, reason: 'Car sold' });
    const numbers = async (query: string) => {
      const response = await as.get(`/api/policies/?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().results.map((policy: { policy_number: string }) => policy.policy_number);
    };

    // Newest start first by default.
    expect(await numbers('')).toEqual(['P-PENDING', 'P-ACTIVE', 'P-CANCELLED', 'P-EXPIRING', 'P-EXPIRED']);
    expect(await numbers('ordering=policy_number')).toEqual([
      'P-ACTIVE',
      'P-CANCELLED',
      'P-EXPIRED',
      'P-EXPIRING',
      'P-PENDING',
    ]);
    expect((await numbers('ordering=-total_premium'))[0]).toBe('P-ACTIVE');
    expect(await numbers('ordering=end_date')).toEqual([
      'P-EXPIRED',
      'P-EXPIRING',
      'P-CANCELLED',
      'P-ACTIVE',
      'P-PENDING',
    ]);

    expect(await numbers('search=cohen')).toEqual(['P-ACTIVE']);
    expect(await numbers('search=p-exp')).toEqual(['P-EXPIRING', 'P-EXPIRED']);
    expect(await numbers(`customer_id=${other.id}`)).toEqual(['P-ACTIVE']);
    expect((await numbers(`customer_id=${customer.id}`)).length).toBe(4);

    expect(await numbers('status=pending')).toEqual(['P-PENDING']);
    expect(await numbers('status=active')).toEqual(['P-ACTIVE', 'P-EXPIRING']);
    expect(await numbers('status=expired')).toEqual(['P-EXPIRED']);
    expect(await numbers('status=cancelled')).toEqual(['P-CANCELLED']);
    expect(await numbers('expiring_within_days=30')).toEqual(['P-EXPIRING']);
    expect(await numbers('expiring_within_days=19')).toEqual([]);
    expect(await numbers(`start_date_from=${day(-100)}&start_date_to=${day(0)}`)).toEqual([
      'P-ACTIVE',
      'P-CANCELLED',
    ]);
    expect(await numbers(`end_date_from=${day(0)}&end_date_to=${day(300)}`)).toEqual([
      'P-CANCELLED',
      'P-EXPIRING',
    ]);

    const statuses = Object.fromEntries(
      (await as.get('/api/policies/'))
        .json()
        .results.map((p: { id: string; status: string }) => [p.id, p.status]),
    );
    expect(statuses).toEqual({
      [pending.id]: 'pending',
      [expiring.id]: 'active',
      [active.id]: 'active',
      [expired.id]: 'expired',
      [cancelled.id]: 'cancelled',
    });

    const first = (await as.get('/api/policies/?page_size=2&search=p-')).json();
    expect(first).toMatchObject({
      count: 5,
      previous: null,
      next: '/api/policies/?page_size=2&search=p-&page=2',
    });
    const second = (await as.get(first.next)).json();
    const third = (await as.get(second.next)).json();
    expect(
      [...first.results, ...second.results, ...third.results].map((p: { id: string }) => p.id),
    ).toHaveLength(5);
    expect(third.next).toBeNull();

    const bad = await as.get('/api/policies/?status=lapsed&ordering=customer');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['ordering', 'status']);
  });

  it('searches with the term asked for after an empty search built the same list', async () => {
    const first = await setUp();
    const second = await setUp();
    await second.addPolicy({ policy_number: 'P-ONE' });
    await second.addPolicy({ policy_number: 'P-TWO' });
    const count = async (caller: Caller, url: string) => {
      const response = await caller.get(url);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().count;
    };

    // An empty search filters nothing; the statement it built must not serve a real term.
    expect(await count(first.as, `/api/policies/?search=&policy_type_id=${first.motor.id}&page_size=9`)).toBe(
      0,
    );
    expect(
      await count(second.as, `/api/policies/?search=zzzz&policy_type_id=${second.motor.id}&page_size=9`),
    ).toBe(0);
    expect(
      await count(second.as, `/api/policies/?search=p-one&policy_type_id=${second.motor.id}&page_size=9`),
    ).toBe(1);

    const insurerPolicies = `/api/companies/${second.harel.id}/policies/`;
    expect(await count(second.as, `${insurerPolicies}?search=`)).toBe(2);
    expect(await count(second.as, `${insurerPolicies}?search=zzzz`)).toBe(0);
  });

  it('sums counts, premium in force and commission in the stats, and per insurer', async () => {
    const { as, addPolicy, user, base, motor } = await setUp();
    const empty = (await as.get('/api/policies/stats/')).json();
    expect(empty).toEqual({
      total: 0,
      by_status: { pending: 0, active: 0, expired: 0, cancelled: 0, renewed: 0 },
      active_premium: '0.00',
      expected_commission: '0.00',
      received_commission: '0.00',
      expiring_in_30_days: 0,
    });

    const paid = await addPolicy({
      policy_number: 'A',
      net_premium: '800.00',
      commission_percentage: '10',
      sum_insured: '50000.00',
      deductible: '250.50',
    });
    await pay(user.tenant_id, paid.id, 1, '1000.00');
    await addPolicy({ policy_number: 'B', start_date: day(5), end_date: day(369), total_premium: '500.00' });
    const old = await addPolicy({
      policy_number: 'C',
      start_date: day(-400),
      end_date: day(-36),
      total_premium: '300.00',
    });
    const cancelled = await addPolicy({ policy_number: 'D', total_premium: '2000.00' });
    await as.post(`/api/policies/${cancelled.id}/cancel/`, { cancelled_at: today, reason: 'Moved abroad' });
    await addPolicy({ policy_number: 'E', start_date: day(-355), end_date: day(9), total_premium: '200.00' });
    expect((await as.post(`/api/policies/${old.id}/renew/`, {})).statusCode).toBe(201);
    // Another insurer's policy counts for the agency but not for Harel.
    const clal = await created(
      await as.post('/api/companies/', {
        name: 'Clal',
        policy_types: [{ policy_type_id: motor.id, commission_percentage: '20' }],
      }),
    );
    await as.post('/api/policies/', {
      ...base,
      policy_number: 'F',
      company_id: clal.id,
      total_premium: '100.00',
    });

    const stats = await as.get('/api/policies/stats/');
    expect(stats.statusCode).toBe(200);
    expect(stats.json()).toEqual({
      total: 7,
      by_status: { pending: 1, active: 4, expired: 0, cancelled: 1, renewed: 1 },
      // A 1000, C's renewal 300, E 200, F 100.
      active_premium: '1600.00',
      // A 80.00, B 62.50, C 37.50 and its renewal 37.50, E 25.00, F 20.00; D the 10 days of its
      // 365 it covered before its cancellation: 2000.00 x 10 / 365 = 54.79 earned, 250.00 x 54.79 / 2000.00.
      expected_commission: '269.35',
      received_commission: '80.00',
      expiring_in_30_days: 1,
    });

    // The database writes the list as JSON: every policy on it reads exactly as it does on its own.
    const listed = (await as.get('/api/policies/?page_size=100')).json();
    expect(policyPage.strict().parse(listed)).toEqual(listed);
    expect(listed.results).toHaveLength(7);
    for (const item of listed.results) {
      const { claim_count, ...alone } = (await as.get(`/api/policies/${item.id}/`)).json();
      expect(claim_count).toBe(0);
      expect(item).toEqual(alone);
    }

    const harel = (await as.get('/api/companies/'))
      .json()
      .results.find((c: { name: string }) => c.name === 'Harel');
    expect((await as.get(`/api/companies/${harel.id}/stats/`)).json()).toEqual({
      company_id: harel.id,
      policy_count: 6,
      active_policy_count: 3,
      active_premium: '1500.00',
      // The agency's less F's 20.00 at Clal.
      expected_commission: '249.35',
      received_commission: '80.00',
    });
    const page = await as.get(`/api/companies/${clal.id}/policies/`);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toEqual({
      count: 1,
      next: null,
      previous: null,
      results: [
        {
          id: expect.any(String),
          policy_number: 'F',
          customer: { id: base.customer_id, first_name: 'Dana', last_name: 'Levi' },
          policy_type_name: 'Motor',
          start_date: base.start_date,
          end_date: base.end_date,
          status: 'active',
          total_premium: '100.00',
        },
      ],
    });
    expect((await as.get(`/api/companies/${harel.id}/policies/?page_size=2`)).json()).toMatchObject({
      count: 6,
      next: `/api/companies/${harel.id}/policies/?page_size=2&page=2`,
    });
  });

  it('rebuilds the instalments when the premium or schedule changes, until something is paid', async () => {
    const { as, addPolicy, base, user } = await setUp();
    // A calendar year, so that monthly means twelve instalments whatever today is.
    const year = { start_date: '2026-01-01', end_date: '2026-12-31' };
    const policy = await addPolicy({ ...year, payment_frequency: 'quarterly' });
    const body = { ...base, ...year, policy_number: 'POL-1', payment_frequency: 'quarterly' };

    const changed = await as.put(`/api/policies/${policy.id}/`, {
      ...body,
      total_premium: '1200.00',
      payment_frequency: 'monthly',
      notes: 'Young driver added',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      total_premium: '1200.00',
      net_premium: '1200.00',
      payment_frequency: 'monthly',
      total_installments: 12,
      expected_commission: '150.00',
      notes: 'Young driver added',
    });
    const rows = (await as.get(`/api/policies/${policy.id}/installments/`)).json().results;
    expect(rows).toHaveLength(12);
    expect(new Set(rows.map((row: { amount_due: string }) => row.amount_due))).toEqual(new Set(['100.00']));

    await pay(user.tenant_id, policy.id, 1, '100.00');
    const refused = await as.put(`/api/policies/${policy.id}/`, { ...body, total_premium: '1300.00' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      detail:
        "Payments have been recorded on this policy's instalments, so its premium and schedule can no longer change. Undo those payments first.",
    });
    const moved = await as.put(`/api/policies/${policy.id}/`, {
      ...body,
      total_premium: '1200.00',
      payment_frequency: 'monthly',
      start_date: '2026-01-02',
    });
    expect(moved.statusCode).toBe(409);

    // What does not touch the schedule can still change: a day longer keeps the twelve due dates.
    const longer = await as.put(`/api/policies/${policy.id}/`, {
      ...body,
      total_premium: '1200.00',
      payment_frequency: 'monthly',
      end_date: '2027-01-01',
    });
    expect(longer.statusCode, longer.body).toBe(200);
    expect(longer.json()).toMatchObject({
      end_date: '2027-01-01',
      installments_paid: 1,
      total_installments: 12,
    });
    const renamed = await as.put(`/api/policies/${policy.id}/`, {
      ...body,
      policy_number: 'POL-1A',
      total_premium: '1200.00',
      payment_frequency: 'monthly',
      commission_percentage: '15',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({
      policy_number: 'POL-1A',
      expected_commission: '180.00',
      amount_paid: '100.00',
      installments_paid: 1,
      total_installments: 12,
    });
    expect((await as.get(`/api/policies/${policy.id}/installments/`)).json().results[0].status).toBe('paid');
  });

  it('deletes an unpaid policy, and sends a paid one to secure delete', async () => {
    const { as, addPolicy, user } = await setUp();
    const unpaid = await addPolicy({ policy_number: 'UNPAID' });
    expect((await as.delete(`/api/policies/${unpaid.id}/`)).statusCode).toBe(204);
    expect((await as.get(`/api/policies/${unpaid.id}/`)).statusCode).toBe(404);
    expect(await instalmentCount(user.tenant_id, unpaid.id)).toBe(0);

    const paid = await addPolicy({ policy_number: 'PAID' });
    await pay(user.tenant_id, paid.id, 1, '10.00');
    const refused = await as.delete(`/api/policies/${paid.id}/`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/secure delete/);
    expect((await as.get(`/api/policies/${paid.id}/`)).statusCode).toBe(200);
  });

  it('secure-deletes a paid policy only with the right password', async () => {
    const { as, addPolicy, user } = await setUp();
    const policy = await addPolicy({
      start_date: '2026-01-01',
      end_date: '2026-12-31',
      payment_frequency: 'monthly',
    });
    await pay(user.tenant_id, policy.id, 1, '83.37');

    const wrong = await as.post(`/api/policies/${policy.id}/secure-delete/`, { password: 'not my password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ password: ['Your password is incorrect.'] });
    expect((await as.get(`/api/policies/${policy.id}/`)).statusCode).toBe(200);
    expect(await instalmentCount(user.tenant_id, policy.id)).toBe(12);

    const blank = await as.post(`/api/policies/${policy.id}/secure-delete/`, {});
    expect(blank.json()).toEqual({ password: ['This field is required.'] });

    const right = await as.post(`/api/policies/${policy.id}/secure-delete/`, { password: PASSWORD });
    expect(right.statusCode).toBe(204);
    expect((await as.get(`/api/policies/${policy.id}/`)).statusCode).toBe(404);
    expect(await instalmentCount(user.tenant_id, policy.id)).toBe(0);
  });

  it('stops guessing the password for secure delete after five tries', async () => {
    const { as, addPolicy } = await setUp();
    const policy = await addPolicy();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await as.post(`/api/policies/${policy.id}/secure-delete/`, { password: `guess ${attempt}` });
    }
    const throttled = await as.post(`/api/policies/${policy.id}/secure-delete/`, { password: PASSWORD });
    expect(throttled.statusCode).toBe(429);
    expect((await as.get(`/api/policies/${policy.id}/`)).statusCode).toBe(200);
  });

  it('cancels a policy once, and a cancelled policy cannot be renewed', async () => {
    const { as, addPolicy } = await setUp();
    const policy = await addPolicy();
    const cancel = await as.post(`/api/policies/${policy.id}/cancel/`, {
      cancelled_at: today,
      reason: 'Car written off',
    });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toMatchObject({
      status: 'cancelled',
      cancelled_at: today,
      cancellation_reason: 'Car written off',
    });
    const again = await as.post(`/api/policies/${policy.id}/cancel/`, {
      cancelled_at: today,
      reason: 'Again',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: 'This policy is already cancelled.' });
    const renew = await as.post(`/api/policies/${policy.id}/renew/`, {});
    expect(renew.statusCode).toBe(409);
    expect(renew.json()).toEqual({ detail: 'A cancelled policy cannot be renewed.' });

    const blank = await as.post(`/api/policies/${policy.id}/cancel/`, { cancelled_at: 'soon', reason: ' ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({
      cancelled_at: ['Enter a valid date (YYYY-MM-DD).'],
      reason: ['This field may not be blank.'],
    });
  });

  it('renews a term into the next one, once', async () => {
    const { as, addPolicy } = await setUp();
    const old = await addPolicy({
      start_date: '2027-03-01',
      end_date: '2028-02-29',
      total_premium: '1200.00',
      net_premium: '1000.00',
      commission_percentage: '9.5',
      payment_frequency: 'quarterly',
      insured_item: 'Mazda 3',
    });
    const renewed = await as.post(`/api/policies/${old.id}/renew/`, {});
    expect(renewed.statusCode, renewed.body).toBe(201);
    const renewal = renewed.json();
    // A year from 1 March is a year again, across the leap day.
    expect(renewal).toMatchObject({
      policy_number: 'POL-1',
      start_date: '2028-03-01',
      end_date: '2029-02-28',
      total_premium: '1200.00',
      net_premium: '1000.00',
      // The rate Harel pays on Motor today, not the term's own 9.5%.
      commission_percentage: '12.50',
      payment_frequency: 'quarterly',
      insured_item: 'Mazda 3',
      renewed_from_id: old.id,
      renewed_to_id: null,
      status: 'pending',
      total_installments: 4,
    });
    expect(renewal.id).not.toBe(old.id);
    expect((await as.get(`/api/policies/${renewal.id}/installments/`)).json().results[0].due_date).toBe(
      '2028-03-01',
    );
    expect((await as.get(`/api/policies/${old.id}/`)).json()).toMatchObject({
      status: 'renewed',
      renewed_to_id: renewal.id,
    });
    expect(
      (await as.get('/api/policies/?status=renewed')).json().results.map((p: { id: string }) => p.id),
    ).toEqual([old.id]);

    const twice = await as.post(`/api/policies/${old.id}/renew/`, {});
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ detail: 'This policy has already been renewed.' });
  });

  it('renews at a new premium with the net in the same proportion, to the cent, and the rate the insurer pays today', async () => {
    const { as, addPolicy, base, harel, motor } = await setUp();
    const old = await addPolicy({
      total_premium: '2400.00',
      net_premium: '2200.00',
      commission_percentage: '10',
    });
    await as.put(`/api/companies/${harel.id}/`, {
      name: 'Harel',
      policy_types: [{ policy_type_id: motor.id, commission_percentage: '14' }],
    });
    const renewal = await created(
      await as.post(`/api/policies/${old.id}/renew/`, {
        policy_number: 'POL-1-2027',
        total_premium: '2520.00',
      }),
    );
    expect(renewal).toMatchObject({
      policy_number: 'POL-1-2027',
      total_premium: '2520.00',
      net_premium: '2310.00',
      commission_percentage: '14.00',
      expected_commission: '323.40',
    });

    // 333.33 of 1,000.00 at 1,234.57 is 411.5219...: half a cent or more rounds up, less rounds down.
    const thirds = await addPolicy({
      policy_number: 'POL-9',
      total_premium: '1000.00',
      net_premium: '333.33',
    });
    const up = await created(
      await as.post(`/api/policies/${thirds.id}/renew/`, { total_premium: '1234.57' }),
    );
    expect(up.net_premium).toBe('411.52');
    const half = await addPolicy({ policy_number: 'POL-10', total_premium: '200.00', net_premium: '100.01' });
    // 100.01 of 200.00 at 100.00 is exactly 50.005.
    const rounded = await created(
      await as.post(`/api/policies/${half.id}/renew/`, { total_premium: '100.00' }),
    );
    expect(rounded.net_premium).toBe('50.01');

    // Without a rate for the type any more, the renewal keeps the term's own.
    await as.put(`/api/companies/${harel.id}/`, { name: 'Harel', policy_types: [] });
    expect((await as.post('/api/policies/', { ...base, policy_number: 'POL-11' })).statusCode).toBe(400);
    const kept = await created(await as.post(`/api/policies/${renewal.id}/renew/`, {}));
    expect(kept.commission_percentage).toBe('14.00');
  });

  it('renews with the terms the broker changes', async () => {
    const { as, addPolicy } = await setUp();
    const old = await addPolicy({ start_date: '2026-01-15', end_date: '2026-07-14', net_premium: '900.00' });
    const renewed = await as.post(`/api/policies/${old.id}/renew/`, {
      policy_number: 'POL-2',
      start_date: '2026-08-01',
      total_premium: '1100',
      commission_percentage: '11',
      payment_frequency: 'custom',
      custom_installments: 2,
    });
    expect(renewed.statusCode, renewed.body).toBe(201);
    expect(renewed.json()).toMatchObject({
      policy_number: 'POL-2',
      start_date: '2026-08-01',
      // Six months, as the term it renews.
      end_date: '2027-01-31',
      total_premium: '1100.00',
      // A new premium without a new net scales the net: 900 of 1,000 is 990 of 1,100.
      net_premium: '990.00',
      commission_percentage: '11.00',
      expected_commission: '108.90',
      payment_frequency: 'custom',
      custom_installments: 2,
      total_installments: 2,
    });

    const other = await addPolicy({ policy_number: 'POL-3' });
    const backwards = await as.post(`/api/policies/${other.id}/renew/`, { end_date: day(-30) });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toEqual({ end_date: ['The policy must end after it starts.'] });
    const bad = await as.post(`/api/policies/${other.id}/renew/`, { net_premium: '5000.00' });
    expect(bad.json()).toEqual({ net_premium: ['The net premium cannot be more than the total premium.'] });
    expect((await as.get(`/api/policies/${other.id}/`)).json().status).toBe('active');
  });

  it('refuses bad input with a message for each field', async () => {
    const { as, addPolicy, base, harel } = await setUp();
    const response = await as.post('/api/policies/', {
      ...base,
      policy_number: ' ',
      total_premium: '12.3456',
      payment_frequency: 'weekly',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      policy_number: ['This field may not be blank.'],
      total_premium: ['Use at most two decimal places.'],
      payment_frequency: ['Choose how the premium is paid.'],
    });
    const inconsistent = await as.post('/api/policies/', {
      ...base,
      policy_number: 'X',
      end_date: base.start_date,
      total_premium: '100.00',
      net_premium: '150.00',
      payment_frequency: 'custom',
    });
    expect(inconsistent.json()).toEqual({
      end_date: ['The policy must end after it starts.'],
      net_premium: ['The net premium cannot be more than the total premium.'],
      custom_installments: ['How many instalments?'],
    });
    // A 13th instalment would fall due after the year ends.
    const tooMany = await as.post('/api/policies/', {
      ...base,
      policy_number: 'X',
      start_date: '2027-01-01',
      end_date: '2027-12-31',
      payment_frequency: 'custom',
      custom_installments: 13,
    });
    expect(tooMany.json()).toEqual({ custom_installments: ['A 12-month term has at most 12 instalments.'] });

    const unknown = await as.post('/api/policies/', {
      ...base,
      policy_number: 'X',
      customer_id: missing,
      company_id: missing,
    });
    expect(unknown.json()).toEqual({
      customer_id: ['No customer with this id.'],
      company_id: ['No insurer with this id.'],
    });

    const home = await created(await as.post('/api/policy-types/', { name: 'Home', category: 'home' }));
    const notSold = await as.post('/api/policies/', { ...base, policy_number: 'X', policy_type_id: home.id });
    expect(notSold.statusCode).toBe(400);
    expect(notSold.json()).toEqual({ policy_type_id: ['Harel does not sell Home.'] });

    await addPolicy();
    const duplicate = await as.post('/api/policies/', { ...base, policy_number: 'POL-1' });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json()).toEqual({
      policy_number: ['This insurer already has a policy with this number starting on this date.'],
    });
    expect((await as.get(`/api/companies/${harel.id}/stats/`)).json().policy_count).toBe(1);
  });

  it('refuses terms over ten years and schedules over 120 instalments, on every path', async () => {
    const { as, addPolicy, base, user } = await setUp();
    const tenYears = { start_date: '2026-01-01', end_date: '2035-12-31', payment_frequency: 'monthly' };
    const longest = await addPolicy({ policy_number: 'TEN', ...tenYears });
    expect(longest.total_installments).toBe(120);

    const elevenYears = { ...tenYears, end_date: '2036-12-31' };
    const monthly = await as.post('/api/policies/', { ...base, policy_number: 'ELEVEN', ...elevenYears });
    expect(monthly.statusCode).toBe(400);
    expect(monthly.json()).toEqual({
      end_date: ['A policy runs at most 10 years: from this start, until 2035-12-31.'],
      payment_frequency: ['A monthly schedule over this term would have 132 instalments; at most 120.'],
    });
    const quarterly = await as.post('/api/policies/', {
      ...base,
      policy_number: 'QUARTERLY',
      start_date: '2026-01-01',
      end_date: '2056-12-31',
      payment_frequency: 'quarterly',
    });
    expect(quarterly.json()).toEqual({
      end_date: ['A policy runs at most 10 years: from this start, until 2035-12-31.'],
      payment_frequency: ['A quarterly schedule over this term would have 124 instalments; at most 120.'],
    });

    // The widest terms a request can name are refused before any work, not after seconds of it.
    for (const [start_date, end_date] of [
      ['0001-01-01', '9999-12-31'],
      ['1900-01-01', '2200-12-31'],
    ]) {
      const started = performance.now();
      const widest = await as.post('/api/policies/', {
        ...base,
        policy_number: 'WIDEST',
        start_date,
        end_date,
        payment_frequency: 'monthly',
      });
      expect(widest.statusCode, widest.body).toBe(400);
      expect(performance.now() - started).toBeLessThan(1000);
    }

    const edited = await as.put(`/api/policies/${longest.id}/`, {
      ...base,
      policy_number: 'TEN',
      ...elevenYears,
    });
    expect(edited.statusCode).toBe(400);
    expect(Object.keys(edited.json()).sort()).toEqual(['end_date', 'payment_frequency']);

    // A renewal is checked whether the broker names its end or takes the term's own length.
    const renewedLonger = await as.post(`/api/policies/${longest.id}/renew/`, { end_date: '2047-12-31' });
    expect(renewedLonger.json()).toEqual({
      end_date: ['A policy runs at most 10 years: from this start, until 2045-12-31.'],
      payment_frequency: ['A monthly schedule over this term would have 144 instalments; at most 120.'],
    });
    const renewedFrom = await as.post(`/api/policies/${longest.id}/renew/`, {
      start_date: '2036-01-01',
      end_date: '2200-12-31',
    });
    expect(renewedFrom.statusCode).toBe(400);
    expect(Object.keys(renewedFrom.json()).sort()).toEqual(['end_date', 'payment_frequency']);
    // A term written before the limit renews only to a shorter one.
    const legacy = await addPolicy({
      policy_number: 'LEGACY',
      start_date: '2026-01-01',
      end_date: '2026-12-31',
    });
    await withTenant(t.database.db, user.tenant_id, (tx) =>
      tx.update(policies).set({ endDate: '2045-12-31' }).where(eq(policies.id, legacy.id)),
    );
    const renewedLegacy = await as.post(`/api/policies/${legacy.id}/renew/`, {});
    expect(renewedLegacy.statusCode).toBe(400);
    expect(renewedLegacy.json().end_date).toEqual([
      'A policy runs at most 10 years: from this start, until 2055-12-31.',
    ]);
    const shorter = await as.post(`/api/policies/${legacy.id}/renew/`, { end_date: '2046-12-31' });
    expect(shorter.statusCode, shorter.body).toBe(201);
  });

  it("pages a policy's instalments, the longest schedule on one page by default", async () => {
    const { as, addPolicy } = await setUp();
    const policy = await addPolicy({
      start_date: '2026-01-01',
      end_date: '2035-12-31',
      payment_frequency: 'monthly',
    });
    const url = `/api/policies/${policy.id}/installments/`;
    const whole = (await as.get(url)).json();
    expect(whole).toMatchObject({ count: 120, next: null, previous: null });
    expect(whole.results.map((row: { sequence: number }) => row.sequence)).toEqual(
      Array.from({ length: 120 }, (_, index) => index + 1),
    );

    const third = (await as.get(`${url}?page_size=50&page=3`)).json();
    expect(third).toMatchObject({ count: 120, next: null, previous: `${url}?page_size=50&page=2` });
    expect(third.results.map((row: { sequence: number }) => row.sequence)).toEqual(
      Array.from({ length: 20 }, (_, index) => index + 101),
    );
    expect((await as.get(`${url}?page_size=50`)).json().next).toBe(`${url}?page_size=50&page=2`);
    const tooLarge = await as.get(`${url}?page_size=121`);
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json()).toEqual({ page_size: ['At most 120 rows per page.'] });
  });

  it('keeps editing a policy whose insurer has stopped selling its type', async () => {
    const { as, addPolicy, base, harel } = await setUp();
    const policy = await addPolicy();
    const stopped = await as.put(`/api/companies/${harel.id}/`, { name: 'Harel', policy_types: [] });
    expect(stopped.statusCode, stopped.body).toBe(200);

    const edited = await as.put(`/api/policies/${policy.id}/`, {
      ...base,
      policy_number: 'POL-1',
      notes: 'Insurer no longer sells motor',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      notes: 'Insurer no longer sells motor',
      commission_percentage: '12.50',
    });
    const another = await as.post('/api/policies/', { ...base, policy_number: 'POL-2' });
    expect(another.json()).toEqual({ policy_type_id: ['Harel does not sell Motor.'] });
  });

  it("reads today in the agency's own time zone", async () => {
    // Kiritimati (UTC+14) and Pago Pago (UTC-11) are always on different days.
    const { rows } = await t.database.db.execute<{ day: string }>(
      sql`select (now() at time zone 'Pacific/Kiritimati')::date::text as day`,
    );
    const kiritimatiToday = rows[0]?.day ?? '';
    const statusIn = async (time_zone: string) => {
      const agency = await signedInAgency(t.app, { time_zone });
      const motor = await created(
        await agency.as.post('/api/policy-types/', { name: 'Motor', category: 'auto' }),
      );
      const insurer = await created(
        await agency.as.post('/api/companies/', {
          name: 'Harel',
          policy_types: [{ policy_type_id: motor.id, commission_percentage: '10' }],
        }),
      );
      const customer = await created(
        await agency.as.post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' }),
      );
      const policy = await created(
        await agency.as.post('/api/policies/', {
          policy_number: 'TZ-1',
          customer_id: customer.id,
          company_id: insurer.id,
          policy_type_id: motor.id,
          start_date: kiritimatiToday,
          end_date: termEnd(kiritimatiToday, 12),
          total_premium: '100.00',
        }),
      );
      return policy.status;
    };
    expect(await statusIn('Pacific/Kiritimati')).toBe('active');
    expect(await statusIn('Pacific/Pago_Pago')).toBe('pending');
  });

  it("answers 404 for another agency's policy on every route", async () => {
    const owner = await setUp();
    const policy = await owner.addPolicy();
    const other = await setUp();
    const url = `/api/policies/${policy.id}/`;
    const body = { ...other.base, policy_number: 'MINE' };

    expect((await other.as.get(url)).statusCode).toBe(404);
    expect((await other.as.put(url, body)).statusCode).toBe(404);
    expect((await other.as.delete(url)).statusCode).toBe(404);
    expect((await other.as.post(`${url}secure-delete/`, { password: PASSWORD })).statusCode).toBe(404);
    expect(
      (await other.as.post(`${url}cancel/`, { cancelled_at: today, reason: 'Mine now' })).statusCode,
    ).toBe(404);
    expect((await other.as.get(`${url}installments/`)).statusCode).toBe(404);
    expect((await other.as.post(`${url}renew/`, {})).statusCode).toBe(404);
    expect((await other.as.get(`/api/policies/${missing}/`)).statusCode).toBe(404);
    expect((await other.as.get('/api/policies/')).json().count).toBe(0);
    expect((await other.as.get('/api/policies/stats/')).json().total).toBe(0);

    // Nor can a policy name the other agency's customer, insurer or type.
    const crossed = await other.as.post('/api/policies/', { ...owner.base, policy_number: 'X' });
    expect(crossed.json()).toEqual({
      customer_id: ['No customer with this id.'],
      company_id: ['No insurer with this id.'],
      policy_type_id: ['No policy type with this id.'],
    });
    // Only the customer another agency's: its own insurer sells its own type, so that is all it says.
    const theirCustomer = await other.as.post('/api/policies/', {
      ...other.base,
      policy_number: 'X',
      customer_id: owner.base.customer_id,
    });
    expect(theirCustomer.statusCode).toBe(400);
    expect(theirCustomer.json()).toEqual({ customer_id: ['No customer with this id.'] });
    expect((await owner.as.get(url)).json()).toMatchObject({ status: 'active', cancelled_at: null });
  });

  it('needs a signed-in user whose plan includes Policies', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/policies/' })).statusCode).toBe(401);
    const lapsed = await setUp();
    await setSubscription(t, lapsed.user.tenant_id, { status: 'expired' });
    const expired = await lapsed.as.get('/api/policies/');
    expect(expired.statusCode).toBe(402);
    expect(expired.json().detail).toMatch(/Billing page/);

    const excluded = await setUp();
    await setSubscription(t, excluded.user.tenant_id, { plan: await addPlanWithout(t, 'module_policies') });
    const refused = await excluded.as.get('/api/policies/stats/');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/does not include Policies/);
    expect(
      (await excluded.as.post('/api/policies/', { ...excluded.base, policy_number: 'X' })).statusCode,
    ).toBe(403);
  });

  it("stops at the plan's policy limit", async () => {
    const { as, base, user } = await setUp();
    await setSubscription(t, user.tenant_id, { plan: await addPlanWithout(t, 'module_leads') });
    await withTenant(t.database.db, user.tenant_id, (tx) =>
      tx.insert(policies).values(
        Array.from({ length: 10 }, (_, index) => ({
          tenantId: user.tenant_id,
          policyNumber: `BULK-${index}`,
          customerId: base.customer_id,
          companyId: base.company_id,
          policyTypeId: base.policy_type_id,
          startDate: base.start_date,
          endDate: base.end_date,
          totalPremium: '100.00',
          netPremium: '100.00',
          commissionPercentage: '12.50',
          paymentFrequency: 'single' as const,
        })),
      ),
    );
    const refused = await as.post('/api/policies/', { ...base, policy_number: 'ONE-MORE' });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().detail).toMatch(/allows up to 10 policies/);
    expect((await as.get('/api/billing/usage/summary/')).json().policies).toMatchObject({
      current_value: 10,
      limit_value: 10,
    });
    const [bulk] = (await as.get('/api/policies/?search=BULK-0')).json().results;
    expect((await as.post(`/api/policies/${bulk.id}/renew/`, {})).statusCode).toBe(402);
  });
});

describe('policies export', () => {
  it('holds exactly the policies the list shows, in its order, with money and dates typed', async () => {
    const { as, addPolicy } = await setUp();
    const other = await setUp();
    await other.addPolicy({ policy_number: 'ABC-9' });
    await addPolicy({ policy_number: 'ABC-1', total_premium: '1234.50', notes: '@SUM(A1)' });
    await addPolicy({
      policy_number: 'ABC-2',
      total_premium: '300.00',
      start_date: day(-400),
      end_date: day(-36),
    });
    await addPolicy({ policy_number: 'ABC-3', total_premium: '80.10', payment_frequency: 'semi_annual' });
    await addPolicy({ policy_number: 'XYZ-1' });

    const query = 'search=abc&status=active&ordering=-total_premium';
    const listed = (await as.get(`/api/policies/?${query}`)).json().results as {
      policy_number: string;
      total_premium: string;
      expected_commission: string;
      start_date: string;
    }[];
    expect(listed.map((policy) => policy.policy_number)).toEqual(['ABC-1', 'ABC-3']);

    const { csv, xlsx, xlsxFile, fileName } = await exportBoth(as, '/api/policies/export/', query);
    expect(fileName).toBe(`policies-${today}`);
    expect(xlsx[0]).toEqual(csv[0]);
    expect(column(csv, 'Policy number')).toEqual(['ABC-1', 'ABC-3']);
    expect(column(xlsx, 'Policy number')).toEqual(['ABC-1', 'ABC-3']);
    // CSV keeps the API's exact strings; the workbook holds numbers shown with two decimals.
    expect(column(csv, 'Total premium')).toEqual(['1234.50', '80.10']);
    expect(column(csv, 'Expected commission')).toEqual(listed.map((policy) => policy.expected_commission));
    expect(column(xlsx, 'Total premium')).toEqual([1234.5, 80.1]);
    expect(column(xlsx, 'Expected commission')).toEqual(
      listed.map((policy) => Number(policy.expected_commission)),
    );
    expect(column(xlsx, 'Start date')).toEqual(
      listed.map((policy) => new Date(`${policy.start_date}T00:00:00Z`)),
    );
    expect(column(xlsx, 'Customer')).toEqual(['Dana Levi', 'Dana Levi']);
    // Choices read as the forms and lists show them, not as they are stored.
    expect(column(csv, 'Status')).toEqual(['Active', 'Active']);
    expect(column(csv, 'Payment frequency')).toEqual(['Single payment', 'Semi-annual']);
    expect(column(xlsx, 'Payment frequency')).toEqual(['Single payment', 'Semi-annual']);
    const headings = csv[0] ?? [];
    const formats = await xlsxFormats(xlsxFile);
    expect(formats[headings.indexOf('Total premium')]).toBe('#,##0.00');
    expect(formats[headings.indexOf('End date')]).toBe('yyyy-mm-dd');
    // A note a spreadsheet would run stays text.
    expect(column(csv, 'Notes')).toEqual(["'@SUM(A1)", '']);
    expect(column(xlsx, 'Notes')).toEqual(['@SUM(A1)', null]);

    const expired = await exportBoth(as, '/api/policies/export/', 'status=expired');
    expect(column(expired.csv, 'Policy number')).toEqual(['ABC-2']);
  });

  it('refuses an unknown format or filter and holds the plan gate', async () => {
    const agency = await setUp();
    expect((await agency.as.get('/api/policies/export/?company_id=nope')).statusCode).toBe(400);
    await expectFormatAndGate(t, agency, '/api/policies/export/', 'module_policies');
  });
});
