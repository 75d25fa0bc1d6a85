import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { column, day, expectFormatAndGate, exportBoth } from '../../../test/export-file.js';
import { addPolicyParties, insertPolicy } from '../../../test/insert-policy.js';
import { addCustomer, addPolicy, addTeamMember, cover } from '../../../test/team-book.js';
import {
  addPlanWithout,
  createTestApp,
  databaseCalendar,
  setSubscription,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { policies } from '../policies/tables.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const agency = () => signedInAgency(t.app);

/** A new agency with one policy of 1000.00 paid in four quarterly instalments of 250.00. */
async function agencyWithPolicy(terms: Parameters<typeof insertPolicy>[3] = {}) {
  const owner = await agency();
  const parties = await addPolicyParties(owner.as);
  const policy = await insertPolicy(t, owner.user.tenant_id, parties, {
    total_premium: '1000.00',
    payment_frequency: 'quarterly',
    ...terms,
  });
  const url = (index: number) => `/api/installments/${policy.installmentIds[index]}/payment/`;
  return { ...owner, parties, policy, url };
}

async function totals(tenantId: string, policyId: string) {
  const [row] = await withTenant(t.database.db, tenantId, (tx) =>
    tx
      .select({
        amount_paid: policies.amountPaid,
        installments_paid: policies.installmentsPaid,
        total_installments: policies.totalInstallments,
      })
      .from(policies)
      .where(eq(policies.id, policyId)),
  );
  return row;
}

describe('payments', () => {
  it('records a full payment in two clicks: what remains, dated today', async () => {
    const { as, user, policy, url } = await agencyWithPolicy();
    const paid = await as.post(url(0), { payment_method: 'cash' });
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toEqual({
      id: policy.installmentIds[0],
      policy_id: policy.id,
      sequence: 1,
      due_date: '2026-01-01',
      amount_due: '250.00',
      amount_paid: '250.00',
      // The database's today, which a payment defaults to.
      paid_date: (await databaseCalendar(t)).today,
      payment_method: 'cash',
      reference: '',
      status: 'paid',
      is_overdue: false,
    });
    expect(await totals(user.tenant_id, policy.id)).toEqual({
      amount_paid: '250.00',
      installments_paid: 1,
      total_installments: 4,
    });
  });

  it('adds partial payments exactly to the cent until the instalment is paid', async () => {
    const { as, user, policy, url } = await agencyWithPolicy({ total_premium: '1000.01' });
    const first = await as.post(url(0), {
      amount: '0.1',
      paid_date: '2026-01-05',
      payment_method: 'bank_transfer',
      reference: 'TX-1',
    });
    expect(first.json()).toMatchObject({
      amount_due: '250.01',
      amount_paid: '0.10',
      status: 'partially_paid',
      paid_date: '2026-01-05',
      reference: 'TX-1',
    });
    const second = await as.post(url(0), { amount: 0.2, paid_date: '2026-01-06', payment_method: 'card' });
    expect(second.json()).toMatchObject({
      amount_paid: '0.30',
      status: 'partially_paid',
      payment_method: 'card',
    });
    expect(await totals(user.tenant_id, policy.id)).toEqual({
      amount_paid: '0.30',
      installments_paid: 0,
      total_installments: 4,
    });

    const rest = await as.post(url(0), { payment_method: 'card', paid_date: '2026-01-07' });
    expect(rest.json()).toMatchObject({ amount_paid: '250.01', status: 'paid', paid_date: '2026-01-07' });
    await as.post(url(1), { amount: '99.99', payment_method: 'cash' });
    expect(await totals(user.tenant_id, policy.id)).toEqual({
      amount_paid: '350.00',
      installments_paid: 1,
      total_installments: 4,
    });
  });

  it('refuses more than remains due, nothing, and a payment on a paid instalment', async () => {
    const { as, user, policy, url } = await agencyWithPolicy();
    const tooMuch = await as.post(url(0), { amount: '250.01', payment_method: 'cash' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toEqual({ amount: ['Only 250.00 remains due on this instalment.'] });

    await as.post(url(0), { amount: '100', payment_method: 'cash' });
    expect((await as.post(url(0), { amount: '150.50', payment_method: 'cash' })).json()).toEqual({
      amount: ['Only 150.00 remains due on this instalment.'],
    });
    expect((await as.post(url(0), { amount: '0.00', payment_method: 'cash' })).json()).toEqual({
      amount: ['The amount must be more than zero.'],
    });

    await as.post(url(0), { payment_method: 'cash' });
    const again = await as.post(url(0), { payment_method: 'cash' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ amount: ['This instalment is already paid.'] });
    expect((await totals(user.tenant_id, policy.id))?.amount_paid).toBe('250.00');
  });

  it('takes one of two payments racing for the same instalment, and keeps totals of parallel ones', async () => {
    const { as, user, policy, url } = await agencyWithPolicy();
    const racing = await Promise.all(
      [0, 0, 1, 2, 3].map((index) => as.post(url(index), { payment_method: 'cash' })),
    );
    expect(racing.map((response) => response.statusCode).sort()).toEqual([200, 200, 200, 200, 400]);
    expect(await totals(user.tenant_id, policy.id)).toEqual({
      amount_paid: '1000.00',
      installments_paid: 4,
      total_installments: 4,
    });
  });

  it('corrects a recorded payment as a whole, up to the amount due', async () => {
    const { as, user, policy, url } = await agencyWithPolicy();
    await as.post(url(0), { payment_method: 'cash' });
    const correction = {
      amount_paid: '200',
      paid_date: '2026-02-03',
      payment_method: 'cheque',
      reference: ' CHQ 1183 ',
    };
    const corrected = await as.put(url(0), correction);
    expect(corrected.statusCode).toBe(200);
    expect(corrected.json()).toMatchObject({
      amount_paid: '200.00',
      paid_date: '2026-02-03',
      payment_method: 'cheque',
      reference: 'CHQ 1183',
      status: 'partially_paid',
    });
    expect(await totals(user.tenant_id, policy.id)).toMatchObject({
      amount_paid: '200.00',
      installments_paid: 0,
    });

    expect((await as.put(url(0), { ...correction, amount_paid: '250' })).json().status).toBe('paid');
    expect(await totals(user.tenant_id, policy.id)).toMatchObject({
      amount_paid: '250.00',
      installments_paid: 1,
    });

    const tooMuch = await as.put(url(0), { ...correction, amount_paid: '250.01' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toEqual({ amount_paid: ['Only 250.00 is due on this instalment.'] });
    const nothing = await as.put(url(0), { ...correction, amount_paid: 0 });
    expect(nothing.json()).toEqual({ amount_paid: ['The amount must be more than zero.'] });
    const missing = await as.put(url(0), {});
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json()).sort()).toEqual(['amount_paid', 'paid_date', 'payment_method']);
  });

  it('undoes a payment: pending again, nothing paid, and the policy totals follow', async () => {
    const { as, user, policy, url } = await agencyWithPolicy();
    await as.post(url(0), { payment_method: 'card', reference: 'R-1' });
    await as.post(url(1), { amount: '10', payment_method: 'card' });
    const undone = await as.delete(url(0));
    expect(undone.statusCode).toBe(200);
    expect(undone.json()).toMatchObject({
      amount_paid: '0.00',
      paid_date: null,
      payment_method: null,
      reference: '',
      status: 'pending',
    });
    expect(await totals(user.tenant_id, policy.id)).toEqual({
      amount_paid: '10.00',
      installments_paid: 0,
      total_installments: 4,
    });
  });

  it('lists instalments across policies with filters, search, sort and pages', async () => {
    const { as, user } = await agency();
    const dana = await addPolicyParties(as);
    const avi = await addPolicyParties(as, { customer: ['Avi', 'Cohen'], company: 'Clal' });
    // Long past and far ahead, so overdue does not depend on the day the test runs.
    const past = await insertPolicy(t, user.tenant_id, dana, {
      policy_number: 'CAR-100',
      start_date: '2020-01-01',
      end_date: '2020-12-31',
      total_premium: '1000.00',
      payment_frequency: 'quarterly',
    });
    const future = await insertPolicy(t, user.tenant_id, avi, {
      policy_number: 'HOME-200',
      start_date: '2090-01-01',
      end_date: '2090-12-31',
      total_premium: '600.00',
      payment_frequency: 'semi_annual',
    });
    const [q1, q2] = past.installmentIds;
    await as.post(`/api/installments/${q1}/payment/`, { payment_method: 'cash' });
    await as.post(`/api/installments/${q2}/payment/`, { amount: '50', payment_method: 'cash' });

    const list = async (query: string) => {
      const response = await as.get(`/api/installments/?${query}`);
      expect(response.statusCode).toBe(200);
      return response.json();
    };
    const dueDates = async (query: string) =>
      (await list(query)).results.map((row: { due_date: string }) => row.due_date);

    const first = (await list('')).results[0];
    expect(first).toMatchObject({
      id: q1,
      policy_id: past.id,
      policy_number: 'CAR-100',
      customer: { id: dana.customerId, first_name: 'Dana', last_name: 'Levi' },
      customer_name: 'Dana Levi',
      company_name: 'Harel',
      status: 'paid',
      is_overdue: false,
    });
    expect(await dueDates('')).toEqual([
      '2020-01-01',
      '2020-04-01',
      '2020-07-01',
      '2020-10-01',
      '2090-01-01',
      '2090-07-01',
    ]);
    expect(await dueDates('status=overdue')).toEqual(['2020-04-01', '2020-07-01', '2020-10-01']);
    expect(
      (await list('status=overdue')).results.every((row: { is_overdue: boolean }) => row.is_overdue),
    ).toBe(true);
    expect(await dueDates('status=due')).toEqual([
      '2020-04-01',
      '2020-07-01',
      '2020-10-01',
      '2090-01-01',
      '2090-07-01',
    ]);
    expect(await dueDates('status=paid')).toEqual(['2020-01-01']);
    expect(await dueDates('status=partially_paid')).toEqual(['2020-04-01']);
    expect((await list('status=pending')).count).toBe(4);
    expect(await dueDates('due_date_from=2020-04-01&due_date_to=2020-07-01')).toEqual([
      '2020-04-01',
      '2020-07-01',
    ]);
    expect(await dueDates(`company_id=${avi.companyId}`)).toEqual(['2090-01-01', '2090-07-01']);
    expect((await list(`customer_id=${dana.customerId}`)).count).toBe(4);
    expect((await list(`policy_id=${future.id}`)).count).toBe(2);
    expect((await list('search=home-2')).count).toBe(2);
    expect((await list('search=dana%20lev')).count).toBe(4);
    expect(await dueDates('ordering=-due_date&page_size=2')).toEqual(['2090-07-01', '2090-01-01']);
    // What needs attention: the overdue, then what falls due later, then the paid.
    expect(await dueDates('ordering=attention')).toEqual([
      '2020-04-01',
      '2020-07-01',
      '2020-10-01',
      '2090-01-01',
      '2090-07-01',
      '2020-01-01',
    ]);
    expect(await dueDates('ordering=attention&page_size=2&page=3')).toEqual(['2090-07-01', '2020-01-01']);
    expect(await dueDates(`ordering=amount_due&status=due&policy_id=${future.id}`)).toEqual([
      '2090-01-01',
      '2090-07-01',
    ]);

    const page = await list('status=due&page_size=2&page=2');
    expect(page).toMatchObject({
      count: 5,
      next: '/api/installments/?status=due&page_size=2&page=3',
      previous: '/api/installments/?status=due&page_size=2&page=1',
    });
  });

  it("keeps the instalments of one member's policies with Mine, on the list and its export", async () => {
    const owner = await agency();
    const avi = await addTeamMember(t.app, owner, 'agent', 'Avi');
    const bea = await addTeamMember(t.app, owner, 'agent', 'Bea');
    const parties = await cover(owner.as);
    const customer = await addCustomer(owner.as);
    const quarterly = { assigned_to: avi.id, payment_frequency: 'quarterly' };
    const avis = await addPolicy(owner.as, parties, customer.id, { policy_number: 'AVI-1', ...quarterly });
    const beas = await addPolicy(owner.as, parties, customer.id, {
      policy_number: 'BEA-1',
      assigned_to: bea.id,
    });
    // Written straight to the database: a policy no one looks after, which no one's Mine holds.
    const { policy_type_id: policyTypeId, company_id: companyId } = parties;
    await insertPolicy(
      t,
      owner.user.tenant_id,
      { customerId: customer.id, companyId, policyTypeId },
      { policy_number: 'NOBODY' },
    );

    const policyNumbers = async (as: typeof owner.as, query: string) => {
      const response = await as.get(`/api/installments/?page_size=100&${query}`);
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json() as { count: number; results: { policy_number: string }[] };
      expect(page.count).toBe(page.results.length);
      return page.results.map((row) => row.policy_number);
    };
    expect((await policyNumbers(owner.as, '')).sort()).toEqual([
      'AVI-1',
      'AVI-1',
      'AVI-1',
      'AVI-1',
      'BEA-1',
      'NOBODY',
    ]);
    // The owner looking at each member's book, and each member at their own.
    for (const [member, policy, instalments] of [
      [avi, avis, 4],
      [bea, beas, 1],
    ] as const) {
      for (const as of [owner.as, member.as]) {
        const mine = await policyNumbers(as, `assigned_to=${member.id}`);
        expect(mine).toEqual(Array(instalments).fill(policy.policy_number));
      }
    }
    const exported = await owner.as.get(`/api/installments/export/?format=csv&assigned_to=${bea.id}`);
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.body).toContain('BEA-1');
    expect(exported.body).not.toContain('AVI-1');
    expect(exported.body).not.toContain('NOBODY');
  });

  it('refuses bad input with a message for each field', async () => {
    const { as, url } = await agencyWithPolicy();
    const refused = await as.post(url(0), {
      amount: '12.3456',
      paid_date: 'yesterday',
      payment_method: 'barter',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      amount: ['Use at most two decimal places.'],
      paid_date: ['Enter a valid date (YYYY-MM-DD).'],
      payment_method: ['Choose how it was paid.'],
    });
    expect((await as.post(url(0), { amount: 'ten', payment_method: 'cash' })).json()).toEqual({
      amount: ['Enter an amount, like 1250.00.'],
    });
    expect((await as.get('/api/installments/?status=late')).statusCode).toBe(400);
    expect(
      (await as.post('/api/installments/not-an-id/payment/', { payment_method: 'cash' })).statusCode,
    ).toBe(400);
  });

  it("answers 404 for another agency's instalment, and never lists it", async () => {
    const { url } = await agencyWithPolicy();
    const other = await agency();
    expect((await other.as.post(url(0), { payment_method: 'cash' })).statusCode).toBe(404);
    const correction = { amount_paid: '10', paid_date: '2026-01-01', payment_method: 'cash' };
    expect((await other.as.put(url(0), correction)).statusCode).toBe(404);
    const undo = await other.as.delete(url(0));
    expect(undo.statusCode).toBe(404);
    expect(undo.json()).toEqual({ detail: 'Instalment not found.' });
    expect((await other.as.get('/api/installments/')).json().count).toBe(0);
  });

  it('needs a signed-in user whose plan includes Payments', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/installments/' })).statusCode).toBe(401);

    const lapsed = await agencyWithPolicy();
    await setSubscription(t, lapsed.user.tenant_id, { status: 'expired' });
    const expired = await lapsed.as.post(lapsed.url(0), { payment_method: 'cash' });
    expect(expired.statusCode).toBe(402);
    expect(expired.json().detail).toMatch(/Billing page/);

    const limited = await agencyWithPolicy();
    await setSubscription(t, limited.user.tenant_id, { plan: await addPlanWithout(t, 'module_payments') });
    const refused = await limited.as.get('/api/installments/');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/does not include/);
    expect((await limited.as.delete(limited.url(0))).statusCode).toBe(403);
  });
});

