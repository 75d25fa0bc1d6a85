import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthsBefore, seedAgencyHistory } from '../../../test/billing-history.js';
import { addPolicyParties, insertPolicy } from '../../../test/insert-policy.js';
import {
  apiAs,
  bearer,
  createTestApp,
  registerAgency,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';
import { readAcrossAgencies } from '../../db/platform-read.js';
import { withTenant } from '../../db/tenant.js';
import { auditLog } from '../audit/tables.js';
import { subscriptions } from '../billing/tables.js';
import { tenants } from '../tenants/tables.js';

// One platform on its own database: the admin's agency, six agencies with a history over the last
// months, and the demo agency, which every figure leaves out.

let t: TestApp;
let admin: ReturnType<typeof apiAs>;
let adminSession: Awaited<ReturnType<typeof registerAgency>>;

const now = new Date();
const monthsAgo = (back: number, day?: number) => monthsBefore(now, back, day);
/** "2026-11" for `back` months ago. */
const label = (back: number) => monthsAgo(back).toISOString().slice(0, 7);
let tenantIds: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ adminEmails: ['ops@coverdesk.test'] });
  adminSession = await registerAgency(t.app, { email: 'ops@coverdesk.test', company_name: 'Coverdesk Ops' });
  admin = apiAs(t.app, adminSession.access);

  // Prices: Starter 29.99 / 299.99, Professional 79.99 / 799.99, Agency 199.99 / 1999.99.
  const atlas = await seedAgencyHistory(t.database.db, 'Atlas Brokers', monthsAgo(5, 10), [
    { at: monthsAgo(4), type: 'upgraded', status: 'active', plan: 'starter', cycle: 'monthly' },
    { at: monthsAgo(2), type: 'plan_changed', plan: 'professional', cycle: 'monthly' },
    { at: now, type: 'plan_change_scheduled', plan: 'agency', cycle: 'monthly' },
  ]);
  const birch = await seedAgencyHistory(t.database.db, 'Birch Insurance', monthsAgo(5, 10), [
    { at: monthsAgo(5, 20), type: 'upgraded', status: 'active', plan: 'agency', cycle: 'yearly' },
    { at: monthsAgo(1), type: 'plan_changed', plan: 'professional', cycle: 'yearly' },
  ]);
  const cedar = await seedAgencyHistory(t.database.db, 'Cedar Cover', monthsAgo(3, 10), [
    { at: monthsAgo(3), type: 'upgraded', status: 'active', plan: 'professional', cycle: 'monthly' },
    { at: monthsAgo(1), type: 'cancellation_scheduled', status: 'cancelled' },
    { at: now, type: 'period_ended', status: 'expired' },
  ]);
  const dune = await seedAgencyHistory(t.database.db, 'Dune Assurance', monthsAgo(2, 10), [
    { at: monthsAgo(1), type: 'trial_expired', status: 'expired' },
  ]);
  const elm = await seedAgencyHistory(t.database.db, 'Elm Underwriting', monthsAgo(4, 10), [
    { at: monthsAgo(4), type: 'upgraded', status: 'active', plan: 'starter', cycle: 'yearly' },
    { at: now, type: 'past_due', status: 'past_due' },
  ]);
  const fir = await seedAgencyHistory(t.database.db, 'Fir & Sons', monthsAgo(1, 10), [
    { at: monthsAgo(1), type: 'upgraded', status: 'active', plan: 'agency', cycle: 'monthly' },
    { at: now, type: 'paused', status: 'paused' },
  ]);
  await seedAgencyHistory(
    t.database.db,
    'Demo Agency',
    monthsAgo(3, 10),
    [{ at: monthsAgo(3), type: 'upgraded', status: 'active', plan: 'agency', cycle: 'monthly' }],
    true,
  );
  tenantIds = { atlas: atlas.id, birch: birch.id, cedar: cedar.id, dune: dune.id, elm: elm.id, fir: fir.id };
});
afterAll(() => t.close());

