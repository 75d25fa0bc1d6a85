import { randomBytes } from 'node:crypto';
import { type AddressInfo, createServer } from 'node:net';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, waitFor } from '../../../test/smtp-server.js';
import { apiAs, bearer, createTestApp, registerAgency, type TestApp } from '../../../test/test-app.js';
import { auditLog } from '../audit/tables.js';
import { plans } from '../billing/tables.js';
import { emailOutbox } from '../mail/tables.js';
import { platformSettings } from '../platform-settings/tables.js';

const ADMIN = 'ops@coverdesk.test';
const SMTP_PASSWORD = 'correct horse battery staple';
const PADDLE_KEY = 'pdl_sdbx_apikey_01abcdefghijklmnop';
const PADDLE_SECRET = 'pdl_ntfset_01secretvaluewxyz';

let t: TestApp;
let admin: ReturnType<typeof apiAs>;
let adminEmail: string;
beforeAll(async () => {
  t = await createTestApp({ adminEmails: [ADMIN], settingsEncryptionKey: randomBytes(32) });
  const session = await registerAgency(t.app, { email: ADMIN });
  admin = apiAs(t.app, session.access);
  adminEmail = session.email;
});
afterAll(() => t.close());

const latestAudit = async (entityId: string) => {
  const [row] = await t.database.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.entityId, entityId))
    .orderBy(desc(auditLog.occurredAt))
    .limit(1);
  return row;
};

const OPEN = { signups_open: true, demo_enabled: true, default_trial_days: null };

describe('platform settings', () => {
  it('closes sign-ups: registration answers 403 and the public settings say so, until reopened', async () => {
    const closed = await admin.put('/api/admin/settings/', { ...OPEN, signups_open: false });
    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toEqual({ ...OPEN, signups_open: false });

    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/register/',
      payload: {
        email: 'late@example.com',
        password: 'quiet harbour lighthouse',
        first_name: 'Lia',
        last_name: 'Late',
        company_name: 'Late Insurance',
      },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/Sign-ups are closed/);
    const visible = await t.app.inject({ method: 'GET', url: '/api/platform/settings/' });
    expect(visible.json()).toEqual({ signups_open: false, demo_available: true });

    const audit = await latestAudit('general');
    expect(audit).toMatchObject({
      tenantId: null,
      actorEmail: ADMIN,
      action: 'platform_settings_changed',
      entity: 'platform_settings',
      changes: { signups_open: { before: true, after: false } },
    });

    await admin.put('/api/admin/settings/', OPEN);
    await registerAgency(t.app);
  });

  it('switches the demo off: the demo login answers 403 and the public pages are told', async () => {
    await admin.put('/api/admin/settings/', { ...OPEN, demo_enabled: false });
    const demo = await t.app.inject({ method: 'POST', url: '/api/accounts/login/demo/' });
    expect(demo.statusCode).toBe(403);
    expect(demo.json().error).toMatch(/demo is switched off/);
    const visible = await t.app.inject({ method: 'GET', url: '/api/platform/settings/' });
    expect(visible.json()).toEqual({ signups_open: true, demo_available: false });
    await admin.put('/api/admin/settings/', OPEN);
  });

  it("gives a new agency the default trial instead of the plan's", async () => {
    await admin.put('/api/admin/settings/', { ...OPEN, default_trial_days: 30 });
    const agency = await registerAgency(t.app);
    const status = await t.app.inject({
      method: 'GET',
      url: '/api/billing/subscriptions/status/',
      headers: bearer(agency.access),
    });
    expect(status.json()).toMatchObject({ status: 'trial', days_until_trial_expires: 30 });
    await admin.put('/api/admin/settings/', OPEN);
    const later = await registerAgency(t.app);
    const plain = await t.app.inject({
      method: 'GET',
      url: '/api/billing/subscriptions/status/',
      headers: bearer(later.access),
    });
    expect(plain.json()).toMatchObject({ days_until_trial_expires: 14 });
  });

  it('refuses settings that make no sense, field by field', async () => {
    const response = await admin.put('/api/admin/settings/', { ...OPEN, default_trial_days: 0 });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ default_trial_days: ['A trial lasts at least 1 day.'] });
  });
});

