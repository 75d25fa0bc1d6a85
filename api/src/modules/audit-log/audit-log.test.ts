import { randomInt } from 'node:crypto';
import type { AdminAuditEntry, AuditEntry, Plan } from '@coverdesk/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPolicy } from '../../../test/insert-policy.js';
import {
  apiAs,
  bearer,
  createTestApp,
  PASSWORD,
  registerAgency,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { createAdmin } from '../accounts/admins.js';
import { hashPassword } from '../accounts/passwords.js';
import { users } from '../accounts/tables.js';
import { auditLog } from '../audit/tables.js';
import { emailOutbox } from '../mail/tables.js';

let t: TestApp;
let plans: Record<string, Plan>;
beforeAll(async () => {
  t = await createTestApp({}, { demoAgency: true });
  const { results } = (await t.app.inject({ method: 'GET', url: '/api/billing/plans/' })).json();
  plans = Object.fromEntries(results.map((plan: Plan) => [plan.name, plan]));
});
afterAll(() => t.close());

type Agency = Awaited<ReturnType<typeof signedInAgency>>;

/** Sign-ins are throttled per address: each comes from an office of its own. */
const someAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}`;

const signIn = (email: string, password: string, remoteAddress = someAddress()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/token/',
    payload: { email, password },
    remoteAddress,
    headers: { 'user-agent': 'Audit test browser/1.0' },
  });

/** The agency's log as its owner reads it on the profile's Activity tab. */
async function logOf(agency: Agency, query = ''): Promise<AuditEntry[]> {
  const response = await agency.as.get(`/api/user/profile/audit/?page_size=100${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().results;
}

const created = async (response: { statusCode: number; body: string; json(): { id: string } }) => {
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
};

/** The one row of the log about an entity and action, failing when there is not exactly one. */
function only(entries: AuditEntry[], action: string, entity: string, entityId?: string) {
  const found = entries.filter(
    (entry) =>
      entry.action === action && entry.entity === entity && (!entityId || entry.entity_id === entityId),
  );
  expect(found, `${action} ${entity}`).toHaveLength(1);
  return found[0] as AuditEntry;
}

