import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createTestApp, PASSWORD, registerAgency, type TestApp } from '../../../test/test-app.js';
import { auditLog } from '../audit/tables.js';
import { emailOutbox } from '../mail/tables.js';
import { throttleBuckets } from '../throttle/tables.js';
import { promoteAdmins } from './queries.js';
import { refreshTokens } from './tables.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ adminEmails: ['chief@coverdesk.test', 'ops-lead@coverdesk.test'] });
});
afterAll(() => t.close());

/** Moves every spent refresh token's use into the past, beyond the grace for parallel refreshes. */
const ageSpentTokens = () =>
  t.database.db
    .update(refreshTokens)
    .set({ usedAt: sql`${refreshTokens.usedAt} - interval '1 minute'` })
    .where(isNotNull(refreshTokens.usedAt));

const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

const signIn = (email: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/token/', payload: { email, password }, remoteAddress });

/** Moves an account's last counted sign-in attempt back, as if `seconds` had passed since. */
const letTimePass = (email: string, seconds: number) =>
  t.database.db
    .update(throttleBuckets)
    .set({ windowEndsAt: sql`${throttleBuckets.windowEndsAt} - make_interval(secs => ${seconds})` })
    .where(eq(throttleBuckets.key, `login:account:${email}`));

async function waitForEmailTo(recipient: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const [row] = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.recipient, recipient));
    if (row) return row;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no email to ${recipient}`);
}

describe('registration', () => {
  it('creates the agency, its owner and signs them in', async () => {
    const response = await post('/api/accounts/register/', {
      email: 'Maya.Cohen@Example.com',
      password: PASSWORD,
      first_name: 'Maya',
      last_name: 'Cohen',
      company_name: 'Cohen & Daughters Insurance',
      time_zone: 'Asia/Jerusalem',
      is_admin: true,
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.access).toEqual(expect.any(String));
    expect(body.refresh).toEqual(expect.any(String));
    expect(body.user).toMatchObject({
      email: 'maya.cohen@example.com',
      first_name: 'Maya',
      last_name: 'Cohen',
      company_name: 'Cohen & Daughters Insurance',
      time_zone: 'Asia/Jerusalem',
      is_admin: false,
      is_demo_user: false,
      role: 'owner',
    });
    expect(Object.keys(body.user).sort()).toEqual(
      [
        'company_name',
        'date_joined',
        'email',
        'first_name',
        'id',
        'is_admin',
        'is_demo_user',
        'role',
        'last_login',
        'last_name',
        'mfa_enabled',
        'two_step_required_by',
        'tenant_id',
        'time_zone',
        'currency',
      ].sort(),
    );
  });

  it('keeps the agency on UTC without a time zone, and refuses one that does not exist', async () => {
    const agency = await registerAgency(t.app);
    expect(agency.user.time_zone).toBe('UTC');
    const response = await post('/api/accounts/register/', {
      email: 'lost@example.com',
      password: PASSWORD,
      first_name: 'Lost',
      last_name: 'Clock',
      company_name: 'Nowhere Brokers',
      time_zone: 'Mars/Olympus_Mons',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ time_zone: ['Choose a time zone from the list.'] });
  });

  it('refuses an email that exists in another letter case', async () => {
    const first = await registerAgency(t.app);
    const response = await post('/api/accounts/register/', {
      email: first.email.toUpperCase(),
      password: PASSWORD,
      first_name: 'A',
      last_name: 'B',
      company_name: 'C',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ email: ['A user with that email already exists.'] });
  });

  it('answers missing and malformed fields with one message list per field', async () => {
    const response = await post('/api/accounts/register/', {
      email: 'not-an-email',
      password: 'short',
      first_name: '',
    });
    expect(response.statusCode).toBe(400);
    const errors = response.json();
    expect(errors.email).toEqual(['Enter a valid email address.']);
    expect(errors.password[0]).toMatch(/at least 8 characters/);
    expect(errors.first_name).toEqual(['This field may not be blank.']);
    expect(errors.last_name).toEqual(['This field is required.']);
    expect(errors.company_name).toEqual(['This field is required.']);
  });

  it('refuses common passwords and passwords equal to personal details, without composition rules', async () => {
    const base = { first_name: 'Ori', last_name: 'Ben', company_name: 'Ben Cover' };
    const common = await post('/api/accounts/register/', {
      ...base,
      email: 'ori1@example.com',
      password: 'password1',
    });
    expect(common.statusCode).toBe(400);
    expect(common.json()).toEqual({ password: ['This password is too common.'] });

    const own = await post('/api/accounts/register/', {
      ...base,
      email: 'ori.bencover@example.com',
      password: 'ori.bencover@example.com',
    });
    expect(own.json()).toEqual({ password: ['The password is too similar to your personal details.'] });

    const lowercaseOnly = await post('/api/accounts/register/', {
      ...base,
      email: 'ori2@example.com',
      password: 'seashells by the shore',
    });
    expect(lowercaseOnly.statusCode).toBe(201);
  });

  it('accepts long passphrases up to 256 characters and no longer', async () => {
    const base = { first_name: 'Lia', last_name: 'Mor', company_name: 'Mor Agency' };
    const long = await post('/api/accounts/register/', {
      ...base,
      email: 'lia1@example.com',
      password: `${'x'.repeat(200)} y`,
    });
    expect(long.statusCode).toBe(201);
    const tooLong = await post('/api/accounts/register/', {
      ...base,
      email: 'lia2@example.com',
      password: 'z'.repeat(257),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(Object.keys(tooLong.json())).toEqual(['password']);
  });

  it('allows ten attempts an hour from one address, whatever their outcome', async () => {
    const from = { remoteAddress: '192.0.2.44' };
    const body = { password: PASSWORD, first_name: 'Ran', last_name: 'Dor', company_name: 'Dor Cover' };
    for (let attempt = 0; attempt < 10; attempt++) {
      const weak = await t.app.inject({
        method: 'POST',
        url: '/api/accounts/register/',
        payload: { ...body, email: `many-${attempt}@example.com`, password: 'password1' },
        ...from,
      });
      expect(weak.statusCode).toBe(400);
    }
    const eleventh = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/register/',
      payload: { ...body, email: 'eleventh@example.com' },
      ...from,
    });
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json().detail).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(0);
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/register/',
      payload: { ...body, email: 'eleventh@example.com' },
      remoteAddress: '192.0.2.45',
    });
    expect(elsewhere.statusCode).toBe(201);
  });

  it('tells the owner by email when someone tries to register with their address', async () => {
    const owner = await registerAgency(t.app);
    const attempt = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/register/',
      payload: { email: owner.email, password: PASSWORD, first_name: 'A', last_name: 'B', company_name: 'C' },
      remoteAddress: '192.0.2.60',
    });
    expect(attempt.json()).toEqual({ email: ['A user with that email already exists.'] });
    const warning = await waitForEmailTo(owner.email);
    expect(warning.subject).toBe('Someone tried to register with your email address');
    expect(warning.textBody).toContain('http://coverdesk.test/forgot-password');
  });

  it('grants admin to configured emails only, never to an address that merely contains "admin"', async () => {
    const configured = await registerAgency(t.app, { email: 'Chief@Coverdesk.test' });
    expect(configured.user).toMatchObject({ is_admin: true });
    const lookalike = await registerAgency(t.app, { email: 'admin@example.com' });
    expect(lookalike.user).toMatchObject({ is_admin: false });
  });
});

describe('sign-in', () => {
  it('returns a token pair for the right password, whatever the email case', async () => {
    const agency = await registerAgency(t.app);
    const response = await post('/api/token/', { email: agency.email.toUpperCase(), password: PASSWORD });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual(['access', 'refresh']);
  });

  it('gives the same 401 for a wrong password and an unknown email', async () => {
    const agency = await registerAgency(t.app);
    const wrong = await post('/api/token/', { email: agency.email, password: 'not the password' });
    const unknown = await post('/api/token/', {
      email: 'nobody-here@example.com',
      password: 'not the password',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().detail).toEqual(expect.any(String));
  });

  it('never holds back an office whose people sign in successfully from one address', async () => {
    const agency = await registerAgency(t.app);
    for (let attempt = 0; attempt < 40; attempt++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/token/',
        payload: { email: agency.email, password: PASSWORD },
        remoteAddress: '198.51.100.77',
      });
      expect(response.statusCode).toBe(200);
    }
  });

  it('counts failures sent in parallel, so a burst cannot slip under the limit', async () => {
    const agency = await registerAgency(t.app);
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, attempt) =>
        t.app.inject({
          method: 'POST',
          url: '/api/token/',
          payload: { email: agency.email, password: `burst-${attempt}` },
          remoteAddress: '203.0.113.55',
        }),
      ),
    );
    const statuses = burst.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });

  it('throttles repeated failures from one address with Retry-After, without locking the owner out elsewhere', async () => {
    const agency = await registerAgency(t.app);
    const attacker = { remoteAddress: '203.0.113.7' };
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/token/',
        payload: { email: agency.email, password: `guess-${attempt}` },
        ...attacker,
      });
      expect(response.statusCode).toBe(401);
    }
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      payload: { email: agency.email, password: PASSWORD },
      ...attacker,
    });
    expect(blocked.statusCode).toBe(429);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(blocked.json().detail).toMatch(/Too many attempts/);

    const owner = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      payload: { email: agency.email, password: PASSWORD },
      remoteAddress: '198.51.100.20',
    });
    expect(owner.statusCode).toBe(200);
  });

  it('stops one address guessing across many accounts after 30 failures, and no other address', async () => {
    const agency = await registerAgency(t.app);
    const sprayer = '203.0.113.90';
    for (let attempt = 0; attempt < 30; attempt++) {
      const response = await signIn(`sprayed-${attempt}@example.com`, 'Summer2026!', sprayer);
      expect(response.statusCode, `attempt ${attempt + 1}`).toBe(401);
    }
    const blocked = await signIn(agency.email, PASSWORD, sprayer);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(agency.email, PASSWORD, '198.51.100.91')).statusCode).toBe(200);
  });
});

describe('sign-in throttling on one account', () => {
  it('spaces out the addresses that failed by 2 seconds, doubling, never more than 30', async () => {
    const agency = await registerAgency(t.app);
    const addresses = Array.from({ length: 6 }, (_, index) => `198.18.0.${index + 1}`);
    const guess = (address: string) => signIn(agency.email, 'not the password', address);
    /** When the last attempt that counted was sent: the wait it started counts down from then. */
    let counted = 0;
    for (const address of addresses) {
      counted = Date.now();
      expect((await guess(address)).statusCode).toBe(401);
    }
    const expected = [2, 4, 8, 16, 30, 30];
    for (const [index, address] of addresses.entries()) {
      const refused = await guess(address);
      expect(refused.statusCode).toBe(429);
      const wait = Number(refused.headers['retry-after']);
      // The whole wait, less the seconds that have already passed since the attempt that started it
      // (none on a quick machine; a busy one can take over a second between two requests).
      const passed = Math.floor((Date.now() - counted) / 1000);
      expect(wait, `the wait after address ${index + 1} failed again`).toBeLessThanOrEqual(
        expected[index] ?? 0,
      );
      expect(wait, `the wait after address ${index + 1} failed again`).toBeGreaterThanOrEqual(
        (expected[index] ?? 0) - passed,
      );
      await letTimePass(agency.email, wait);
      counted = Date.now();
      expect((await guess(address)).statusCode).toBe(401);
    }
  });

  it('lets the owner in from their own address while 20 other addresses guess the password', async () => {
    const agency = await registerAgency(t.app);
    const attackers = Array.from({ length: 20 }, (_, index) => `203.0.113.${101 + index}`);
    const guessed: number[][] = [];
    for (let round = 0; round < 5; round++) {
      const guesses = await Promise.all(
        attackers.map((address) => signIn(agency.email, `guess-${round}`, address)),
      );
      guessed.push(guesses.map((guess) => guess.statusCode));
      const owner = await signIn(agency.email, PASSWORD, '198.51.100.99');
      expect(owner.statusCode, `round ${round + 1}`).toBe(200);
      expect(owner.json()).toEqual({ access: expect.any(String), refresh: expect.any(String) });
    }
    // Each attacker had one guess; from then on it waited for the account's turn.
    const refusedRounds = Array.from({ length: 4 }, () => attackers.map(() => 429));
    expect(guessed).toEqual([attackers.map(() => 401), ...refusedRounds]);
  });

  it('keeps an address that failed waiting even with the right password, and counts its refusals', async () => {
    const agency = await registerAgency(t.app);
    for (let address = 1; address <= 5; address++) {
      expect((await signIn(agency.email, 'not the password', `192.0.2.${address}`)).statusCode).toBe(401);
    }
    const guesser = '192.0.2.50';
    // The sixth failure on the account: the addresses that failed now wait 2 seconds.
    expect((await signIn(agency.email, 'not the password', guesser)).statusCode).toBe(401);
    for (let attempt = 0; attempt < 4; attempt++) {
      const refused = await signIn(agency.email, PASSWORD, guesser);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(2);
    }
    await letTimePass(agency.email, 30);
    // Its five tries are spent: had the refusals been free, it could have asked until its turn came.
    const spent = await signIn(agency.email, PASSWORD, guesser);
    expect(spent.statusCode).toBe(429);
    expect(Number(spent.headers['retry-after'])).toBeGreaterThan(30);
  });
});

describe('refresh tokens', () => {
  it('rotates on every use and revokes the whole family when a spent token comes back', async () => {
    const agency = await registerAgency(t.app);
    const first = await post('/api/token/refresh/', { refresh: agency.refresh });
    expect(first.statusCode).toBe(200);
    const rotated = first.json();
    expect(rotated.refresh).not.toBe(agency.refresh);

    const second = await post('/api/token/refresh/', { refresh: rotated.refresh });
    expect(second.statusCode).toBe(200);
    const latest = second.json().refresh;

    // The original token is replayed later, as a thief would: refused, and the family is gone.
    await ageSpentTokens();
    const replay = await post('/api/token/refresh/', { refresh: agency.refresh });
    expect(replay.statusCode).toBe(401);
    const afterReplay = await post('/api/token/refresh/', { refresh: latest });
    expect(afterReplay.statusCode).toBe(401);
  });

  it('keeps other sign-ins alive when one family is revoked', async () => {
    const agency = await registerAgency(t.app);
    const other = (await post('/api/token/', { email: agency.email, password: PASSWORD })).json();
    await post('/api/token/refresh/', { refresh: agency.refresh });
    await ageSpentTokens();
    await post('/api/token/refresh/', { refresh: agency.refresh });
    expect((await post('/api/token/refresh/', { refresh: other.refresh })).statusCode).toBe(200);
  });

  it('refuses a token spent a moment ago without ending the sign-in (two tabs refreshing at once)', async () => {
    const agency = await registerAgency(t.app);
    const [first, second] = await Promise.all([
      post('/api/token/refresh/', { refresh: agency.refresh }),
      post('/api/token/refresh/', { refresh: agency.refresh }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 401]);
    const winner = first.statusCode === 200 ? first : second;
    expect((await post('/api/token/refresh/', { refresh: winner.json().refresh })).statusCode).toBe(200);
  });

  it('ends the sign-in when a token a thief spent first comes back from its owner, and logs it', async () => {
    const agency = await registerAgency(t.app);
    const browser = { 'user-agent': 'Mozilla/5.0 (Macintosh) Safari/605.1.15' };
    const stolen = await t.app.inject({
      method: 'POST',
      url: '/api/token/refresh/',
      payload: { refresh: agency.refresh },
      remoteAddress: '203.0.113.66',
      headers: { 'user-agent': 'curl/8.5.0' },
    });
    expect(stolen.statusCode).toBe(200);
    const thief = stolen.json();
    expect(
      (await t.app.inject({ url: '/api/user/profile/', headers: bearer(thief.access) })).statusCode,
    ).toBe(200);

    // The owner's browser refreshes a moment later with the same token: not the same device, so no
    // second tab, and the sign-in ends for both.
    const owner = await post('/api/token/refresh/', { refresh: agency.refresh }, browser);
    expect(owner.statusCode).toBe(401);
    expect((await post('/api/token/refresh/', { refresh: thief.refresh })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: '/api/user/profile/', headers: bearer(thief.access) })).statusCode,
    ).toBe(401);
    const logged = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, agency.user.id), eq(auditLog.action, 'refresh_token_reused')));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ entity: 'user', userAgent: browser['user-agent'] });

    // Presented again, the token ends nothing more and logs nothing more.
    await post('/api/token/refresh/', { refresh: agency.refresh }, browser);
    const again = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.userId, agency.user.id), eq(auditLog.action, 'refresh_token_reused')));
    expect(again).toHaveLength(1);
  });

  it('revokes a token on sign-out', async () => {
    const agency = await registerAgency(t.app);
    const revoke = await post('/api/token/revoke/', { refresh: agency.refresh });
    expect(revoke.statusCode).toBe(200);
    expect((await post('/api/token/refresh/', { refresh: agency.refresh })).statusCode).toBe(401);
  });

  it('refuses unknown tokens and missing fields', async () => {
    expect((await post('/api/token/refresh/', { refresh: 'made-up' })).statusCode).toBe(401);
    const missing = await post('/api/token/refresh/', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ refresh: ['This field is required.'] });
  });
});

describe('access tokens', () => {
  const profile = (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/user/profile/', headers: bearer(token) });

  it('are required for the profile', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/user/profile/' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
  });

  it('stop working when they expire, however often they were accepted before', async () => {
    const agency = await registerAgency(t.app);
    expect((await profile(agency.access)).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 16 * 60 * 1000);
      const later = await profile(agency.access);
      expect(later.statusCode).toBe(401);
      expect(later.json()).toEqual({ detail: 'Token is expired' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('are refused when expired, signed with another key or algorithm, or of the wrong type', async () => {
    const agency = await registerAgency(t.app);
    const claims = { tid: agency.user.tenant_id, sid: 'x', token_type: 'access' };
    const sign = (payload: object, key: Uint8Array, alg = 'HS256', expiresIn: string | number = '5m') =>
      new SignJWT(payload as Record<string, unknown>)
        .setProtectedHeader({ alg })
        .setSubject(agency.user.id)
        .setIssuer('coverdesk')
        .setAudience('coverdesk-api')
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .sign(key);

    const expired = await sign(claims, t.config.jwtSecret, 'HS256', Math.floor(Date.now() / 1000) - 60);
    expect((await profile(expired)).json()).toEqual({ detail: 'Token is expired' });
    expect(
      (await profile(await sign(claims, new TextEncoder().encode('another secret entirely')))).statusCode,
    ).toBe(401);
    expect((await profile(await sign(claims, t.config.jwtSecret, 'HS512'))).statusCode).toBe(401);
    expect(
      (await profile(await sign({ ...claims, token_type: 'refresh' }, t.config.jwtSecret))).statusCode,
    ).toBe(401);
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${agency.access.split('.')[1]}.`;
    expect((await profile(unsigned)).statusCode).toBe(401);
    expect((await profile(agency.refresh)).statusCode).toBe(401);
    expect((await profile(agency.access)).statusCode).toBe(200);
  });
});

