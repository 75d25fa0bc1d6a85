import { eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiAs,
  bearer,
  createTestApp,
  PASSWORD,
  registerAgency,
  type TestApp,
} from '../../../test/test-app.js';
import { auditLog } from '../audit/tables.js';
import { resetMfa } from './mfa.js';
import { mfaChallenges, refreshTokens, users } from './tables.js';

const ADMIN = 'ops-mfa@coverdesk.test';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ adminEmails: [ADMIN], adminMfaRequired: true });
});
afterAll(() => t.close());

/** The code an authenticator app shows for the secret, `steps` 30-second steps from now. */
const codeFor = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

const post = (url: string, payload: object, headers = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers });

/** An agency whose owner has turned two-step sign-in on; its secret and recovery codes. */
async function withTwoStep(overrides: Record<string, string> = {}) {
  const agency = await registerAgency(t.app, overrides);
  const as = apiAs(t.app, agency.access);
  const setup = await as.post('/api/user/mfa/totp/setup/');
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret } = setup.json();
  const confirmCode = codeFor(secret);
  const confirmed = await as.post('/api/user/mfa/totp/confirm/', { code: confirmCode });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { ...agency, as, secret, confirmCode, recovery: confirmed.json().recovery_codes as string[] };
}

/** What the audit log holds of an account, oldest first. */
async function auditedActions(userId: string) {
  const rows = await t.database.db
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(eq(auditLog.userId, userId))
    .orderBy(auditLog.occurredAt, auditLog.id);
  return rows.map((row) => row.action);
}

/** The password step: the token the second step takes. */
async function passwordStep(email: string) {
  const answer = await post('/api/token/', { email, password: PASSWORD });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json();
}

describe('turning two-step sign-in on', () => {
  it('shows a secret for an app and turns on only with a right code, answering ten recovery codes once', async () => {
    const agency = await registerAgency(t.app);
    const as = apiAs(t.app, agency.access);
    const setup = (await as.post('/api/user/mfa/totp/setup/')).json();
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauth_url).toMatch(/^otpauth:\/\/totp\/Coverdesk:/);
    expect(new URL(setup.otpauth_url).searchParams.get('secret')).toBe(setup.secret);
    expect(new URL(setup.otpauth_url).searchParams.get('issuer')).toBe('Coverdesk');
    expect(decodeURIComponent(setup.otpauth_url)).toContain(agency.user.email);

    // Another sign-in of the same account, which may be whoever learnt the password.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      payload: { email: agency.user.email, password: PASSWORD },
    });
    const elsewhere = apiAs(t.app, other.json().access);
    expect((await elsewhere.get('/api/user/profile/')).statusCode).toBe(200);

    const wrong = await as.post('/api/user/mfa/totp/confirm/', { code: codeFor(setup.secret, 3) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code?.[0]).toContain('not right');
    expect((await as.get('/api/user/profile/')).json().mfa_enabled).toBe(false);

    const right = await as.post('/api/user/mfa/totp/confirm/', { code: codeFor(setup.secret) });
    expect(right.statusCode, right.body).toBe(200);
    const codes: string[] = right.json().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
    expect((await as.get('/api/user/profile/')).json().mfa_enabled).toBe(true);
    // The other sign-in ended with it; this one goes on.
    expect((await elsewhere.get('/api/user/profile/')).statusCode).toBe(401);
    // On already: a second setup is refused rather than replacing the secret in use.
    expect((await as.post('/api/user/mfa/totp/setup/')).statusCode).toBe(400);

    expect(await auditedActions(agency.user.id)).toEqual(
      expect.arrayContaining(['mfa_enabled', 'sessions_ended']),
    );
  });
});

