// Coverdesk as an operator runs it on several machines: two instances of the built app on one fresh
// PostgreSQL database behind nginx (deploy/nginx), driven over HTTP. Run by `npm run test:cluster`
// (and by .ci/run when a PostgreSQL server answers); needs `npm run build` first.

import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerDatabase, serverUrl } from '../database.js';
import { type Instance, REPO_ROOT, startInstance, startNginx, stopInstance } from './instances.js';

const run = promisify(execFile);

const ADMIN = 'ops@cluster.test';
const PASSWORD = 'quiet harbour lighthouse';
const OPEN = { signups_open: true, demo_enabled: false, default_trial_days: null };

interface Session {
  access: string;
  refresh: string;
  email: string;
  user: { id: string };
}

/**
 * How long until `holds` is true: PostgreSQL's notification travels on its own connection, so what
 * one instance commits may reach another a moment after the request that committed it returns.
 * Asks every 10 ms, for at most two seconds.
 */
async function msUntil(holds: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  while (!(await holds())) {
    if (performance.now() - started > 2000) return Number.POSITIVE_INFINITY;
    await sleep(10);
  }
  return performance.now() - started;
}

/** How long an instance took to refuse a token another instance ended. */
const msUntilRefused = (base: string, token: string) =>
  msUntil(async () => (await call(base, 'GET', '/api/user/profile/', token)).status === 401);