describe('email setup', () => {
  it('keeps the password sealed, never returns it, and the app sends through the saved server', async () => {
    const smtp = await startSmtpServer({ credentials: { user: 'coverdesk', pass: SMTP_PASSWORD } });
    try {
      const port = Number(new URL(smtp.url).port);
      const saved = await admin.put('/api/admin/email-setup/', {
        host: '127.0.0.1',
        port,
        security: 'none',
        username: 'coverdesk',
        password: SMTP_PASSWORD,
        from_email: 'hello@coverdesk.test',
        from_name: 'Coverdesk Support',
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.body).not.toContain(SMTP_PASSWORD);
      expect(saved.json()).toMatchObject({
        saved: true,
        source: 'saved',
        password: { set: true, last4: null },
      });

      const [row] = await t.database.db
        .select()
        .from(platformSettings)
        .where(eq(platformSettings.key, 'email'));
      expect(JSON.stringify(row?.value)).not.toContain(SMTP_PASSWORD);
      expect(JSON.stringify(row?.value)).not.toContain('battery');
      const read = await admin.get('/api/admin/email-setup/');
      expect(read.body).not.toContain(SMTP_PASSWORD);
      expect(read.json()).toMatchObject({
        host: '127.0.0.1',
        port,
        username: 'coverdesk',
        password: { set: true },
      });

      // The app's own mail (a password reset) goes out through the saved server, signed in with the password.
      await t.app.inject({ method: 'POST', url: '/api/accounts/password-reset/', payload: { email: ADMIN } });
      const reset = await waitFor(
        () => smtp.received.find((mail) => mail.to.includes(adminEmail)),
        'reset email',
      );
      expect(reset.raw).toContain('From: Coverdesk Support <hello@coverdesk.test>');

      const test = await admin.post('/api/admin/email-setup/test/', { to: 'someone@example.com' });
      expect(test.statusCode).toBe(200);
      expect(test.json()).toMatchObject({ delivered: true, to: 'someone@example.com', code: 250 });
      expect(test.json().response).toMatch(/^250 /);

      // Saved again without a password: the sealed one is kept, and the audit log says only that it was set.
      const again = await admin.put('/api/admin/email-setup/', {
        host: '127.0.0.1',
        port,
        security: 'none',
        username: 'coverdesk',
        from_email: 'hello@coverdesk.test',
        from_name: 'Coverdesk',
      });
      expect(again.json().password).toEqual({ set: true, last4: null });
      const toAdmin = await admin.post('/api/admin/email-setup/test/', {});
      expect(toAdmin.json()).toMatchObject({ delivered: true, to: adminEmail });
      const audit = await latestAudit('email');
      expect(audit?.changes).toEqual({ from_name: { before: 'Coverdesk Support', after: 'Coverdesk' } });
      const first = await t.database.db.select().from(auditLog).where(eq(auditLog.entityId, 'email'));
      expect(JSON.stringify(first)).not.toContain(SMTP_PASSWORD);
      expect(first.some((entry) => entry.changes?.password?.after === 'changed')).toBe(true);

      // The saved password goes to no other server: changing where it is sent needs it typed again.
      const server = { host: '127.0.0.1', port, security: 'none', username: 'coverdesk' };
      for (const moved of [
        { host: 'mail.elsewhere.example' },
        { port: port + 1 },
        { security: 'tls' },
        { username: 'someone-else' },
      ]) {
        const redirected = await admin.put('/api/admin/email-setup/', {
          ...server,
          ...moved,
          from_email: 'hello@coverdesk.test',
          from_name: 'Coverdesk',
        });
        expect(redirected.statusCode, JSON.stringify(moved)).toBe(400);
        expect(redirected.json()).toEqual({ password: ['Enter the password again: the server changed.'] });
      }
      expect((await admin.get('/api/admin/email-setup/')).json()).toMatchObject(server);
    } finally {
      await smtp.close();
    }
  });

  it('tells a refused sign-in in a sentence, with the reply code the mail server gave', async () => {
    const smtp = await startSmtpServer({
      credentials: { user: 'coverdesk', pass: 'another password entirely' },
    });
    try {
      await admin.put('/api/admin/email-setup/', {
        host: '127.0.0.1',
        port: Number(new URL(smtp.url).port),
        security: 'none',
        username: 'coverdesk',
        password: 'the wrong one',
        from_email: 'hello@coverdesk.test',
        from_name: '',
      });
      const test = await admin.post('/api/admin/email-setup/test/', {});
      expect(test.json()).toMatchObject({
        delivered: false,
        code: 535,
        response: 'The mail server refused the user name or password.',
      });
    } finally {
      await smtp.close();
    }
  });

  it('says only that it could not connect to a closed port: no address, port or error code', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    await admin.put('/api/admin/email-setup/', {
      host: '127.0.0.1',
      port,
      security: 'none',
      username: '',
      from_email: 'hello@coverdesk.test',
      from_name: '',
    });
    const test = await admin.post('/api/admin/email-setup/test/', {});
    expect(test.json()).toEqual({
      delivered: false,
      to: adminEmail,
      code: null,
      response: 'Could not connect to the mail server.',
    });
    expect(test.body).not.toContain('127.0.0.1');
    expect(test.body).not.toContain(String(port));
    expect(test.body).not.toMatch(/ECONN|ESOCKET/);

    // An account email that fails to the same server is kept in the outbox admins read, as plainly.
    await t.app.inject({
      method: 'POST',
      url: '/api/accounts/password-reset/',
      payload: { email: adminEmail },
    });
    const kept = await waitFor(async () => {
      const [row] = await t.database.db
        .select({ status: emailOutbox.status, error: emailOutbox.error })
        .from(emailOutbox)
        .where(eq(emailOutbox.recipient, adminEmail))
        .orderBy(desc(emailOutbox.createdAt))
        .limit(1);
      return row;
    }, 'the reset email in the outbox');
    expect(kept).toEqual({ status: 'failed', error: 'The mail server could not be reached.' });
  });

  it('tells a server that does not speak TLS, when TLS was chosen, in a sentence', async () => {
    const smtp = await startSmtpServer();
    try {
      await admin.put('/api/admin/email-setup/', {
        host: '127.0.0.1',
        port: Number(new URL(smtp.url).port),
        security: 'tls',
        username: '',
        from_email: 'hello@coverdesk.test',
        from_name: '',
      });
      const test = await admin.post('/api/admin/email-setup/test/', {});
      expect(test.json()).toMatchObject({
        delivered: false,
        code: null,
        response: 'A secure connection to the mail server could not be made: check the security setting.',
      });
    } finally {
      await smtp.close();
    }
  });

  it('forgets the saved server on request, so SMTP_URL (here: none) applies again', async () => {
    const forgotten = await admin.delete('/api/admin/email-setup/');
    expect(forgotten.statusCode).toBe(200);
    expect(forgotten.json()).toMatchObject({ saved: false, source: 'none', password: { set: false } });
    const test = await admin.post('/api/admin/email-setup/test/', {});
    expect(test.json()).toMatchObject({
      delivered: false,
      response: 'Email is not set up: save the mail server first.',
    });
    expect((await latestAudit('email'))?.changes).toEqual({ saved: { before: true, after: false } });
  });

  it('refuses text the database cannot store, naming the field', async () => {
    const server = {
      host: 'smtp.example.com',
      port: 587,
      security: 'starttls',
      username: 'coverdesk',
      password: SMTP_PASSWORD,
      from_email: 'hello@coverdesk.test',
      from_name: 'Coverdesk',
    };
    for (const field of ['username', 'from_name']) {
      const response = await admin.put('/api/admin/email-setup/', { ...server, [field]: 'Cover\ud800desk' });
      expect(response.statusCode, field).toBe(400);
      expect(response.json()).toEqual({ [field]: ['This text contains a character that cannot be saved.'] });
    }
  });

  it('refuses bad input with a message per field', async () => {
    const response = await admin.put('/api/admin/email-setup/', {
      host: 'smtp example',
      port: 70000,
      security: 'ssl',
      username: '',
      from_email: 'not-an-address',
      from_name: '',
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json()).sort()).toEqual(['from_email', 'host', 'port', 'security']);
  });
});