/** What the database said refusing a statement (drizzle wraps it), or "done" when it did not. */
const refusal = (statement: Promise<unknown>) =>
  statement.then(
    () => 'done',
    (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
  );

/** Another user of the same agency, not its owner, signed in. */
async function colleagueOf(agency: Agency) {
  const email = `colleague-${randomInt(1e9)}@example.com`;
  await t.database.db.insert(users).values({
    tenantId: agency.user.tenant_id,
    email,
    passwordHash: await hashPassword(PASSWORD),
    firstName: 'Avi',
    lastName: 'Cohen',
  });
  const session = await signIn(email, PASSWORD);
  expect(session.statusCode).toBe(200);
  return { email, as: apiAs(t.app, session.json().access) };
}

describe('the audit log', () => {
  it('records sign-ins that worked and failed, with the address and user agent, and sign-outs, but not refreshes', async () => {
    const agency = await signedInAgency(t.app);
    const failed = await signIn(agency.email, 'not my password', '10.1.2.3');
    expect(failed.statusCode).toBe(401);
    const session = await signIn(agency.email, PASSWORD, '10.1.2.4');
    expect(session.statusCode).toBe(200);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/token/refresh/',
      payload: { refresh: session.json().refresh },
    });
    expect(refreshed.statusCode).toBe(200);
    const signedOut = await t.app.inject({
      method: 'POST',
      url: '/api/token/revoke/',
      payload: { refresh: refreshed.json().refresh },
      remoteAddress: '10.1.2.5',
    });
    expect(signedOut.statusCode).toBe(200);

    const entries = await logOf(agency);
    expect(entries.map((entry) => entry.action)).toEqual(['sign_out', 'sign_in', 'sign_in_failed']);
    expect(only(entries, 'sign_in_failed', 'user')).toMatchObject({
      user_id: agency.user.id,
      actor_email: agency.email,
      ip_address: '10.1.2.3',
      user_agent: 'Audit test browser/1.0',
    });
    expect(only(entries, 'sign_in', 'user')).toMatchObject({
      user_id: agency.user.id,
      ip_address: '10.1.2.4',
    });
    expect(only(entries, 'sign_out', 'user')).toMatchObject({
      user_id: agency.user.id,
      ip_address: '10.1.2.5',
    });
    expect(entries.every((entry) => entry.request_id)).toBe(true);
  });

  it('keeps a failed sign-in with an unknown email outside every agency, for admins to see', async () => {
    const email = `nobody-${randomInt(1e9)}@example.com`;
    expect((await signIn(email, 'guessing')).statusCode).toBe(401);
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.actorEmail, email));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'sign_in_failed', tenantId: null, userId: null });
  });

  it('records profile changes field by field, and password changes without the password', async () => {
    const agency = await signedInAgency(t.app);
    const changed = await agency.as.patch('/api/user/profile/', {
      first_name: 'Noya',
      company_name: 'Peretz & Daughters',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const newPassword = 'a much longer harbour light';
    const password = await agency.as.patch('/api/user/profile/', {
      current_password: PASSWORD,
      new_password: newPassword,
    });
    expect(password.statusCode, password.body).toBe(200);

    const entries = await logOf(agency);
    expect(only(entries, 'profile_changed', 'user').changes).toEqual({
      first_name: { before: 'Noa', after: 'Noya' },
      company_name: { before: 'Peretz Insurance', after: 'Peretz & Daughters' },
    });
    const passwordChange = only(entries, 'password_changed', 'user');
    expect(passwordChange.changes).toBeNull();
    const stored = await t.database.db.select().from(auditLog).where(eq(auditLog.userId, agency.user.id));
    const everything = JSON.stringify(stored);
    expect(everything).not.toContain(newPassword);
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain('argon2');
  });

  it('records a password set with a reset link', async () => {
    const agency = await signedInAgency(t.app);
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/password-reset/',
      payload: { email: agency.email },
    });
    expect(asked.statusCode).toBe(202);
    let token: string | undefined;
    for (let attempt = 0; attempt < 100 && !token; attempt++) {
      const [mail] = await t.database.db
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.recipient, agency.email));
      token = JSON.stringify(mail ?? {}).match(/reset-password\/([A-Za-z0-9_-]+)/)?.[1];
      if (!token) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/password-reset/confirm/',
      payload: { token, new_password: 'a brand new harbour light' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    // The reset signed every session out.
    const again = await signIn(agency.email, 'a brand new harbour light');
    const signedIn = { ...agency, as: apiAs(t.app, again.json().access) };
    expect(only(await logOf(signedIn), 'password_changed', 'user')).toMatchObject({
      user_id: agency.user.id,
      reason: 'Reset with a link sent by email.',
      changes: null,
    });
  });

  it("records a customer's creation, its changed fields before and after, and its deletion", async () => {
    const agency = await signedInAgency(t.app);
    const id = await created(
      await agency.as.post('/api/customers/', { first_name: 'Dana', last_name: 'Levi', city: 'Haifa' }),
    );
    expect((await agency.as.patch(`/api/customers/${id}/`, { city: 'Tel Aviv' })).statusCode).toBe(200);
    // Saving a customer as it is changes nothing, and records nothing.
    expect((await agency.as.patch(`/api/customers/${id}/`, { city: 'Tel Aviv' })).statusCode).toBe(200);
    expect((await agency.as.delete(`/api/customers/${id}/`)).statusCode).toBe(204);

    const entries = await logOf(agency, '&entity=customer');
    expect(entries.map((entry) => entry.action)).toEqual(['delete', 'update', 'create']);
    const creation = only(entries, 'create', 'customer', id);
    expect(creation).toMatchObject({ user_id: agency.user.id, actor_email: agency.email });
    expect(creation.changes).toMatchObject({
      first_name: { before: null, after: 'Dana' },
      city: { before: null, after: 'Haifa' },
    });
    // Bookkeeping and what PostgreSQL derives stay out of the record.
    expect(Object.keys(creation.changes ?? {})).not.toContain('tenant_id');
    expect(Object.keys(creation.changes ?? {})).not.toContain('name_key');
    expect(only(entries, 'update', 'customer', id).changes).toEqual({
      city: { before: 'Haifa', after: 'Tel Aviv' },
    });
    expect(only(entries, 'delete', 'customer', id).changes).toMatchObject({
      last_name: { before: 'Levi', after: null },
    });
  });

  it('records companies, policies, payments, leads and claims being created, changed and deleted', async () => {
    const agency = await signedInAgency(t.app);
    const { as } = agency;
    const motor = await created(await as.post('/api/policy-types/', { name: 'Motor', category: 'auto' }));
    const companyId = await created(
      await as.post('/api/companies/', {
        name: 'Harel',
        policy_types: [{ policy_type_id: motor, commission_percentage: '12.5' }],
      }),
    );
    const renamed = await as.put(`/api/companies/${companyId}/`, {
      name: 'Harel Insurance',
      policy_types: [{ policy_type_id: motor, commission_percentage: '12.5' }],
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const spare = await created(await as.post('/api/companies/', { name: 'Clal' }));
    expect((await as.delete(`/api/companies/${spare}/`)).statusCode).toBe(204);

    const customerId = await created(
      await as.post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' }),
    );
    const policy = {
      customer_id: customerId,
      company_id: companyId,
      policy_type_id: motor,
      start_date: '2026-01-01',
      end_date: '2026-12-31',
      total_premium: '1200.00',
      payment_frequency: 'monthly',
    };
    const policyId = await created(await as.post('/api/policies/', { ...policy, policy_number: 'P-1' }));
    const changedPolicy = await as.put(`/api/policies/${policyId}/`, {
      ...policy,
      policy_number: 'P-1',
      notes: 'Garage kept',
    });
    expect(changedPolicy.statusCode, changedPolicy.body).toBe(200);
    const doomed = await created(await as.post('/api/policies/', { ...policy, policy_number: 'P-2' }));
    expect((await as.delete(`/api/policies/${doomed}/`)).statusCode).toBe(204);

    const [instalment] = (await as.get(`/api/installments/?search=P-1&ordering=due_date`)).json().results;
    const paid = await as.post(`/api/installments/${instalment.id}/payment/`, {
      amount: '100.00',
      payment_method: 'cash',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await as.delete(`/api/installments/${instalment.id}/payment/`)).statusCode).toBe(200);

    const leadId = await created(await as.post('/api/leads/', { first_name: 'Maya', last_name: 'Golan' }));
    expect((await as.patch(`/api/leads/${leadId}/`, { status: 'contacted' })).statusCode).toBe(200);
    expect((await as.delete(`/api/leads/${leadId}/`)).statusCode).toBe(204);

    const claimPolicy = await insertPolicy(t, agency.user.tenant_id, {
      customerId,
      companyId,
      policyTypeId: motor,
    });
    const claim = {
      policy_id: claimPolicy.id,
      incident_date: '2026-02-01',
      reported_date: '2026-02-02',
      claim_type: 'accident',
      amount_claimed: '900.00',
    };
    const claimId = await created(await as.post('/api/claims/', claim));
    const claimChange = await as.put(`/api/claims/${claimId}/`, {
      ...claim,
      description: 'Rear-ended at a light',
    });
    expect(claimChange.statusCode, claimChange.body).toBe(200);
    expect((await as.delete(`/api/claims/${claimId}/`)).statusCode).toBe(204);

    const entries = await logOf(agency);
    expect(only(entries, 'create', 'company', companyId).changes).toMatchObject({
      name: { before: null, after: 'Harel' },
    });
    expect(only(entries, 'update', 'company', companyId).changes).toEqual({
      name: { before: 'Harel', after: 'Harel Insurance' },
    });
    only(entries, 'delete', 'company', spare);
    expect(only(entries, 'create', 'policy', policyId).changes).toMatchObject({
      policy_number: { before: null, after: 'P-1' },
    });
    expect(only(entries, 'update', 'policy', policyId).changes).toMatchObject({
      notes: { before: '', after: 'Garage kept' },
    });
    only(entries, 'delete', 'policy', doomed);
    expect(only(entries, 'create', 'payment', instalment.id).changes).toMatchObject({
      amount_paid: { before: '0.00', after: '100.00' },
      payment_method: { before: null, after: 'cash' },
    });
    expect(only(entries, 'delete', 'payment', instalment.id).changes).toMatchObject({
      amount_paid: { before: '100.00', after: '0.00' },
    });
    only(entries, 'create', 'lead', leadId);
    expect(only(entries, 'update', 'lead', leadId).changes).toMatchObject({
      status: { before: 'new', after: 'contacted' },
    });
    only(entries, 'delete', 'lead', leadId);
    only(entries, 'create', 'claim', claimId);
    expect(only(entries, 'update', 'claim', claimId).changes).toMatchObject({
      description: { after: 'Rear-ended at a light' },
    });
    only(entries, 'delete', 'claim', claimId);
  });

  it("records a broker's subscription change, not what the schedule did", async () => {
    const agency = await signedInAgency(t.app);
    const upgraded = await agency.as.post('/api/billing/subscriptions/upgrade/', {
      plan_id: plans.professional?.id,
      billing_cycle: 'monthly',
    });
    expect(upgraded.statusCode, upgraded.body).toBe(200);
    const entries = await logOf(agency, '&entity=subscription');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'subscription_upgraded', user_id: agency.user.id });
    expect(entries[0]?.changes).toMatchObject({ status: { before: 'trial', after: 'active' } });
  });

  it('records an import as one row: who started it, the file and what it did, not a row per record', async () => {
    const agency = await signedInAgency(t.app);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/imports/?kind=customers&file_name=book.csv',
      headers: { ...bearer(agency.access), 'content-type': 'text/csv' },
      payload: Buffer.from('First name,Last name\r\nDana,Levi\r\nAvi,Cohen\r\n'),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const { id } = uploaded.json();
    const started = await agency.as.post(`/api/imports/${id}/start/`);
    expect(started.statusCode, started.body).toBe(202);
    for (let attempt = 0; attempt < 200; attempt++) {
      const { status } = (await agency.as.get(`/api/imports/${id}/`)).json();
      if (status === 'done' || status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const entries = await logOf(agency, '&entity=customer');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: 'import',
      entity_id: id,
      user_id: agency.user.id,
      actor_email: agency.email,
      reason: 'book.csv: 2 created, 0 updated, 0 skipped.',
    });
  });

  it('filters by action, entity, user and day, newest first, a page at a time', async () => {
    const agency = await signedInAgency(t.app);
    for (const first_name of ['One', 'Two', 'Three']) {
      await created(await agency.as.post('/api/customers/', { first_name, last_name: 'Levi' }));
    }
    const colleague = await colleagueOf(agency);
    await created(await colleague.as.post('/api/customers/', { first_name: 'Four', last_name: 'Levi' }));

    const page = (await agency.as.get('/api/user/profile/audit/?entity=customer&page_size=2')).json();
    expect(page.count).toBe(4);
    expect(page.next).toContain('page=2');
    expect(page.results.map((entry: AuditEntry) => entry.changes?.first_name?.after)).toEqual([
      'Four',
      'Three',
    ]);

    const byOwner = await logOf(agency, `&user=${agency.user.id}&action=create`);
    expect(byOwner.map((entry) => entry.changes?.first_name?.after)).toEqual(['Three', 'Two', 'One']);
    expect(await logOf(agency, '&date_from=2001-01-01&date_to=2001-12-31')).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await logOf(agency, `&entity=customer&date_from=${today}`)).length).toBeGreaterThanOrEqual(1);
    expect((await agency.as.get('/api/user/profile/audit/?date_from=yesterday')).statusCode).toBe(400);
  });

  it('is for owners and managers: an agent or viewer of the agency gets 403', async () => {
    const agency = await signedInAgency(t.app);
    const colleague = await colleagueOf(agency);
    expect((await colleague.as.get('/api/user/profile/audit/')).statusCode).toBe(403);
    expect((await colleague.as.get('/api/user/profile/audit/users/')).statusCode).toBe(403);
    expect((await colleague.as.get('/api/user/profile/')).json().role).toBe('agent');
    expect((await agency.as.get('/api/user/profile/')).json().role).toBe('owner');
    const people = (await agency.as.get('/api/user/profile/audit/users/')).json().results;
    expect(people.map((person: { email: string }) => person.email).sort()).toEqual(
      [agency.email, colleague.email].sort(),
    );
  });

  it("is never the demo user's, whose visitors' addresses and user agents are not kept", async () => {
    const visit = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/login/demo/',
      remoteAddress: '10.9.8.7',
      headers: { 'user-agent': 'Demo visitor browser/2.0' },
    });
    expect(visit.statusCode, visit.body).toBe(200);
    const demo = apiAs(t.app, visit.json().access_token);
    const userId: string = visit.json().user.id;
    // The demo's shared account owns its agency, and still reads no log.
    expect(visit.json().user.role).toBe('owner');
    expect((await demo.get('/api/user/profile/audit/')).statusCode).toBe(403);
    expect((await demo.get('/api/user/profile/audit/users/')).statusCode).toBe(403);

    const signedOut = await t.app.inject({
      method: 'POST',
      url: '/api/token/revoke/',
      payload: { refresh: visit.json().refresh_token },
      remoteAddress: '10.9.8.7',
      headers: { 'user-agent': 'Demo visitor browser/2.0' },
    });
    expect(signedOut.statusCode).toBe(200);
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.userId, userId));
    expect(rows.map((row) => row.action).sort()).toEqual(['sign_in', 'sign_out']);
    for (const row of rows) expect(row).toMatchObject({ ipAddress: null, userAgent: null });
  });

  it("shows what platform staff did to the agency and why, but not the staff's address or browser", async () => {
    const agency = await signedInAgency(t.app);
    const colleague = await colleagueOf(agency);
    const staffEmail = `staff-${randomInt(1e9)}@coverdesk.test`;
    await createAdmin(t.database.db, {
      email: staffEmail,
      password: 'night shift operator',
      firstName: 'Platform',
      lastName: 'Staff',
    });
    const staff = (await signIn(staffEmail, 'night shift operator')).json().access;
    const ended = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${(await colleague.as.get('/api/user/profile/')).json().id}/sign-out/`,
      payload: { reason: 'Lost laptop' },
      headers: { ...bearer(staff), 'user-agent': 'Staff browser/3.0' },
      remoteAddress: '10.200.0.1',
    });
    expect(ended.statusCode, ended.body).toBe(200);

    const entries = await logOf(agency);
    expect(only(entries, 'sessions_ended', 'user')).toMatchObject({
      actor_email: staffEmail,
      reason: 'Lost laptop',
      ip_address: null,
      user_agent: null,
    });
    // The agency's own people keep theirs.
    const ownSignIn = entries.find(
      (entry) => entry.action === 'sign_in' && entry.actor_email === colleague.email,
    );
    expect(ownSignIn?.ip_address).toMatch(/^10\./);
    expect(ownSignIn?.user_agent).toBe('Audit test browser/1.0');
  });

  it("never shows an agency another agency's rows", async () => {
    const ours = await signedInAgency(t.app);
    const theirs = await signedInAgency(t.app);
    await created(await theirs.as.post('/api/customers/', { first_name: 'Secret', last_name: 'Client' }));
    expect(await logOf(ours, '&entity=customer')).toEqual([]);
    expect(await logOf(ours, `&user=${theirs.user.id}`)).toEqual([]);
    // Row-level security holds even for a query that forgets the agency.
    const seen = await withTenant(t.database.db, ours.user.tenant_id, (tx) =>
      tx.select().from(auditLog).where(eq(auditLog.tenantId, theirs.user.tenant_id)),
    );
    expect(seen).toEqual([]);
    await expect(
      withTenant(t.database.db, ours.user.tenant_id, (tx) =>
        tx.insert(auditLog).values({ tenantId: theirs.user.tenant_id, action: 'delete' }),
      ),
    ).rejects.toThrow();
  });

  it('cannot be changed or deleted, neither by the app role nor by the role the app connects as', async () => {
    const agency = await signedInAgency(t.app);
    await created(await agency.as.post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' }));
    const tenantId = agency.user.tenant_id;
    const attempts = [
      sql`update audit_log set action = 'nothing' where tenant_id = ${tenantId}`,
      sql`delete from audit_log where tenant_id = ${tenantId}`,
    ];
    for (const statement of attempts) {
      expect(await refusal(withTenant(t.database.db, tenantId, (tx) => tx.execute(statement)))).toMatch(
        /permission denied/,
      );
    }
    for (const statement of attempts) {
      expect(await refusal(t.database.db.transaction((tx) => tx.execute(statement)))).toMatch(/append-only/);
    }
    expect((await logOf(agency, '&entity=customer')).map((entry) => entry.action)).toEqual(['create']);
  });
});

describe('user activity for admins', () => {
  it("shows every agency's log with the agency's name, filtered by agency, user, action and day", async () => {
    await createAdmin(t.database.db, {
      email: 'audit-admin@coverdesk.test',
      password: 'night shift operator',
      firstName: 'Platform',
      lastName: 'Admin',
    });
    const admin = apiAs(
      t.app,
      (await signIn('audit-admin@coverdesk.test', 'night shift operator')).json().access,
    );
    const first = await registerAgency(t.app, { company_name: 'Golan Brokers' });
    const second = await signedInAgency(t.app, { company_name: 'Katz Cover' });
    expect((await signIn(first.email, 'wrong password')).statusCode).toBe(401);
    await created(await second.as.post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' }));

    const byAgency = (await admin.get(`/api/admin/user-activity/?tenant=${first.user.tenant_id}`)).json();
    expect(byAgency.results).toHaveLength(1);
    expect(byAgency.results[0]).toMatchObject({
      action: 'sign_in_failed',
      tenant_id: first.user.tenant_id,
      tenant_name: 'Golan Brokers',
      actor_email: first.email,
    });

    const byEmail = (
      await admin.get(`/api/admin/user-activity/?user=${second.email.slice(0, 12)}&action=create`)
    ).json();
    expect(byEmail.results.map((entry: AdminAuditEntry) => [entry.tenant_name, entry.entity])).toEqual([
      ['Katz Cover', 'customer'],
    ]);
    const byId = (await admin.get(`/api/admin/user-activity/?user=${second.user.id}`)).json();
    expect(byId.count).toBe(1);
    const past = (await admin.get('/api/admin/user-activity/?date_to=2001-01-01')).json();
    expect(past.count).toBe(0);

    const agencies = (await admin.get('/api/admin/user-activity/agencies/?search=golan br')).json();
    expect(agencies.results).toEqual([{ id: first.user.tenant_id, name: 'Golan Brokers' }]);
  });

  it('is for admins only', async () => {
    const broker = await registerAgency(t.app);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/user-activity/',
      headers: bearer(broker.access),
    });
    expect(response.statusCode).toBe(403);
  });
});