async function call(base: string, method: string, url: string, token?: string, body?: unknown) {
  const response = await fetch(new URL(url, base), {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function register(base: string, email = `broker-${randomUUID().slice(0, 8)}@cluster.test`) {
  const response = await call(base, 'POST', '/api/accounts/register/', undefined, {
    email,
    password: PASSWORD,
    first_name: 'Noa',
    last_name: 'Peretz',
    company_name: 'Peretz Insurance',
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { ...(response.body as Omit<Session, 'email'>), email };
}

describe.skipIf(!serverUrl)('several instances on one PostgreSQL database, behind nginx', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'coverdesk-cluster-'));
  const jwtSecret = randomBytes(32).toString('base64url');
  let database: Awaited<ReturnType<typeof createServerDatabase>>;
  let restored: Awaited<ReturnType<typeof createServerDatabase>> | undefined;
  let a: Instance;
  let b: Instance;
  let nginx: Awaited<ReturnType<typeof startNginx>>;
  const started: Instance[] = [];
  let admin: Session;

  const start = async (name: string, databaseUrl: string, port?: number) => {
    const instance = await startInstance({
      name,
      databaseUrl,
      jwtSecret,
      dir,
      port,
      env: { ADMIN_EMAILS: ADMIN },
    });
    started.push(instance);
    return instance;
  };

  beforeAll(async () => {
    database = await createServerDatabase('coverdesk_cluster');
    // Both at once, as a deploy starts them: the migrations run once, under their lock.
    [a, b] = await Promise.all([start('a', database.url), start('b', database.url)]);
    nginx = await startNginx(dir, [a, b]);
    admin = await register(nginx.url, ADMIN);
  });

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(started.map((instance) => stopInstance(instance, 'SIGKILL')));
    await database?.drop();
    await restored?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses on the other instance at once a session signed out, a disabled account, a changed password, and closed sign-ups', async () => {
    const broker = await register(nginx.url);
    expect((await call(b.url, 'GET', '/api/user/profile/', broker.access)).status).toBe(200);
    const revoked = await call(a.url, 'POST', '/api/token/revoke/', broker.access, {
      refresh: broker.refresh,
    });
    expect(revoked.status).toBe(200);
    // At once: well within the half second the 15-second poll would never meet.
    expect(await msUntilRefused(b.url, broker.access)).toBeLessThan(500);

    const leaver = await register(nginx.url);
    const disabled = await call(a.url, 'POST', `/api/admin/users/${leaver.user.id}/disable/`, admin.access, {
      reason: 'Left the agency',
    });
    expect(disabled.status).toBe(200);
    expect((await call(a.url, 'GET', '/api/user/profile/', leaver.access)).status).toBe(401);
    expect(await msUntilRefused(b.url, leaver.access)).toBeLessThan(500);

    // A new password ends the account's other sessions on every instance; the one that changed it goes on.
    const mover = await register(nginx.url);
    const elsewhere = await call(b.url, 'POST', '/api/token/', undefined, {
      email: mover.email,
      password: PASSWORD,
    });
    expect(elsewhere.status).toBe(200);
    const changed = await call(a.url, 'PATCH', '/api/user/profile/', mover.access, {
      current_password: PASSWORD,
      new_password: 'a brand new harbour passphrase',
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await msUntilRefused(b.url, elsewhere.body.access)).toBeLessThan(500);
    expect((await call(b.url, 'GET', '/api/user/profile/', mover.access)).status).toBe(200);

    const closing = await call(a.url, 'PUT', '/api/admin/settings/', admin.access, {
      ...OPEN,
      signups_open: false,
    });
    expect(closing.status).toBe(200);
    const signupsOpen = async () =>
      (await call(b.url, 'GET', '/api/platform/settings/')).body.signups_open as boolean;
    expect(await msUntil(async () => !(await signupsOpen()))).toBeLessThan(500);
    const refused = await call(b.url, 'POST', '/api/accounts/register/', undefined, {
      email: 'late@cluster.test',
      password: PASSWORD,
      first_name: 'Lia',
      last_name: 'Late',
      company_name: 'Late Insurance',
    });
    expect(refused.status).toBe(403);
    expect((await call(a.url, 'PUT', '/api/admin/settings/', admin.access, OPEN)).status).toBe(200);
  });

  it('counts sign-in attempts across both instances', async () => {
    const broker = await register(nginx.url);
    const wrong = { email: broker.email, password: 'not the password at all' };
    // Five wrong passwords for one account from one address, alternating between the instances.
    for (const instance of [a, b, a, b, a]) {
      expect((await call(instance.url, 'POST', '/api/token/', undefined, wrong)).status).toBe(401);
    }
    for (const instance of [b, a]) {
      expect((await call(instance.url, 'POST', '/api/token/', undefined, wrong)).status).toBe(429);
    }
  });

  it('serves metrics on each instance, on a port of its own', async () => {
    for (const instance of [a, b]) {
      const response = await fetch(instance.metricsUrl);
      expect(response.status).toBe(200);
      const text = await response.text();
      expect(text).toMatch(/^http_request_duration_seconds_count\{.*route="\/api\/health\/".*\} [1-9]/m);
      expect(text).toContain('db_pool_connections_in_use');
      expect(text).toContain('job_queue_jobs');
      expect(text).toContain('nodejs_eventloop_lag_seconds');
      // Never on the app's port, which the proxy publishes (there /metrics is a page of the web app).
      expect(await (await fetch(`${instance.url}/metrics`)).text()).not.toContain(
        'http_request_duration_seconds',
      );
    }
  });

  it('answers every request in flight when an instance is told to stop, and the instance exits 0', async () => {
    const broker = await register(nginx.url);
    // Half of them writes, which nginx never sends to the other instance once sent: each must be
    // answered by the instance it reached, and written once.
    const inFlight = Array.from({ length: 40 }, (_, n) =>
      (n % 2 === 0
        ? call(nginx.url, 'GET', '/api/customers/?page=1', broker.access)
        : call(nginx.url, 'POST', '/api/customers/', broker.access, {
            first_name: 'Stopping',
            last_name: `Number${n}`,
            email: `stopping${n}@cluster.test`,
          })
      ).then(
        (response) => response.status,
        (error: Error) => error.message,
      ),
    );
    await sleep(20);
    const signalled = Date.now();
    a.process.kill('SIGTERM');
    // The signal reaches the instance a moment later; from then on, health tells the proxy to go elsewhere.
    const draining = msUntil(async () => (await fetch(`${a.url}/api/health/`)).status === 503);
    expect(await Promise.all(inFlight)).toEqual(
      Array.from({ length: 40 }, (_, n) => (n % 2 === 0 ? 200 : 201)),
    );
    expect(await draining).toBeLessThan(1000);
    expect(await a.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(30_000);
    const written = await call(b.url, 'GET', '/api/customers/?search=Stopping&page_size=1', broker.access);
    expect(written.body.count).toBe(20);
    // Back on its port, behind the same proxy, for what follows.
    a = await start('a', database.url, a.port);
  });

  // Told to stop, an instance hands its import back to the queue; killed, it leaves it to expire.
  it.each([
    ['told to stop', 'SIGTERM', 0],
    ['killed', 'SIGKILL', 'SIGKILL'],
  ] as const)(
    'finishes on the other instance an import whose instance was %s, writing each row once',
    async (_how, signal, exit) => {
      const broker = await register(nginx.url);
      await liftLimits(database.url);
      const rows = 30_000;
      const file = [
        'First name,Surname,Email,Tel',
        ...Array.from(
          { length: rows },
          (_, n) => `Client${n},Number${n},client${n}@book.test,050${String(n).padStart(7, '0')}`,
        ),
      ].join('\r\n');
      const uploaded = await fetch(`${nginx.url}/api/imports/?kind=customers&file_name=book.csv`, {
        method: 'POST',
        headers: { authorization: `Bearer ${broker.access}`, 'content-type': 'text/csv' },
        body: file,
      });
      expect(uploaded.status).toBe(201);
      const record = (await uploaded.json()) as { id: string; columns: (string | null)[] };
      const settled = await call(nginx.url, 'PUT', `/api/imports/${record.id}/`, broker.access, {
        columns: record.columns,
        duplicates: 'skip',
        all_or_nothing: true,
      });
      expect(settled.status).toBe(200);
      expect((await call(nginx.url, 'POST', `/api/imports/${record.id}/start/`, broker.access)).status).toBe(
        202,
      );

      // The instance running it shows its progress; the other knows only that it runs.
      let running: Instance | undefined;
      for (let attempt = 0; attempt < 300 && !running; attempt++) {
        for (const instance of [a, b]) {
          const progress = await call(instance.url, 'GET', `/api/imports/${record.id}/`, broker.access);
          if (progress.body.processed_rows > 0 && progress.body.status === 'running') running = instance;
        }
        if (!running) await sleep(50);
      }
      if (!running) throw new Error('the import was never seen running');
      const survivor = running === a ? b : a;
      expect(await stopInstance(running, signal)).toBe(exit);

      let finished: { status: string; created: number } | undefined;
      for (let attempt = 0; attempt < 120 && !finished; attempt++) {
        const progress = await call(survivor.url, 'GET', `/api/imports/${record.id}/`, broker.access);
        if (progress.body.status === 'done' || progress.body.status === 'failed') finished = progress.body;
        else await sleep(1000);
      }
      expect(finished).toMatchObject({ status: 'done', created: rows });
      const customers = await call(survivor.url, 'GET', '/api/customers/?page_size=1', broker.access);
      expect(customers.body.count).toBe(rows);

      // Back on its port for what follows.
      const restarted = await start(running.name, database.url, running.port);
      if (running === a) a = restarted;
      else b = restarted;
    },
  );

  it('restores a backup into a second database that a third instance then serves', async () => {
    const broker = await register(nginx.url);
    const created = await call(nginx.url, 'POST', '/api/customers/', broker.access, {
      first_name: 'Dana',
      last_name: 'Restored',
      email: 'dana@restored.test',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    const file = path.join(dir, 'coverdesk.dump');
    const env = { ...process.env, DATABASE_URL: database.url };
    await run(process.execPath, [path.join(REPO_ROOT, 'api/dist/backup.js'), file], { env });
    restored = await createServerDatabase('coverdesk_restored');
    await run(process.execPath, [path.join(REPO_ROOT, 'api/dist/restore.js'), file], {
      env: { ...process.env, DATABASE_URL: restored.url },
    });
    // A database with data is refused unless the operator says --force.
    await expect(
      run(process.execPath, [path.join(REPO_ROOT, 'api/dist/restore.js'), file], {
        env: { ...process.env, DATABASE_URL: restored.url },
      }),
    ).rejects.toMatchObject({ code: 1 });

    const c = await start('c', restored.url);
    const signedIn = await call(c.url, 'POST', '/api/token/', undefined, {
      email: broker.email,
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(200);
    const found = await call(c.url, 'GET', '/api/customers/?search=Restored', signedIn.body.access);
    expect(found.body.results.map((customer: { email: string }) => customer.email)).toEqual([
      'dana@restored.test',
    ]);
    const agencies = await call(c.url, 'GET', '/api/admin/tenants/?page_size=1', admin.access);
    const before = await call(a.url, 'GET', '/api/admin/tenants/?page_size=1', admin.access);
    expect(agencies.body.count).toBe(before.body.count);
  });
});

/** No trial plan holds 30,000 customers: the agencies move to a plan without that limit. */
async function liftLimits(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`
      insert into plans (id, name, display_name, description, price_monthly, price_yearly, trial_days, features, limits)
      select gen_random_uuid(), 'cluster-test', 'Cluster test', 'Several instances', 0, 0, 14, features,
        '{"policies": 1000000, "customers": 1000000, "leads": 1000000, "storage_mb": 100000}'::jsonb
      from plans where name = 'agency'
      on conflict (name) do nothing`);
    await client.query(
      `update subscriptions set plan_id = (select id from plans where name = 'cluster-test'), status = 'active'`,
    );
  } finally {
    await client.end();
  }
}