describe('payments export', () => {
  it('holds exactly the instalments the list shows, in its order, with money and dates typed', async () => {
    const { as, url, policy } = await agencyWithPolicy({ policy_number: 'Q-1' });
    const other = await agencyWithPolicy({ policy_number: 'Q-2' });
    const partly = { amount: '100.50', payment_method: 'cash', paid_date: '2026-01-02', reference: '-5+x' };
    expect((await as.post(url(0), partly)).statusCode).toBe(200);
    const paid = await as.post(url(1), { payment_method: 'bank_transfer', paid_date: '2026-04-01' });
    expect(paid.statusCode).toBe(200);
    await other.as.post(other.url(0), { payment_method: 'cash' });

    const query = `policy_id=${policy.id}&status=due&ordering=-due_date`;
    const listed = (await as.get(`/api/installments/?${query}`)).json().results as { due_date: string }[];
    expect(listed.map((row) => row.due_date)).toEqual(['2026-10-01', '2026-07-01', '2026-01-01']);

    const { csv, xlsx, fileName } = await exportBoth(as, '/api/installments/export/', query);
    expect(fileName).toMatch(/^payments-/);
    expect(xlsx[0]).toEqual(csv[0]);
    expect(column(csv, 'Due date')).toEqual(listed.map((row) => row.due_date));
    expect(column(xlsx, 'Due date')).toEqual(listed.map((row) => day(row.due_date)));
    expect(column(csv, 'Policy number')).toEqual(['Q-1', 'Q-1', 'Q-1']);
    expect(column(csv, 'Amount paid')).toEqual(['0.00', '0.00', '100.50']);
    expect(column(xlsx, 'Amount paid')).toEqual([0, 0, 100.5]);
    expect(column(xlsx, 'Amount due')).toEqual([250, 250, 250]);
    // Choices read as the screens show them.
    expect(column(csv, 'Status')).toEqual(['Overdue', 'Overdue', 'Overdue']);
    expect(column(xlsx, 'Payment method')).toEqual([null, null, 'Cash']);
    expect(column(xlsx, 'Paid on')).toEqual([null, null, day('2026-01-02')]);
    // A reference a spreadsheet would run is written as text.
    expect(column(csv, 'Reference')).toEqual(['', '', "'-5+x"]);
    expect(column(xlsx, 'Reference')).toEqual([null, null, '-5+x']);

    const everything = await exportBoth(as, '/api/installments/export/');
    expect(column(everything.csv, 'Policy number')).toEqual(['Q-1', 'Q-1', 'Q-1', 'Q-1']);
  });

  it('refuses an unknown format and holds the plan gate', async () => {
    const broker = await agency();
    await expectFormatAndGate(t, broker, '/api/installments/export/', 'module_payments');
  });
});
