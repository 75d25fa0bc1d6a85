import { isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, PASSWORD, registerAgency, type TestApp } from '../../../test/test-app.js';
import { refreshTokens } from './tables.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });
const profile = (app: TestApp['app'], access: string) =>
  app.inject({ method: 'GET', url: '/api/user/profile/', headers: bearer(access) });

describe('an access token stops working as soon as its sign-in ends', () => {
  // On another instance of the same database as well: db/notifications.test.ts, on a PostgreSQL server.
  it('on sign-out', async () => {
    const agency = await registerAgency(t.app);
    expect((await profile(t.app, agency.access)).statusCode).toBe(200);
    await post('/api/token/revoke/', { refresh: agency.refresh });
    const after = await profile(t.app, agency.access);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ detail: 'Token has been revoked' });
  });

  it('when a spent refresh token comes back, for every access token of that sign-in', async () => {
    const agency = await registerAgency(t.app);
    const rotated = (await post('/api/token/refresh/', { refresh: agency.refresh })).json();
    expect((await profile(t.app, rotated.access)).statusCode).toBe(200);
    await t.database.db
      .update(refreshTokens)
      .set({ usedAt: sql`${refreshTokens.usedAt} - interval '1 minute'` })
      .where(isNotNull(refreshTokens.usedAt));
    expect((await post('/api/token/refresh/', { refresh: agency.refresh })).statusCode).toBe(401);
    expect((await profile(t.app, agency.access)).statusCode).toBe(401);
    expect((await profile(t.app, rotated.access)).statusCode).toBe(401);
  });

  it('on a password change, for the other sign-ins only', async () => {
    const agency = await registerAgency(t.app);
    const otherDevice = (await post('/api/token/', { email: agency.email, password: PASSWORD })).json();
    expect((await profile(t.app, otherDevice.access)).statusCode).toBe(200);
    const change = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/profile/',
      headers: bearer(agency.access),
      payload: { current_password: PASSWORD, new_password: 'brand new secret' },
    });
    expect(change.statusCode).toBe(200);
    expect((await profile(t.app, otherDevice.access)).statusCode).toBe(401);
    expect((await profile(t.app, agency.access)).statusCode).toBe(200);
  });
});
