import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, waitFor } from '../../../test/smtp-server.js';
import { bearer, createTestApp, PASSWORD, registerAgency, type TestApp } from '../../../test/test-app.js';
import { emailOutbox } from '../mail/tables.js';
import { passwordResetTokens } from './tables.js';

/** Quoted-printable bodies wrap long lines with "=\r\n"; join them back to read the link. */
const resetLinkIn = (raw: string) =>
  raw.replace(/=\r?\n/g, '').match(/http:\/\/coverdesk\.test\/reset-password\/([A-Za-z0-9_-]+)/)?.[1];

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ smtpUrl: smtp.url, mailFrom: 'Coverdesk <no-reply@coverdesk.test>' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });

/** Asks for a reset link and reads its token from the email. */
async function requestResetLink(email: string) {
  await post('/api/accounts/password-reset/', { email });
  const mail = await waitFor(() => smtp.received.find((m) => m.to.includes(email)), 'the reset email');
  return resetLinkIn(mail.raw);
}

describe('password reset by email', () => {
  it('sends a link through SMTP that sets a new password once, and signs every session out', async () => {
    const agency = await registerAgency(t.app);
    const request = await post('/api/accounts/password-reset/', { email: agency.email.toUpperCase() });
    expect(request.statusCode).toBe(202);

    const mail = await waitFor(
      () => smtp.received.find((m) => m.to.includes(agency.email)),
      'the reset email',
    );
    expect(mail.raw).toContain('Subject: Reset your Coverdesk password');
    // A plain-text part and an HTML one, as the reminders have, the link a button in it.
    expect(mail.raw).toContain('Content-Type: text/plain');
    expect(mail.raw).toContain('Content-Type: text/html');
    expect(mail.raw.replace(/=\r?\n/g, '')).toContain('Choose a new password</a>');
    const token = resetLinkIn(mail.raw);
    expect(token).toBeDefined();

    const confirm = await post('/api/accounts/password-reset/confirm/', {
      token,
      new_password: 'a fresh start today',
    });
    expect(confirm.statusCode).toBe(200);

    expect(
      (await post('/api/token/', { email: agency.email, password: 'a fresh start today' })).statusCode,
    ).toBe(200);
    expect((await post('/api/token/', { email: agency.email, password: PASSWORD })).statusCode).toBe(401);
    expect((await post('/api/token/refresh/', { refresh: agency.refresh })).statusCode).toBe(401);

    const again = await post('/api/accounts/password-reset/confirm/', {
      token,
      new_password: 'yet another one here',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ token: ['This password reset link is invalid or has expired.'] });
  });

  it('answers an unknown email exactly like a known one and sends nothing', async () => {
    const before = smtp.received.length;
    const known = await registerAgency(t.app);
    const forUnknown = await post('/api/accounts/password-reset/', { email: 'nobody-at-all@example.com' });
    const forKnown = await post('/api/accounts/password-reset/', { email: known.email });
    expect(forUnknown.statusCode).toBe(202);
    expect(forUnknown.json()).toEqual(forKnown.json());
    await waitFor(() => smtp.received.find((m) => m.to.includes(known.email)), 'the reset email');
    expect(smtp.received.slice(before).some((m) => m.to.includes('nobody-at-all@example.com'))).toBe(false);
  });

  it('refuses an expired link and a weak new password', async () => {
    const agency = await registerAgency(t.app);
    await post('/api/accounts/password-reset/', { email: agency.email });
    const mail = await waitFor(
      () => smtp.received.find((m) => m.to.includes(agency.email)),
      'the reset email',
    );
    const token = resetLinkIn(mail.raw);

    const weak = await post('/api/accounts/password-reset/confirm/', { token, new_password: 'password123' });
    expect(weak.json()).toEqual({ new_password: ['This password is too common.'] });

    await t.database.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.userId, agency.user.id));
    const expired = await post('/api/accounts/password-reset/confirm/', {
      token,
      new_password: 'a fresh start today',
    });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ token: ['This password reset link is invalid or has expired.'] });
  });

  it('ends the access tokens of every sign-in at once', async () => {
    const agency = await registerAgency(t.app);
    const token = await requestResetLink(agency.email);
    const confirm = await post('/api/accounts/password-reset/confirm/', {
      token,
      new_password: 'a fresh start today',
    });
    expect(confirm.statusCode).toBe(200);
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/user/profile/',
      headers: bearer(agency.access),
    });
    expect(profile.statusCode).toBe(401);
  });

  it('stops a link working once the password is changed in the profile', async () => {
    const agency = await registerAgency(t.app);
    const token = await requestResetLink(agency.email);
    const change = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/profile/',
      headers: bearer(agency.access),
      payload: { current_password: PASSWORD, new_password: 'changed it myself' },
    });
    expect(change.statusCode).toBe(200);
    const confirm = await post('/api/accounts/password-reset/confirm/', {
      token,
      new_password: 'a fresh start today',
    });
    expect(confirm.statusCode).toBe(400);
    expect(confirm.json()).toEqual({ token: ['This password reset link is invalid or has expired.'] });
  });

  it('stops every other link working once one of them sets the password', async () => {
    const agency = await registerAgency(t.app);
    await post('/api/accounts/password-reset/', { email: agency.email });
    await post('/api/accounts/password-reset/', { email: agency.email });
    const mails = await waitFor(() => {
      const sent = smtp.received.filter((m) => m.to.includes(agency.email));
      return sent.length === 2 ? sent : undefined;
    }, 'two reset emails');
    const [first, second] = mails.map((mail) => resetLinkIn(mail.raw));
    expect(first).not.toBe(second);
    const used = await post('/api/accounts/password-reset/confirm/', {
      token: second,
      new_password: 'a fresh start today',
    });
    expect(used.statusCode).toBe(200);
    const stale = await post('/api/accounts/password-reset/confirm/', {
      token: first,
      new_password: 'someone else again',
    });
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toEqual({ token: ['This password reset link is invalid or has expired.'] });
  });

  it('validates the request', async () => {
    expect((await post('/api/accounts/password-reset/', { email: 'nope' })).json()).toEqual({
      email: ['Enter a valid email address.'],
    });
    expect((await post('/api/accounts/password-reset/confirm/', {})).json()).toEqual({
      token: ['This field is required.'],
      new_password: ['This field is required.'],
    });
  });
});