describe('profile', () => {
  const patch = (token: string, payload: object) =>
    t.app.inject({ method: 'PATCH', url: '/api/user/profile/', headers: bearer(token), payload });

  it('reads the signed-in user with their agency', async () => {
    const agency = await registerAgency(t.app, { company_name: 'Harbor Brokers' });
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/user/profile/',
      headers: bearer(agency.access),
    });
    expect(response.json()).toMatchObject({
      id: agency.user.id,
      email: agency.email,
      company_name: 'Harbor Brokers',
      tenant_id: agency.user.tenant_id,
      is_admin: false,
      is_demo_user: false,
    });
    expect(response.json().last_login).toEqual(expect.any(String));
  });

  it('updates names and the agency name, ignoring fields it does not know', async () => {
    const agency = await registerAgency(t.app);
    const response = await patch(agency.access, {
      first_name: 'Noga',
      company_name: 'Noga Cover',
      is_admin: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Your profile has been updated.',
      user: { first_name: 'Noga', last_name: 'Peretz', company_name: 'Noga Cover', is_admin: false },
    });
  });

  it("keeps the agency's books in US dollars until the broker picks its currency", async () => {
    const agency = await registerAgency(t.app);
    expect(agency.user.currency).toBe('USD');
    const refused = await patch(agency.access, { currency: 'XYZ' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ currency: ['Choose a currency from the list.'] });
    const changed = await patch(agency.access, { currency: 'EUR' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().user.currency).toBe('EUR');
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/user/profile/',
      headers: bearer(agency.access),
    });
    expect(read.json().currency).toBe('EUR');
  });

  it('refuses a password change with a wrong current password', async () => {
    const agency = await registerAgency(t.app);
    const response = await patch(agency.access, {
      current_password: 'wrong wrong',
      new_password: 'brand new secret',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'Your current password is incorrect.' });
    expect((await post('/api/token/', { email: agency.email, password: PASSWORD })).statusCode).toBe(200);
  });

  it('changes the password and signs out every other session, keeping this one', async () => {
    const agency = await registerAgency(t.app);
    const otherDevice = (await post('/api/token/', { email: agency.email, password: PASSWORD })).json();
    const response = await patch(agency.access, {
      current_password: PASSWORD,
      new_password: 'brand new secret',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Your password has been changed.');

    expect((await post('/api/token/refresh/', { refresh: otherDevice.refresh })).statusCode).toBe(401);
    expect((await post('/api/token/refresh/', { refresh: agency.refresh })).statusCode).toBe(200);
    expect((await post('/api/token/', { email: agency.email, password: PASSWORD })).statusCode).toBe(401);
    expect(
      (await post('/api/token/', { email: agency.email, password: 'brand new secret' })).statusCode,
    ).toBe(200);
  });

  it('needs the current password to change the email, and keeps emails unique', async () => {
    const taken = await registerAgency(t.app);
    const agency = await registerAgency(t.app);
    expect((await patch(agency.access, { email: 'new@example.com' })).json()).toEqual({
      current_password: ['This field is required.'],
    });
    expect(
      (await patch(agency.access, { email: taken.email.toUpperCase(), current_password: PASSWORD })).json(),
    ).toEqual({
      email: ['A user with that email already exists.'],
    });
    const moved = await patch(agency.access, { email: 'Moved@Example.com', current_password: PASSWORD });
    expect(moved.json().user.email).toBe('moved@example.com');
  });

  it('refuses an address listed in ADMIN_EMAILS, which would make an admin at the next start', async () => {
    const agency = await registerAgency(t.app);
    const response = await patch(agency.access, {
      email: 'Ops-Lead@Coverdesk.test',
      current_password: PASSWORD,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ email: ['This email address cannot be used.'] });
    await promoteAdmins(t.database.db, t.config.adminEmails);
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/user/profile/',
      headers: bearer(agency.access),
    });
    expect(read.json()).toMatchObject({ email: agency.email, is_admin: false });
  });

  it('stops guessing of the current password after five wrong tries', async () => {
    const agency = await registerAgency(t.app);
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await patch(agency.access, {
        current_password: `guess ${attempt}`,
        new_password: 'brand new secret',
      });
      expect(wrong.statusCode).toBe(400);
    }
    const blocked = await patch(agency.access, {
      current_password: PASSWORD,
      new_password: 'brand new secret',
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
  });

  it('validates a new password like registration does', async () => {
    const agency = await registerAgency(t.app);
    const response = await patch(agency.access, { current_password: PASSWORD, new_password: 'qwerty123' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ new_password: ['This password is too common.'] });
    const oversized = await patch(agency.access, {
      current_password: 'x'.repeat(1024 * 100),
      new_password: 'brand new secret',
    });
    expect(oversized.statusCode).toBe(400);
    expect(Object.keys(oversized.json())).toEqual(['current_password']);
  });
});