describe('Paddle setup', () => {
  const body = {
    environment: 'sandbox',
    api_key: PADDLE_KEY,
    client_token: 'test_clienttoken123',
    webhook_secret: PADDLE_SECRET,
    prices: { professional: { monthly: 'pri_01promonth', yearly: 'pri_01proyear' } },
  };

  it('never returns the API key or webhook secret, and billing and the page policy follow at once', async () => {
    const saved = await admin.put('/api/admin/paddle-setup/', body);
    expect(saved.statusCode).toBe(200);
    for (const response of [saved, await admin.get('/api/admin/paddle-setup/')]) {
      expect(response.body).not.toContain(PADDLE_KEY);
      expect(response.body).not.toContain(PADDLE_SECRET);
      expect(response.json()).toMatchObject({
        source: 'saved',
        api_key: { set: true, last4: 'mnop' },
        webhook_secret: { set: true, last4: 'wxyz' },
        client_token: 'test_clienttoken123',
      });
      expect(response.json().prices).toContainEqual({
        plan: 'professional',
        display_name: 'Professional',
        monthly: 'pri_01promonth',
        yearly: 'pri_01proyear',
      });
    }
    const [row] = await t.database.db
      .select()
      .from(platformSettings)
      .where(eq(platformSettings.key, 'paddle'));
    expect(JSON.stringify(row?.value)).not.toContain(PADDLE_KEY);
    expect(JSON.stringify(row?.value)).not.toContain(PADDLE_SECRET);
    const audit = await latestAudit('paddle');
    expect(JSON.stringify(audit)).not.toContain(PADDLE_KEY);
    expect(audit?.changes).toMatchObject({
      api_key: { before: null, after: 'changed' },
      webhook_secret: { before: null, after: 'changed' },
    });

    const [professional] = await t.database.db.select().from(plans).where(eq(plans.name, 'professional'));
    expect(professional?.paddlePriceMonthlyId).toBe('pri_01promonth');
    const catalogue = await t.app.inject({ method: 'GET', url: '/api/billing/plans/' });
    expect(catalogue.json().provider).toBe('paddle');
    expect(catalogue.headers['content-security-policy']).toContain('https://sandbox-buy.paddle.com');

    // Saved again without secrets: both kept; the move to production shows in the next page's policy.
    const production = await admin.put('/api/admin/paddle-setup/', {
      ...body,
      environment: 'production',
      api_key: undefined,
      webhook_secret: '',
    });
    expect(production.json()).toMatchObject({
      api_key: { set: true, last4: 'mnop' },
      environment: 'production',
    });
    const page = await t.app.inject({ method: 'GET', url: '/api/billing/plans/' });
    expect(page.headers['content-security-policy']).toContain('https://buy.paddle.com');
    expect(page.headers['content-security-policy']).not.toContain('sandbox-buy');
  });

  it('reports a Paddle it cannot reach, quickly', async () => {
    const started = Date.now();
    const check = await admin.post('/api/admin/paddle-setup/check/');
    expect(check.statusCode).toBe(200);
    expect(check.json().ok).toBe(false);
    expect(check.json().detail).toMatch(/^Could not reach Paddle: /);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses a client token the database cannot store', async () => {
    const response = await admin.put('/api/admin/paddle-setup/', {
      ...body,
      client_token: 'test_\ud800token',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      client_token: ['This text contains a character that cannot be saved.'],
    });
  });

  it('refuses a malformed price id and an unknown plan', async () => {
    const malformed = await admin.put('/api/admin/paddle-setup/', {
      ...body,
      prices: { professional: { monthly: 'price-1', yearly: '' } },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toHaveProperty(['prices.professional.monthly']);
    const unknown = await admin.put('/api/admin/paddle-setup/', {
      ...body,
      prices: { platinum: { monthly: '', yearly: '' } },
    });
    expect(unknown.json()).toEqual({ 'prices.platinum': ['There is no plan named platinum.'] });
  });
});

describe('without SETTINGS_ENCRYPTION_KEY', () => {
  let keyless: TestApp;
  let as: ReturnType<typeof apiAs>;
  beforeAll(async () => {
    keyless = await createTestApp({ adminEmails: [ADMIN], settingsEncryptionKey: undefined });
    as = apiAs(keyless.app, (await registerAgency(keyless.app, { email: ADMIN })).access);
  });
  afterAll(() => keyless.close());

  it('refuses to save a secret and says what the operator must set', async () => {
    expect((await as.get('/api/admin/email-setup/')).json()).toMatchObject({ encryption_key_set: false });
    const email = await as.put('/api/admin/email-setup/', {
      host: 'smtp.example.com',
      port: 587,
      security: 'starttls',
      username: 'mailer',
      password: SMTP_PASSWORD,
      from_email: 'hello@coverdesk.test',
      from_name: '',
    });
    expect(email.statusCode).toBe(409);
    expect(email.json().detail).toMatch(/SETTINGS_ENCRYPTION_KEY/);
    const paddle = await as.put('/api/admin/paddle-setup/', {
      environment: 'sandbox',
      api_key: PADDLE_KEY,
      client_token: 'test_clienttoken123',
      webhook_secret: PADDLE_SECRET,
      prices: {},
    });
    expect(paddle.statusCode).toBe(409);
    expect(paddle.json().detail).toMatch(/SETTINGS_ENCRYPTION_KEY/);
    expect(await keyless.database.db.select().from(platformSettings)).toEqual([]);
  });
});
