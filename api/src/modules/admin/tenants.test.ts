import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiAs,
  createTestApp,
  registerAgency,
  setSubscription,
  type TestApp,
} from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { auditLog } from '../audit/tables.js';

let t: TestApp;
let admin: ReturnType<typeof apiAs>;
beforeAll(async () => {
  t = await createTestApp({ adminEmails: ['ops@coverdesk.test'] });
  admin = apiAs(t.app, (await registerAgency(t.app, { email: 'ops@coverdesk.test' })).access);
});
afterAll(() => t.close());

const DAY_MS = 86_400_000;
const UNKNOWN = '01890000-0000-7000-8000-000000000000';

/** The agency's audit lines, newest first, read as the agency would. */
const auditOf = (tenantId: string) =>
  withTenant(t.database.db, tenantId, (tx) => tx.select().from(auditLog).orderBy(auditLog.occurredAt));

/** A new agency with a distinctive name. */
async function newAgency(name = `Harbour ${randomUUID().slice(0, 8)}`) {
  const agency = await registerAgency(t.app, { company_name: name });
  return { ...agency, name, tenantId: agency.user.tenant_id, as: apiAs(t.app, agency.access) };
}

describe('the list of agencies', () => {
  it('finds an agency by its name or a user’s email, with its owner, plan, status and counts', async () => {
    const agency = await newAgency();
    await agency.as.post('/api/customers/', {
      customer_type: 'individual',
      first_name: 'Dana',
      last_name: 'Levi',
    });
    for (const search of [agency.name.toLowerCase(), agency.email]) {
      const response = await admin.get(`/api/admin/tenants/?search=${encodeURIComponent(search)}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        count: 1,
        results: [
          {
            id: agency.tenantId,
            name: agency.name,
            owner_email: agency.email,
            plan: 'professional',
            status: 'trial',
            user_count: 1,
            policy_count: 0,
            customer_count: 1,
          },
        ],
      });
      expect(response.json().results[0].last_activity_at).not.toBeNull();
    }
  });

  it('filters by plan and status, reading a lapsed trial as expired, and sorts', async () => {
    const marker = `Filtered ${randomUUID().slice(0, 8)}`;
    const starter = await newAgency(`${marker} A`);
    const lapsed = await newAgency(`${marker} B`);
    await setSubscription(t, starter.tenantId, { plan: 'starter', status: 'active' });
    await admin.patch(`/api/admin/tenants/${lapsed.tenantId}/subscription/`, {
      trial_ends_at: new Date(Date.now() - DAY_MS).toISOString(),
    });
    const names = async (query: string) =>
      (await admin.get(`/api/admin/tenants/?search=${encodeURIComponent(marker)}&${query}`))
        .json()
        .results.map((row: { name: string }) => row.name);
    expect(await names('plan=starter')).toEqual([`${marker} A`]);
    expect(await names('status=expired')).toEqual([`${marker} B`]);
    expect(await names('ordering=-name')).toEqual([`${marker} B`, `${marker} A`]);
    expect((await admin.get('/api/admin/tenants/?status=sleeping')).statusCode).toBe(400);
    expect((await admin.get('/api/admin/tenants/?ordering=mrr')).statusCode).toBe(400);
  });
});

describe('one agency', () => {
  it('shows its users, subscription, usage and latest activity, and 404 for an unknown id', async () => {
    const agency = await newAgency();
    await admin.post(`/api/admin/tenants/${agency.tenantId}/subscription/extend-trial/`, {
      days: 3,
      reason: 'Asked for more time',
    });
    const response = await admin.get(`/api/admin/tenants/${agency.tenantId}/`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      name: agency.name,
      users: [{ email: agency.email, is_owner: true, is_admin: false, disabled_at: null }],
      subscription: { status: 'trial', plan_details: { name: 'professional' } },
      usage: { policies: { current_value: 0 } },
      recent_activity: [
        { action: 'trial_extended', reason: 'Asked for more time', actor_email: 'ops@coverdesk.test' },
      ],
    });
    expect((await admin.get(`/api/admin/tenants/${UNKNOWN}/`)).statusCode).toBe(404);
    expect((await admin.get('/api/admin/tenants/not-an-id/')).statusCode).toBe(400);
  });

  it('shows each limit with its use and the additions of the last twelve months', async () => {
    const agency = await newAgency();
    await agency.as.post('/api/customers/', {
      customer_type: 'individual',
      first_name: 'Dana',
      last_name: 'Levi',
    });
    const response = await admin.get(`/api/admin/tenants/${agency.tenantId}/usage/`);
    expect(response.statusCode).toBe(200);
    const customers = response
      .json()
      .metrics.find((metric: { metric: string }) => metric.metric === 'customers');
    expect(customers).toMatchObject({ used: 1, is_over_limit: false });
    expect(customers.limit).toBeGreaterThan(0);
    expect(customers.monthly).toHaveLength(12);
    expect(customers.monthly.at(-1).added).toBe(1);
    expect((await admin.get(`/api/admin/tenants/${UNKNOWN}/usage/`)).statusCode).toBe(404);
  });
});

describe("an admin's actions on a subscription", () => {
  it('extends a trial, recorded in the billing history and the audit log with the reason', async () => {
    const agency = await newAgency();
    const before = (await agency.as.get('/api/billing/subscriptions/status/')).json().trial_ends_at;
    const response = await admin.post(`/api/admin/tenants/${agency.tenantId}/subscription/extend-trial/`, {
      days: 10,
      reason: 'Onboarding took longer',
    });
    expect(response.statusCode).toBe(200);
    const after = response.json().subscription.trial_ends_at;
    expect(new Date(after).getTime() - new Date(before).getTime()).toBe(10 * DAY_MS);
    expect(response.json().detail).toMatch(/^The trial now ends on /);

    const history = (await agency.as.get('/api/billing/events/')).json().results;
    expect(history[0]).toMatchObject({
      type: 'changed_by_admin',
      note: 'Trial extended by 10 days: Onboarding took longer',
    });
    const [line] = (await auditOf(agency.tenantId)).filter((row) => row.action === 'trial_extended');
    expect(line).toMatchObject({
      entity: 'subscription',
      reason: 'Onboarding took longer',
      actorEmail: 'ops@coverdesk.test',
      changes: { trial_ends_at: { before, after } },
    });
  });

  it('changes the plan, refusing the same plan and one the agency does not fit', async () => {
    const agency = await newAgency();
    const response = await admin.post(`/api/admin/tenants/${agency.tenantId}/subscription/change-plan/`, {
      plan: 'starter',
      reason: 'Smaller agency than expected',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().subscription.plan_details.name).toBe('starter');
    const again = await admin.post(`/api/admin/tenants/${agency.tenantId}/subscription/change-plan/`, {
      plan: 'starter',
      reason: 'Twice',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('The agency is already on the Starter plan.');
    const unknown = await admin.post(`/api/admin/tenants/${agency.tenantId}/subscription/change-plan/`, {
      plan: 'platinum',
      reason: 'No such plan',
    });
    expect(unknown.json()).toEqual({ plan: ['There is no plan named "platinum".'] });
    const [line] = (await auditOf(agency.tenantId)).filter((row) => row.action === 'plan_changed');
    expect(line?.changes).toMatchObject({ plan: { before: 'professional', after: 'starter' } });
  });

  it('comps months free: active until then, recorded at 0, and no more trial after it', async () => {
    const agency = await newAgency();
    const response = await admin.post(`/api/admin/tenants/${agency.tenantId}/subscription/comp-period/`, {
      months: 2,
      reason: 'Apology for the outage',
    });
    expect(response.statusCode).toBe(200);
    const { subscription } = response.json();
    expect(subscription).toMatchObject({ status: 'active', is_active: true });
    const days = (new Date(subscription.current_period_end).getTime() - Date.now()) / DAY_MS;
    expect(days).toBeGreaterThan(58);
    expect(days).toBeLessThan(63);
    const history = (await agency.as.get('/api/billing/events/')).json().results;
    expect(history[0]).toMatchObject({ type: 'changed_by_admin', amount: '0.00', to_status: 'active' });
    const [line] = (await auditOf(agency.tenantId)).filter((row) => row.action === 'period_comped');
    expect(line).toMatchObject({
      reason: 'Apology for the outage',
      changes: { status: { before: 'trial', after: 'active' } },
    });

    const trial = await admin.post(`/api/admin/tenants/${agency.tenantId}/subscription/extend-trial/`, {
      days: 5,
      reason: 'Too late',
    });
    expect(trial.statusCode).toBe(409);
    expect(trial.json().detail).toMatch(/^Only a trial can be extended/);
  });

  it('cancels at the period end or at once, and refuses to cancel twice', async () => {
    const agency = await newAgency();
    const atEnd = await admin.post(`/api/admin/tenants/${agency.tenantId}/subscription/cancel/`, {
      reason: 'Asked to leave',
    });
    expect(atEnd.statusCode).toBe(200);
    expect(atEnd.json().subscription).toMatchObject({
      status: 'cancelled',
      cancel_at_period_end: true,
      is_active: true,
    });
    const other = await newAgency();
    const now = await admin.post(`/api/admin/tenants/${other.tenantId}/subscription/cancel/`, {
      reason: 'Fraud',
      immediate: true,
    });
    expect(now.json().subscription).toMatchObject({ status: 'cancelled', is_active: false });
    const twice = await admin.post(`/api/admin/tenants/${other.tenantId}/subscription/cancel/`, {
      reason: 'Again',
    });
    expect(twice.statusCode).toBe(409);
    const lines = (await auditOf(other.tenantId)).filter((row) => row.action === 'subscription_cancelled');
    expect(lines.map((row) => row.reason)).toEqual(['Fraud']);
  });

  it('requires a reason and sane numbers (400), and answers 404 for an unknown agency', async () => {
    const agency = await newAgency();
    const url = `/api/admin/tenants/${agency.tenantId}/subscription`;
    expect((await admin.post(`${url}/extend-trial/`, { days: 5 })).json()).toEqual({
      reason: ['This field is required.'],
    });
    expect((await admin.post(`${url}/extend-trial/`, { days: 5, reason: '  ' })).json()).toEqual({
      reason: ['This field may not be blank.'],
    });
    expect((await admin.post(`${url}/extend-trial/`, { days: 0, reason: 'x' })).json()).toEqual({
      days: ['Extend by at least 1 day.'],
    });
    expect((await admin.post(`${url}/comp-period/`, { months: 30, reason: 'x' })).json()).toEqual({
      months: ['Give at most 24 months.'],
    });
    const missing = await admin.post(`/api/admin/tenants/${UNKNOWN}/subscription/extend-trial/`, {
      days: 5,
      reason: 'x',
    });
    expect(missing.statusCode).toBe(404);
    expect(await auditOf(agency.tenantId)).toEqual([]);
  });
});