describe('signing in with two steps', () => {
  it('answers no tokens for the password alone, and the tokens for a right code', async () => {
    const agency = await withTwoStep();
    const first = await passwordStep(agency.user.email);
    expect(first).toEqual({ mfa_required: true, mfa_token: expect.any(String) });
    expect(first.access).toBeUndefined();

    const signedIn = await post('/api/token/mfa/', {
      mfa_token: first.mfa_token,
      code: codeFor(agency.secret, 1),
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const { access, refresh } = signedIn.json();
    expect((await t.app.inject({ url: '/api/user/profile/', headers: bearer(access) })).statusCode).toBe(200);
    // A refreshed session is still one that came through both steps.
    expect((await post('/api/token/refresh/', { refresh })).statusCode).toBe(200);
    // The token is good once.
    const again = await post('/api/token/mfa/', {
      mfa_token: first.mfa_token,
      code: codeFor(agency.secret, 1),
    });
    expect(again.statusCode).toBe(401);
  });

  it('refuses a wrong code, a code used already, and one more than a step away; takes a step of drift', async () => {
    const agency = await withTwoStep();
    const challenge = (await passwordStep(agency.user.email)).mfa_token;
    const tryCode = (code: string) => post('/api/token/mfa/', { mfa_token: challenge, code });
    expect((await tryCode(codeFor(agency.secret, 3))).statusCode).toBe(400);
    expect((await tryCode(codeFor(agency.secret, -3))).statusCode).toBe(400);
    // The code that confirmed the setup cannot sign in: a code is good once.
    const replayed = await tryCode(agency.confirmCode);
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().code?.[0]).toContain('not right');
    // A phone a step ahead.
    const ahead = codeFor(agency.secret, 1);
    expect((await tryCode(ahead)).statusCode).toBe(200);

    const later = (await passwordStep(agency.user.email)).mfa_token;
    expect((await post('/api/token/mfa/', { mfa_token: later, code: ahead })).statusCode).toBe(400);
  });

  it('keeps a wrong code and a sign-in with a recovery code in the audit log', async () => {
    const agency = await withTwoStep();
    const challenge = (await passwordStep(agency.user.email)).mfa_token;
    await post('/api/token/mfa/', { mfa_token: challenge, code: codeFor(agency.secret, 4) });
    const signedIn = await post('/api/token/mfa/', {
      mfa_token: challenge,
      recovery_code: agency.recovery[0],
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);

    const trail = await t.database.db
      .select({ action: auditLog.action, reason: auditLog.reason })
      .from(auditLog)
      .where(eq(auditLog.userId, agency.user.id))
      .orderBy(auditLog.occurredAt, auditLog.id);
    expect(trail.slice(-2)).toEqual([
      { action: 'sign_in_failed', reason: 'The two-step code was not right.' },
      { action: 'sign_in', reason: 'With a recovery code.' },
    ]);
  });

  it('takes a code from a phone a step behind, when that step was not used yet', async () => {
    const agency = await withTwoStep();
    // The confirming code used this step; as on the next sign-in a day later, no step is used yet.
    await t.database.db.update(users).set({ mfaLastStep: null }).where(eq(users.id, agency.user.id));
    const challenge = (await passwordStep(agency.user.email)).mfa_token;
    const behind = await post('/api/token/mfa/', { mfa_token: challenge, code: codeFor(agency.secret, -1) });
    expect(behind.statusCode, behind.body).toBe(200);
  });

  it('takes each recovery code once, typed in any case and without dashes', async () => {
    const agency = await withTwoStep();
    const code = agency.recovery[0] ?? '';
    const typed = code.replaceAll('-', '').toLowerCase();
    const first = await post('/api/token/mfa/', {
      mfa_token: (await passwordStep(agency.user.email)).mfa_token,
      recovery_code: typed,
    });
    expect(first.statusCode, first.body).toBe(200);
    const second = await post('/api/token/mfa/', {
      mfa_token: (await passwordStep(agency.user.email)).mfa_token,
      recovery_code: code,
    });
    expect(second.statusCode).toBe(400);
    expect(second.json().recovery_code?.[0]).toContain('used already');
  });

  it('gives a sign-in five tries and five minutes, and an account twenty tries an hour', async () => {
    const agency = await withTwoStep();
    const wrong = codeFor(agency.secret, 5);
    const challenge = (await passwordStep(agency.user.email)).mfa_token;
    for (let i = 0; i < 5; i++) {
      expect((await post('/api/token/mfa/', { mfa_token: challenge, code: wrong })).statusCode).toBe(400);
    }
    const sixth = await post('/api/token/mfa/', { mfa_token: challenge, code: codeFor(agency.secret, 1) });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().detail).toContain('Sign in again');

    const stale = (await passwordStep(agency.user.email)).mfa_token;
    await t.database.db
      .update(mfaChallenges)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(mfaChallenges.userId, agency.user.id));
    const expired = await post('/api/token/mfa/', { mfa_token: stale, code: codeFor(agency.secret, 1) });
    expect(expired.statusCode).toBe(401);

    // Five wrong tries so far count towards the account's twenty.
    for (let round = 0; round < 3; round++) {
      const next = (await passwordStep(agency.user.email)).mfa_token;
      for (let i = 0; i < 5; i++) await post('/api/token/mfa/', { mfa_token: next, code: wrong });
    }
    const next = (await passwordStep(agency.user.email)).mfa_token;
    const held = await post('/api/token/mfa/', { mfa_token: next, code: codeFor(agency.secret, 1) });
    expect(held.statusCode).toBe(429);
    expect(held.headers['retry-after']).toBeDefined();
    expect(held.json().detail).toMatch(/try again in/i);
  });
});

