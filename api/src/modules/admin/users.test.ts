import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, waitFor } from '../../../test/smtp-server.js';
import { apiAs, createTestApp, PASSWORD, registerAgency, type TestApp } from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { isAdmin, promoteAdmins } from '../accounts/queries.js';
import { users } from '../accounts/tables.js';
import { auditLog } from '../audit/tables.js';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
let ops: Awaited<ReturnType<typeof registerAgency>>;
let admin: ReturnType<typeof apiAs>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    adminEmails: ['ops@coverdesk.test'],
    smtpUrl: smtp.url,
    mailFrom: 'Coverdesk <no-reply@coverdesk.test>',
  });
  ops = await registerAgency(t.app, { email: 'ops@coverdesk.test' });
  admin = apiAs(t.app, ops.access);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const UNKNOWN = '01890000-0000-7000-8000-000000000000';

const signIn = (email: string, password = PASSWORD) =>
  t.app.inject({ method: 'POST', url: '/api/token/', payload: { email, password } });
const refresh = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh: token } });

/** The audit lines about what admins did to one user (not the user's own sign-ins), oldest first. */
const auditAbout = async (tenantId: string, userId: string) =>
  (
    await withTenant(t.database.db, tenantId, (tx) =>
      tx.select().from(auditLog).orderBy(auditLog.occurredAt, auditLog.id),
    )
  ).filter((row) => row.entity === 'user' && row.entityId === userId && !row.action.startsWith('sign_'));

