import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverUrl } from '../../test/database.js';
import { apiAs, createTestApp, registerAgency, type TestApp } from '../../test/test-app.js';
import { buildApp } from '../app.js';
import { type DatabaseHandle, openDatabase } from './client.js';

const ADMIN = 'ops@coverdesk.test';

/**
 * The database announces a change once it has committed, and the other instance reads the news a
 * moment later: milliseconds, against the 15 seconds of the poll that stands behind it.
 */
const AT_ONCE = { timeout: 1000, interval: 10 };
const OPEN = { signups_open: true, demo_enabled: true, default_trial_days: null };

// Two instances share a database only on a PostgreSQL server; the embedded one serves one process.
describe.skipIf(!serverUrl)('two instances on one database', () => {
  let a: TestApp;
  let second: DatabaseHandle;
  let b: FastifyInstance;
  let admin: ReturnType<typeof apiAs>;

  beforeAll(async () => {
    a = await createTestApp({ adminEmails: [ADMIN] });
    second = await openDatabase({ url: a.database.pool.options.connectionString ?? '', poolSize: 2 });
    b = await buildApp(a.config, second, a.files);
    await Promise.all([a.app.ready(), b.ready()]);
    admin = apiAs(a.app, (await registerAgency(a.app, { email: ADMIN })).access);
  });
  afterAll(async () => {
    await b.close();
    await second.close();
    await a.close();
  });

  it('refuses on the other instance, at once, a session signed out, a disabled account, and sign-ups closed', async () => {
    const signedOut = await registerAgency(a.app);
    expect((await apiAs(b, signedOut.access).get('/api/user/profile/')).statusCode).toBe(200);
    const revoke = await apiAs(a.app, signedOut.access).post('/api/token/revoke/', {
      refresh: signedOut.refresh,
    });
    expect(revoke.statusCode).toBe(200);
    await expect
      .poll(async () => (await apiAs(b, signedOut.access).get('/api/user/profile/')).statusCode, AT_ONCE)
      .toBe(401);

    const disabled = await registerAgency(a.app);
    const disabling = await admin.post(`/api/admin/users/${disabled.user.id}/disable/`, {
      reason: 'Left the agency',
    });
    expect(disabling.statusCode).toBe(200);
    await expect
      .poll(async () => (await apiAs(b, disabled.access).get('/api/user/profile/')).statusCode, AT_ONCE)
      .toBe(401);

    expect((await admin.put('/api/admin/settings/', { ...OPEN, signups_open: false })).statusCode).toBe(200);
    await expect
      .poll(async () => (await b.inject({ method: 'GET', url: '/api/platform/settings/' })).json(), AT_ONCE)
      .toEqual({ signups_open: false, demo_available: true });
    await admin.put('/api/admin/settings/', OPEN);
  });

  it('reads the database again after losing the connection it listens on, so a sign-out made meanwhile holds', async () => {
    const broker = await registerAgency(a.app);
    const listeners = async () =>
      (
        await a.database.pool.query<{ pid: number }>(
          `select pid from pg_stat_activity where datname = current_database() and query like 'LISTEN%'`,
        )
      ).rows.map((row) => row.pid);
    expect(await listeners()).toHaveLength(2);
    // Both instances' listening connections cut, as a network fault or a server restart would.
    await a.database.pool.query('select pg_terminate_backend(pid) from unnest($1::int[]) pid', [
      await listeners(),
    ]);
    const revoke = await apiAs(a.app, broker.access).post('/api/token/revoke/', { refresh: broker.refresh });
    expect(revoke.statusCode).toBe(200);
    await expect
      .poll(async () => (await apiAs(b, broker.access).get('/api/user/profile/')).statusCode, {
        timeout: 3000,
        interval: 50,
      })
      .toBe(401);
    await expect.poll(listeners, { timeout: 3000, interval: 50 }).toHaveLength(2);
  });
});