describe('turning it off and new recovery codes', () => {
  it('turns off with the password and a current code, and the password alone signs in again', async () => {
    const agency = await withTwoStep();
    const wrongPassword = await agency.as.post('/api/user/mfa/totp/disable/', {
      password: 'not the password',
      code: codeFor(agency.secret, 1),
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().password).toBeDefined();
    const off = await agency.as.post('/api/user/mfa/totp/disable/', {
      password: PASSWORD,
      code: codeFor(agency.secret, 1),
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await passwordStep(agency.user.email)).access).toEqual(expect.any(String));
    expect(await auditedActions(agency.user.id)).toContain('mfa_disabled');
  });

  it("drops a session's two-step mark at its next refresh once two-step sign-in is reset", async () => {
    const agency = await withTwoStep();
    const challenge = (await passwordStep(agency.user.email)).mfa_token;
    const signedIn = (
      await post('/api/token/mfa/', { mfa_token: challenge, code: codeFor(agency.secret, 1) })
    ).json();
    const markOf = async (access: string) =>
      (await apiAs(t.app, access).get('/api/user/sessions/'))
        .json()
        .results.find((session: { current: boolean }) => session.current)?.two_step;
    expect(await markOf(signedIn.access)).toBe(true);
    await t.database.db.transaction((tx) => resetMfa(tx, agency.user.id));
    const refreshed = (await post('/api/token/refresh/', { refresh: signedIn.refresh })).json();
    expect(await markOf(refreshed.access)).toBe(false);
  });

  it('makes ten new recovery codes for a current code, and the old ones stop working', async () => {
    const agency = await withTwoStep();
    const renewed = await agency.as.post('/api/user/mfa/recovery-codes/', {
      code: codeFor(agency.secret, 1),
    });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const fresh: string[] = renewed.json().recovery_codes;
    expect(fresh).toHaveLength(10);
    const old = await post('/api/token/mfa/', {
      mfa_token: (await passwordStep(agency.user.email)).mfa_token,
      recovery_code: agency.recovery[0],
    });
    expect(old.statusCode).toBe(400);
    const current = await post('/api/token/mfa/', {
      mfa_token: (await passwordStep(agency.user.email)).mfa_token,
      recovery_code: fresh[0],
    });
    expect(current.statusCode).toBe(200);
    expect(await auditedActions(agency.user.id)).toContain('mfa_recovery_codes_renewed');
  });
});

describe('the admin portal', () => {
  it('asks an admin for a sign-in through both steps, and an admin resets a broker who lost their phone', async () => {
    const admin = await registerAgency(t.app, { email: ADMIN });
    const refused = await apiAs(t.app, admin.access).get('/api/admin/users/');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: 'mfa_required',
      detail: 'Turn on two-step sign-in to use the admin portal.',
    });

    const setup = (await apiAs(t.app, admin.access).post('/api/user/mfa/totp/setup/')).json();
    await apiAs(t.app, admin.access).post('/api/user/mfa/totp/confirm/', { code: codeFor(setup.secret) });
    const challenge = (await passwordStep(ADMIN)).mfa_token;
    const twoStep = (
      await post('/api/token/mfa/', { mfa_token: challenge, code: codeFor(setup.secret, 1) })
    ).json();
    const ops = apiAs(t.app, twoStep.access);
    expect((await ops.get('/api/admin/users/')).statusCode).toBe(200);
    // Their own is turned off with the password and a code, not by a reset.
    const own = await ops.post(`/api/admin/users/${admin.user.id}/mfa/reset/`, { reason: 'Mine' });
    expect(own.statusCode).toBe(409);

    const broker = await withTwoStep();
    const listed = (await ops.get(`/api/admin/users/?search=${broker.user.email}`)).json();
    expect(listed.results[0]).toMatchObject({ email: broker.user.email, mfa_enabled: true });
    const reset = await ops.post(`/api/admin/users/${broker.user.id}/mfa/reset/`, {
      reason: 'Lost their phone',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().mfa_enabled).toBe(false);
    expect((await passwordStep(broker.user.email)).access).toEqual(expect.any(String));
    const [audited] = await t.database.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.action} = 'mfa_reset' and ${auditLog.entityId} = ${broker.user.id}`);
    expect(audited?.reason).toBe('Lost their phone');
    const again = await ops.post(`/api/admin/users/${broker.user.id}/mfa/reset/`, { reason: 'Twice' });
    expect(again.statusCode).toBe(409);
  });

  it('refuses every operation of the admin portal to an admin signed in by password alone', async () => {
    const admin = await registerAgency(t.app);
    await t.database.db.update(users).set({ isAdmin: true }).where(eq(users.id, admin.user.id));
    const spec = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.entries(spec.paths)
      .filter(([path]) => path.startsWith('/api/admin/'))
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ path, method })));
    expect(operations.length).toBeGreaterThan(20);
    for (const { path, method } of operations) {
      const answer = await t.app.inject({
        method: method.toUpperCase() as 'GET',
        url: path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000'),
        headers: bearer(admin.access),
        payload: method === 'get' || method === 'delete' ? undefined : {},
      });
      expect({ path, method, status: answer.statusCode, code: answer.json().code }).toEqual({
        path,
        method,
        status: 403,
        code: 'mfa_required',
      });
    }
  });
});

describe("a user's sessions", () => {
  it('lists each sign-in with its device, ends one at once, and signs out everywhere else', async () => {
    const agency = await registerAgency(t.app);
    const laptop = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      payload: { email: agency.user.email, password: PASSWORD },
      headers: { 'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Chrome/131.0 Safari/537.36' },
    });
    const other = laptop.json();
    const as = apiAs(t.app, agency.access);
    const listed = (await as.get('/api/user/sessions/')).json().results;
    expect(listed).toHaveLength(2);
    const current = listed.find((session: { current: boolean }) => session.current);
    const elsewhere = listed.find((session: { current: boolean }) => !session.current);
    expect(current).toMatchObject({ two_step: false, ip_address: expect.any(String) });
    expect(elsewhere.user_agent).toContain('Macintosh');
    expect(elsewhere).toEqual(
      expect.objectContaining({ created_at: expect.any(String), last_used_at: expect.any(String) }),
    );

    // Another agency cannot end it.
    const stranger = await registerAgency(t.app);
    expect(
      (await apiAs(t.app, stranger.access).delete(`/api/user/sessions/${elsewhere.id}/`)).statusCode,
    ).toBe(404);

    const ended = await as.delete(`/api/user/sessions/${elsewhere.id}/`);
    expect(ended.statusCode).toBe(204);
    expect((await apiAs(t.app, other.access).get('/api/user/profile/')).statusCode).toBe(401);
    expect((await post('/api/token/refresh/', { refresh: other.refresh })).statusCode).toBe(401);
    expect((await as.get('/api/user/sessions/')).json().results).toHaveLength(1);

    const third = await passwordStep(agency.user.email);
    const everywhere = await as.post('/api/user/sessions/end-others/');
    expect(everywhere.json().detail).toContain('1 other session');
    expect((await apiAs(t.app, third.access).get('/api/user/profile/')).statusCode).toBe(401);
    expect((await as.get('/api/user/profile/')).statusCode).toBe(200);

    const actions = await t.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.userId, agency.user.id));
    expect(actions.map((row) => row.action)).toEqual(
      expect.arrayContaining(['sign_in', 'session_ended', 'sessions_ended']),
    );
  });

  it('moves "Last active" on a request, at most once in five minutes', async () => {
    const agency = await registerAgency(t.app);
    const as = apiAs(t.app, agency.access);
    const lastActive = async () =>
      new Date((await as.get('/api/user/sessions/')).json().results[0].last_used_at).getTime();
    // The sign-in is an hour old and has not been seen since.
    const hourAgo = sql`now() - interval '1 hour'`;
    const backdate = () =>
      t.database.db
        .update(refreshTokens)
        .set({ createdAt: hourAgo, lastActiveAt: hourAgo })
        .where(eq(refreshTokens.userId, agency.user.id));
    await backdate();
    expect((await as.get('/api/user/profile/')).statusCode).toBe(200);
    expect(Date.now() - (await lastActive())).toBeLessThan(60_000);

    // Within the five minutes, requests write nothing: the time stays where it was put.
    await backdate();
    expect((await as.get('/api/user/profile/')).statusCode).toBe(200);
    expect(Date.now() - (await lastActive())).toBeGreaterThan(59 * 60_000);
  });
});