describe('the list of users', () => {
  it('finds people by email, name or agency, with their flags', async () => {
    const broker = await registerAgency(t.app, {
      first_name: 'Yael',
      last_name: 'Brightwater',
      company_name: 'Brightwater Cover',
    });
    for (const search of [broker.email, 'yael brightwater', 'brightwater cover']) {
      const response = await admin.get(`/api/admin/users/?search=${encodeURIComponent(search)}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        count: 1,
        results: [
          {
            id: broker.user.id,
            email: broker.email,
            agency_name: 'Brightwater Cover',
            is_admin: false,
            is_owner: true,
            disabled_at: null,
          },
        ],
      });
      expect(response.json().results[0].last_login).not.toBeNull();
    }
    const admins = (await admin.get('/api/admin/users/?state=admin')).json();
    expect(admins.results.map((user: { email: string }) => user.email)).toContain('ops@coverdesk.test');
    expect(admins.results.every((user: { is_admin: boolean }) => user.is_admin)).toBe(true);
    expect((await admin.get('/api/admin/users/?state=sleepy')).statusCode).toBe(400);
  });
});

describe('disabling and enabling an account', () => {
  it('ends its sessions at once, refuses its sign-in and refresh, and lets it back in once enabled', async () => {
    const broker = await registerAgency(t.app);
    const disabled = await admin.post(`/api/admin/users/${broker.user.id}/disable/`, {
      reason: 'Left the agency',
    });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().disabled_at).not.toBeNull();

    expect((await apiAs(t.app, broker.access).get('/api/user/profile/')).statusCode).toBe(401);
    expect((await refresh(broker.refresh)).statusCode).toBe(401);
    const refused = await signIn(broker.email);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/^This account has been disabled\./);
    // A wrong password says nothing about the account.
    expect((await signIn(broker.email, 'not the password at all')).statusCode).toBe(401);

    const twice = await admin.post(`/api/admin/users/${broker.user.id}/disable/`, { reason: 'Again' });
    expect(twice.statusCode).toBe(409);

    const enabled = await admin.post(`/api/admin/users/${broker.user.id}/enable/`, { reason: 'Came back' });
    expect(enabled.json().disabled_at).toBeNull();
    expect((await signIn(broker.email)).statusCode).toBe(200);

    const lines = await auditAbout(broker.user.tenant_id, broker.user.id);
    expect(lines.map((line) => [line.action, line.reason, line.actorEmail])).toEqual([
      ['user_disabled', 'Left the agency', 'ops@coverdesk.test'],
      ['user_enabled', 'Came back', 'ops@coverdesk.test'],
    ]);
    expect(lines[0]?.changes).toMatchObject({ sessions: { before: 1, after: 0 } });
  });

  it('refuses an admin disabling their own account, and answers 404 and 400', async () => {
    const self = await admin.post(`/api/admin/users/${ops.user.id}/disable/`, { reason: 'Oops' });
    expect(self.statusCode).toBe(409);
    expect(self.json().detail).toBe('You cannot disable your own account.');
    expect((await admin.post(`/api/admin/users/${UNKNOWN}/disable/`, { reason: 'x' })).statusCode).toBe(404);
    expect((await admin.post(`/api/admin/users/${ops.user.id}/disable/`, {})).json()).toEqual({
      reason: ['This field is required.'],
    });
    expect((await admin.post('/api/admin/users/nope/enable/', { reason: 'x' })).statusCode).toBe(400);
  });
});

describe('disabling an admin', () => {
  it('keeps one admin who can sign in when the last two disable each other at the same moment', async () => {
    const solo = await createTestApp();
    try {
      const first = await registerAgency(solo.app);
      const second = await registerAgency(solo.app);
      await promoteAdmins(solo.database.db, [first.email, second.email]);
      const answers = await Promise.all([
        apiAs(solo.app, first.access).post(`/api/admin/users/${second.user.id}/disable/`, {
          reason: 'Mine',
        }),
        apiAs(solo.app, second.access).post(`/api/admin/users/${first.user.id}/disable/`, {
          reason: 'No, mine',
        }),
      ]);
      const codes = answers.map((answer) => answer.statusCode).sort();
      expect(codes[0]).toBe(200);
      // The other was refused: its session ended if it came after, or as the last admin if it raced.
      expect([401, 409]).toContain(codes[1]);
      const refused = answers.find((answer) => answer.statusCode === 409);
      if (refused) {
        expect(refused.json().detail).toBe(
          'This is the last platform admin who can sign in: grant another one first.',
        );
      }
      const left = await Promise.all([first, second].map((one) => isAdmin(solo.database.db, one.user.id)));
      expect(left.filter(Boolean)).toHaveLength(1);
    } finally {
      await solo.close();
    }
  });

  it("refuses the admin routes to a disabled admin's access token that has not expired yet", async () => {
    const other = await registerAgency(t.app);
    await promoteAdmins(t.database.db, [other.email]);
    const otherAdmin = apiAs(t.app, other.access);
    expect((await otherAdmin.get('/api/admin/users/')).statusCode).toBe(200);
    await t.database.db.update(users).set({ disabledAt: sql`now()` }).where(eq(users.id, other.user.id));
    expect((await otherAdmin.get('/api/admin/users/')).statusCode).toBe(403);
    expect(await isAdmin(t.database.db, other.user.id)).toBe(false);
  });
});

describe('signing a user out everywhere', () => {
  it('ends every session, which can no longer call or refresh, and can sign in again', async () => {
    const broker = await registerAgency(t.app);
    const second = (await signIn(broker.email)).json();
    const response = await admin.post(`/api/admin/users/${broker.user.id}/sign-out/`, {
      reason: 'Lost phone',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().detail).toBe(`${broker.email} is signed out everywhere (2 sessions ended).`);
    for (const access of [broker.access, second.access]) {
      expect((await apiAs(t.app, access).get('/api/user/profile/')).statusCode).toBe(401);
    }
    expect((await refresh(second.refresh)).statusCode).toBe(401);
    expect((await signIn(broker.email)).statusCode).toBe(200);
    const [line] = await auditAbout(broker.user.tenant_id, broker.user.id);
    expect(line).toMatchObject({ action: 'sessions_ended', reason: 'Lost phone' });
  });
});

describe('sending a password reset', () => {
  it('emails the user a reset link and records it', async () => {
    const broker = await registerAgency(t.app);
    const response = await admin.post(`/api/admin/users/${broker.user.id}/password-reset/`, {
      reason: 'Asked by phone',
    });
    expect(response.statusCode).toBe(200);
    const mail = await waitFor(
      () => smtp.received.find((m) => m.to.includes(broker.email)),
      'the reset email',
    );
    expect(mail.raw).toContain('Subject: Reset your Coverdesk password');
    expect(mail.raw.replace(/=\r?\n/g, '')).toMatch(/http:\/\/coverdesk\.test\/reset-password\/[\w-]+/);
    const [line] = await auditAbout(broker.user.tenant_id, broker.user.id);
    expect(line).toMatchObject({ action: 'password_reset_sent', reason: 'Asked by phone' });
  });
});

describe('platform admins', () => {
  it('grants and revokes admin, recorded with the reason, and the new admin opens the portal', async () => {
    const colleague = await registerAgency(t.app);
    const granted = await admin.post('/api/admin/super-admins/grant/', {
      email: colleague.email.toUpperCase(),
      reason: 'Joined the support team',
    });
    expect(granted.statusCode).toBe(200);
    expect(granted.json().is_admin).toBe(true);
    expect((await apiAs(t.app, colleague.access).get('/api/admin/users/')).statusCode).toBe(200);

    const list = (await admin.get('/api/admin/super-admins/')).json().results;
    expect(list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ email: 'ops@coverdesk.test', granted_by_configuration: true }),
        expect.objectContaining({ email: colleague.email, granted_by_configuration: false }),
      ]),
    );

    const revoked = await admin.post(`/api/admin/super-admins/${colleague.user.id}/revoke/`, {
      reason: 'Left the support team',
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().is_admin).toBe(false);
    expect((await apiAs(t.app, colleague.access).get('/api/admin/users/')).statusCode).toBe(403);

    const lines = await auditAbout(colleague.user.tenant_id, colleague.user.id);
    expect(lines.map((line) => [line.action, line.reason])).toEqual([
      ['admin_granted', 'Joined the support team'],
      ['admin_revoked', 'Left the support team'],
    ]);
    const unknown = await admin.post('/api/admin/super-admins/grant/', {
      email: 'nobody@example.com',
      reason: 'x',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('never revokes oneself, an admin named by ADMIN_EMAILS, or the last admin who can sign in', async () => {
    const colleague = await registerAgency(t.app);
    await admin.post('/api/admin/super-admins/grant/', { email: colleague.email, reason: 'Support' });
    const asColleague = apiAs(t.app, colleague.access);

    const self = await asColleague.post(`/api/admin/super-admins/${colleague.user.id}/revoke/`, {
      reason: 'Stepping down',
    });
    expect(self.statusCode).toBe(409);
    expect(self.json().detail).toBe('You cannot revoke your own admin rights: ask another admin.');

    const configured = await asColleague.post(`/api/admin/super-admins/${ops.user.id}/revoke/`, {
      reason: 'Handover',
    });
    expect(configured.statusCode).toBe(409);
    expect(configured.json().detail).toMatch(/ADMIN_EMAILS/);
  });

  it('keeps one admin when the last two revoke each other at the same moment', async () => {
    const solo = await createTestApp();
    try {
      const first = await registerAgency(solo.app);
      const second = await registerAgency(solo.app);
      await promoteAdmins(solo.database.db, [first.email, second.email]);
      const answers = await Promise.all([
        apiAs(solo.app, first.access).post(`/api/admin/super-admins/${second.user.id}/revoke/`, {
          reason: 'Mine',
        }),
        apiAs(solo.app, second.access).post(`/api/admin/super-admins/${first.user.id}/revoke/`, {
          reason: 'No, mine',
        }),
      ]);
      const codes = answers.map((answer) => answer.statusCode).sort();
      expect(codes[0]).toBe(200);
      // The other was refused: by the gate if it came after, or as the last admin if it raced.
      expect([403, 409]).toContain(codes[1]);
      const refused = answers.find((answer) => answer.statusCode === 409);
      if (refused) {
        expect(refused.json().detail).toBe(
          'This is the last platform admin who can sign in: grant another one first.',
        );
      }
      const left = await Promise.all([first, second].map((one) => isAdmin(solo.database.db, one.user.id)));
      expect(left.filter(Boolean)).toHaveLength(1);
    } finally {
      await solo.close();
    }
  });
});