const zeroMonths = (count: number) => Array.from({ length: count }, (_, index) => 11 - index);

describe('GET /api/admin/dashboard/', () => {
  it('counts agencies, subscriptions by state, MRR to the cent, and sign-ups and churn per month', async () => {
    const response = await admin.get('/api/admin/dashboard/');
    expect(response.statusCode).toBe(200);
    const dashboard = response.json();
    expect(dashboard.agencies).toEqual({ total: 7, new_this_month: 1 });
    expect(dashboard.subscriptions).toEqual({
      active: 2,
      trial: 1,
      past_due: 1,
      paused: 1,
      cancelled: 0,
      expired: 2,
    });
    // Atlas 79.99 + Birch 799.99 / 12 + Elm (past due) 299.99 / 12 = 171.655, rounded once.
    expect(dashboard.mrr).toBe('171.66');
    const signUps: Record<number, number> = { 5: 2, 4: 1, 3: 1, 2: 1, 1: 1, 0: 1 };
    // A month ago Dune's trial ran out; Cedar cancelled at period end then, and is counted when its
    // paid period ran out, this month.
    const churned: Record<number, number> = { 1: 1, 0: 1 };
    expect(dashboard.months).toEqual(
      zeroMonths(12).map((back) => ({
        month: label(back),
        sign_ups: signUps[back] ?? 0,
        churned: churned[back] ?? 0,
      })),
    );
  });
});