describe('without SMTP', () => {
  it('keeps the reset email in the outbox so the link can still be found', async () => {
    const local = await createTestApp();
    try {
      const agency = await registerAgency(local.app);
      await local.app.inject({
        method: 'POST',
        url: '/api/accounts/password-reset/',
        payload: { email: agency.email },
      });
      const kept = await waitForRow(local, agency.email);
      expect(kept.status).toBe('not_configured');
      expect(kept.textBody).toMatch(/http:\/\/coverdesk\.test\/reset-password\/[A-Za-z0-9_-]{43}/);

      // An invitation says no email went, for the owner to pass its link on.
      const invited = await local.app.inject({
        method: 'POST',
        url: '/api/team/invitations/',
        headers: bearer(agency.access),
        payload: { email: 'new.agent@example.com', role: 'agent' },
      });
      expect(invited.statusCode, invited.body).toBe(201);
      expect(invited.json()).toMatchObject({
        email_sent: false,
        invite_url: expect.stringContaining('/invite/'),
      });
      // And the pending list goes on saying so, for as long as the invitation is open.
      const listed = await local.app.inject({
        method: 'GET',
        url: '/api/team/invitations/',
        headers: bearer(agency.access),
      });
      expect(listed.json().results).toEqual([
        expect.objectContaining({ email: 'new.agent@example.com', email_sent: false }),
      ]);
    } finally {
      await local.close();
    }
  });
});

async function waitForRow(app: TestApp, recipient: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const [row] = await app.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.recipient, recipient));
    if (row) return row;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no outbox row');
}