describe('GET /api/admin/billing/', () => {
  it('counts subscriptions by state and lists the past-due agencies with what they owe', async () => {
    const response = await admin.get('/api/admin/billing/');
    expect(response.statusCode).toBe(200);
    const billing = response.json();
    expect(billing.subscriptions).toMatchObject({ active: 2, past_due: 1, paused: 1, expired: 2 });
    expect(billing.past_due).toEqual([
      {
        tenant_id: tenantIds.elm,
        agency: 'Elm Underwriting',
        plan: 'Starter',
        billing_cycle: 'yearly',
        since: now.toISOString(),
        amount: '299.99',
      },
    ]);
  });

  it("lists every agency's billing events newest first, by type, agency and day", async () => {
    const byType = (await admin.get('/api/admin/billing/events/?type=plan_changed')).json();
    expect(byType.count).toBe(2);
    expect(
      byType.results.map((event: { agency: string; plan_name: string }) => [event.agency, event.plan_name]),
    ).toEqual([
      ['Birch Insurance', 'Professional'],
      ['Atlas Brokers', 'Professional'],
    ]);

    const byAgency = (await admin.get('/api/admin/billing/events/?search=atlas')).json();
    expect(byAgency.results.map((event: { type: string }) => event.type)).toEqual([
      'plan_change_scheduled',
      'plan_changed',
      'upgraded',
      'trial_started',
    ]);
    expect(byAgency.results.at(-1).from_plan_name).toBeNull();
    expect(byAgency.results[0]).toMatchObject({
      tenant_id: tenantIds.atlas,
      agency: 'Atlas Brokers',
      plan_name: 'Agency',
      // The plan after Atlas's previous event, so the list reads "Professional → Agency".
      from_plan_name: 'Professional',
      from_status: 'active',
      to_status: 'active',
    });

    const lastMonth = monthsAgo(1).toISOString().slice(0, 10);
    const oneDay = (
      await admin.get(`/api/admin/billing/events/?date_from=${lastMonth}&date_to=${lastMonth}&page_size=2`)
    ).json();
    // Birch's change, Cedar's cancellation, Dune's expiry and Fir's purchase, two to a page.
    expect(oneDay.count).toBe(4);
    expect(oneDay.results).toHaveLength(2);
    expect(oneDay.next).toContain('page=2');

    const demo = (await admin.get('/api/admin/billing/events/?search=demo')).json();
    expect(demo.count).toBe(0);
    const bad = await admin.get('/api/admin/billing/events/?type=refund&date_from=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['date_from', 'type']);
  });
});

describe('GET /api/admin/revenue/', () => {
  it('gives MRR and ARR now and by plan, and each month new, expansion, contraction and churned MRR', async () => {
    const response = await admin.get('/api/admin/revenue/');
    expect(response.statusCode).toBe(200);
    const revenue = response.json();
    expect(revenue.mrr).toBe('171.66');
    expect(revenue.arr).toBe('2059.86');
    expect(revenue.by_plan).toEqual([
      { plan: 'starter', display_name: 'Starter', subscriptions: 1, mrr: '25.00', arr: '299.99' },
      { plan: 'professional', display_name: 'Professional', subscriptions: 2, mrr: '146.66', arr: '1759.87' },
      { plan: 'agency', display_name: 'Agency', subscriptions: 0, mrr: '0.00', arr: '0.00' },
    ]);
    const quiet = { new_mrr: '0.00', expansion: '0.00', contraction: '0.00', churned: '0.00' };
    const moved: Record<number, object> = {
      // Birch buys Agency yearly: 1999.99 / 12.
      5: { mrr: '166.67', arr: '1999.99', new_mrr: '166.67' },
      // Atlas buys Starter monthly, Elm Starter yearly (299.99 / 12).
      4: { mrr: '221.66', arr: '2659.86', new_mrr: '54.99' },
      3: { mrr: '301.65', arr: '3619.74', new_mrr: '79.99' },
      // Atlas moves up from Starter to Professional.
      2: { mrr: '351.65', arr: '4219.74', expansion: '50.00' },
      // Birch moves down to Professional yearly, Fir buys Agency monthly; Cedar cancels at the end of
      // its paid period, which still brings its revenue.
      1: { mrr: '451.64', arr: '5419.62', new_mrr: '199.99', contraction: '100.00' },
      // Cedar's period runs out and Fir pauses; Elm's failed payment and Atlas's change scheduled for
      // later move nothing.
      0: { mrr: '171.66', arr: '2059.86', churned: '279.98' },
    };
    expect(revenue.months).toEqual(
      zeroMonths(12).map((back) => ({
        month: label(back),
        mrr: '0.00',
        arr: '0.00',
        ...quiet,
        ...moved[back],
      })),
    );
  });
});

describe('GET /api/admin/analytics/', () => {
  it("counts records across agencies, each agency's, and users who signed in per day", async () => {
    const gale = await signedInAgency(t.app, { company_name: 'Gale Brokerage' });
    const parties = await addPolicyParties(gale.as);
    const galeTenant = gale.user.tenant_id;
    const policy = await insertPolicy(t, galeTenant, parties);
    await insertPolicy(t, galeTenant, parties);
    expect((await gale.as.post('/api/customers/', { first_name: 'Ori', last_name: 'Tal' })).statusCode).toBe(
      201,
    );
    const lead = { first_name: 'Maya', last_name: 'Golan', source: 'referral' };
    expect((await gale.as.post('/api/leads/', lead)).statusCode).toBe(201);
    const claim = await gale.as.post('/api/claims/', {
      policy_id: policy.id,
      incident_date: '2026-02-01',
      claim_type: 'accident',
      amount_claimed: '4200.00',
    });
    expect(claim.statusCode).toBe(201);

    // Sign-ins written as the audit log keeps them, on the days they happened.
    const { db } = t.database;
    const yesterday = new Date(now.getTime() - 86_400_000);
    const adminUser = adminSession.user;
    const signIns = (tenantId: string, rows: { userId: string; action: string; occurredAt: Date }[]) =>
      withTenant(db, tenantId, (tx) => tx.insert(auditLog).values(rows.map((row) => ({ tenantId, ...row }))));
    await signIns(adminUser.tenant_id, [{ userId: adminUser.id, action: 'sign_in', occurredAt: now }]);
    await signIns(galeTenant, [
      { userId: gale.user.id, action: 'sign_in', occurredAt: now },
      { userId: gale.user.id, action: 'sign_in', occurredAt: now },
      { userId: gale.user.id, action: 'sign_in', occurredAt: yesterday },
      { userId: gale.user.id, action: 'sign_out', occurredAt: yesterday },
    ]);

    const response = await admin.get('/api/admin/analytics/');
    expect(response.statusCode).toBe(200);
    const analytics = response.json();
    expect(analytics.totals).toEqual({ agencies: 8, policies: 2, customers: 2, leads: 1, claims: 1 });
    expect(analytics.active_users).toHaveLength(30);
    expect(analytics.active_users.at(-1)).toEqual({ day: now.toISOString().slice(0, 10), users: 2 });
    expect(analytics.active_users.at(-2)).toEqual({ day: yesterday.toISOString().slice(0, 10), users: 1 });
    expect(analytics.active_users.slice(0, -2).every((day: { users: number }) => day.users === 0)).toBe(true);

    const agencies = (await admin.get('/api/admin/analytics/agencies/?page_size=3')).json();
    expect(agencies.count).toBe(8);
    expect(agencies.results[0]).toEqual({
      id: galeTenant,
      agency: 'Gale Brokerage',
      plan: 'Professional',
      status: 'trial',
      policies: 2,
      customers: 2,
      leads: 1,
      claims: 1,
      users: 1,
    });
    const byName = (await admin.get('/api/admin/analytics/agencies/?ordering=agency&search=r')).json();
    expect(byName.results.map((row: { agency: string }) => row.agency)).toEqual([
      'Atlas Brokers',
      'Birch Insurance',
      'Cedar Cover',
      'Coverdesk Ops',
      'Dune Assurance',
      'Elm Underwriting',
      'Fir & Sons',
      'Gale Brokerage',
    ]);
    const bad = await admin.get('/api/admin/analytics/agencies/?ordering=revenue');
    expect(bad.statusCode).toBe(400);
  });
});

describe('who may read the figures', () => {
  it('refuses a broker and an anonymous caller', async () => {
    const broker = await registerAgency(t.app);
    for (const url of ['/api/admin/dashboard/', '/api/admin/revenue/', '/api/admin/analytics/agencies/']) {
      expect((await t.app.inject({ method: 'GET', url, headers: bearer(broker.access) })).statusCode).toBe(
        403,
      );
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
    const [demo] = await t.database.db.select().from(tenants).where(eq(tenants.isDemo, true));
    expect(demo?.name).toBe('Demo Agency');
  });
});

describe('reading across agencies', () => {
  it('gives every tenant table a read-only policy for the platform read, which an agency cannot use', async () => {
    const { rows } = await t.database.pool.query(`
      select c.relname as table,
        exists (select 1 from pg_policy p where p.polrelid = c.oid and p.polname = 'platform_read'
          and p.polcmd = 'r') as readable
      from pg_class c
      where exists (select 1 from pg_policy p where p.polrelid = c.oid and p.polname = 'tenant_isolation')
      order by 1`);
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) expect(row).toEqual({ table: row.table, readable: true });

    // A tenant transaction that set the platform read still sees its own agency only.
    const seen = await withTenant(t.database.db, tenantIds.atlas ?? '', async (tx) => {
      await tx.execute(sql`select set_config('app.platform_read', 'on', true)`);
      return tx.select({ tenantId: subscriptions.tenantId }).from(subscriptions);
    });
    expect(seen).toEqual([{ tenantId: tenantIds.atlas }]);
  });

  it('only reads', async () => {
    const write = readAcrossAgencies(t.database.db, (tx) =>
      tx.insert(tenants).values({ name: 'Written while reading' }),
    );
    await expect(write).rejects.toThrow();
  });
});
