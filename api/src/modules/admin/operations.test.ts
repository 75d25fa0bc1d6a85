import { setTimeout as sleep } from 'node:timers/promises';
import type { PerformanceReport, ServerCache, ServerCacheList, SystemHealth } from '@coverdesk/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serverUrl } from '../../../test/database.js';
import { bearer, createTestApp, registerAgency, type TestApp } from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { auditLog } from '../audit/tables.js';
import { emailOutbox } from '../mail/tables.js';
import { notificationHistory } from '../notifications/tables.js';

let t: TestApp;
let adminToken: string;
let adminId: string;
const PROBE_DELAY_MS = 20;
beforeAll(async () => {
  t = await createTestApp({ adminEmails: ['ops@coverdesk.test'] });
  // A route that takes a known time, so the percentiles can be checked against it.
  t.app.get(
    '/api/timing-probe/:label/',
    { schema: { params: z.object({ label: z.string() }) } },
    async () => {
      await sleep(PROBE_DELAY_MS);
      return { ok: true };
    },
  );
  const admin = await registerAgency(t.app, { email: 'ops@coverdesk.test' });
  adminToken = admin.access;
  adminId = admin.user.id;
});
afterAll(() => t.close());

const asAdmin = (method: 'GET' | 'POST', url: string) =>
  t.app.inject({ method, url, headers: bearer(adminToken) });

describe('system health', () => {
  it('reports the database, the migrations, the job queues and the emails of the last day', async () => {
    // The queued import waits an hour, so the app's own import worker, which polls every second,
    // does not take it while the test goes on.
    await t.database.db.execute(sql`
      insert into pgboss.job (name, state, completed_on, start_after) values
        ('import', 'created', null, now() + interval '1 hour'), ('import', 'failed', now(), now()),
        ('notification-email', 'failed', now() - interval '2 days', now())`);
    await t.database.db.insert(emailOutbox).values({
      recipient: 'a@example.com',
      subject: 'Reset',
      textBody: 'x',
      status: 'failed',
      error: 'refused',
    });
    const agency = await registerAgency(t.app);
    const reminder = {
      tenantId: agency.user.tenant_id,
      userId: agency.user.id,
      notificationType: 'payment_reminder' as const,
      channel: 'email' as const,
      eventDay: '2026-11-25',
      priority: 'high' as const,
      recipient: agency.email,
      title: 'Payment due',
      message: 'A payment is due.',
    };
    await withTenant(t.database.db, agency.user.tenant_id, (tx) =>
      tx.insert(notificationHistory).values([
        { ...reminder, status: 'sent', attempts: 1 },
        { ...reminder, status: 'pending', attempts: 1 },
        { ...reminder, status: 'failed', attempts: 4 },
        { ...reminder, channel: 'in_app', status: 'sent' },
      ]),
    );

    const response = await asAdmin('GET', '/api/admin/system-health/');
    expect(response.statusCode).toBe(200);
    const health = response.json() as SystemHealth;
    expect(health.status).toBe('ok');
    expect(health.database).toMatchObject({ reachable: true, engine: t.database.engine });
    expect(health.database.latency_ms).toBeGreaterThanOrEqual(0);
    expect(health.database.version).toMatch(/^\d+/);
    expect(health.migrations.applied).toBe(health.migrations.expected);
    expect(health.migrations.expected).toBeGreaterThan(40);
    expect(health.job_queues).toEqual(
      expect.arrayContaining([
        { name: 'import', queued: 1, active: 0, failed_24h: 1 },
        // Failed two days ago: not within the last 24 hours.
        { name: 'notification-email', queued: 0, active: 0, failed_24h: 0 },
        { name: 'notification-generate', queued: 0, active: 0, failed_24h: 0 },
      ]),
    );
    expect(health.email).toMatchObject({
      smtp_configured: false,
      reminders_sent: 1,
      reminders_retrying: 1,
      reminders_failed: 1,
      account_failed: 1,
    });
    expect(health.process.rss_bytes).toBeGreaterThan(health.process.heap_used_bytes / 2);
    expect(health.process.node_version).toBe(process.version);
    expect(health.process.app_version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Date.parse(health.checked_at)).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('performance', () => {
  it('counts the requests to each route by its pattern, with percentiles within what they took', async () => {
    const requests = 12;
    for (let n = 0; n < requests; n++) {
      const response = await t.app.inject({ method: 'GET', url: `/api/timing-probe/label-${n}/` });
      expect(response.statusCode).toBe(200);
    }
    const response = await asAdmin('GET', '/api/admin/performance/?window=hour');
    expect(response.statusCode).toBe(200);
    const report = response.json() as PerformanceReport;
    expect(report.window).toBe('hour');
    const probe = report.routes.filter((route) => route.route.startsWith('/api/timing-probe/'));
    // One row for the route, however many URLs reached it.
    expect(probe).toHaveLength(1);
    const [figures] = probe;
    expect(figures).toMatchObject({
      method: 'GET',
      route: '/api/timing-probe/:label/',
      count: requests,
      errors: 0,
    });
    expect(figures?.p50_ms).toBeGreaterThanOrEqual(PROBE_DELAY_MS * 0.85);
    expect(figures?.p50_ms).toBeLessThanOrEqual(figures?.p95_ms ?? 0);
    expect(figures?.p95_ms).toBeLessThanOrEqual(figures?.p99_ms ?? 0);
    expect(figures?.p99_ms).toBeLessThanOrEqual(figures?.max_ms ?? 0);

    const day = (await asAdmin('GET', '/api/admin/performance/?window=day')).json() as PerformanceReport;
    expect(day.routes.find((route) => route.route === '/api/timing-probe/:label/')?.count).toBe(requests);
  });

  it.skipIf(serverUrl !== undefined)('says plainly that PGlite keeps no query statistics', async () => {
    const report = (await asAdmin('GET', '/api/admin/performance/')).json() as PerformanceReport;
    expect(report.slow_queries).toMatchObject({ available: false, queries: [] });
    expect(report.slow_queries.unavailable_reason).toMatch(/PGlite/);
  });

  it.skipIf(serverUrl === undefined)(
    'on PostgreSQL, lists the slowest statements, or says the server does not load the extension',
    async () => {
      const before = (await asAdmin('GET', '/api/admin/performance/')).json() as PerformanceReport;
      if (!before.slow_queries.available) {
        expect(before.slow_queries.unavailable_reason).toMatch(/not installed/);
      }
      await t.database.db.execute(sql`create extension if not exists pg_stat_statements`);
      const report = (await asAdmin('GET', '/api/admin/performance/')).json() as PerformanceReport;
      if (report.slow_queries.available) {
        expect(report.slow_queries.queries.length).toBeGreaterThan(0);
        for (const query of report.slow_queries.queries) expect(query.query.length).toBeLessThanOrEqual(300);
      } else {
        expect(report.slow_queries.unavailable_reason).toMatch(/shared_preload_libraries/);
      }
    },
  );

  it('refuses a window it does not know', async () => {
    expect((await asAdmin('GET', '/api/admin/performance/?window=week')).statusCode).toBe(400);
  });
});

describe('caches', () => {
  const tokenCache = async () => {
    const list = (await asAdmin('GET', '/api/admin/cache/')).json() as ServerCacheList;
    return list.caches.find((cache) => cache.name === 'verified-tokens') as ServerCache;
  };

  it('lists every cache, and counts hits as a signed-in user repeats requests', async () => {
    const list = (await asAdmin('GET', '/api/admin/cache/')).json() as ServerCacheList;
    expect(list.caches.map((cache) => cache.name)).toEqual(
      expect.arrayContaining(['statement-names', 'verified-tokens', 'policy-list', 'search', 'plan-access']),
    );
    const before = await tokenCache();
    for (let n = 0; n < 3; n++) await asAdmin('GET', '/api/admin/cache/');
    const after = await tokenCache();
    // The admin's own token was verified once and found three times more (and once by this read).
    expect(after.hits - before.hits).toBe(4);
    expect(after.entries).toBeGreaterThanOrEqual(1);
    expect(after.capacity).toBe(10_000);
    expect(after.hit_rate).toBeGreaterThan(0);
  });

  it('empties a cache, which the next request fills again, and records who cleared it', async () => {
    const response = await asAdmin('POST', '/api/admin/cache/verified-tokens/clear/');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ name: 'verified-tokens', entries: 0, hits: 0, misses: 0 });

    // The admin's token is verified again and kept.
    expect(await tokenCache()).toMatchObject({ entries: 1, misses: 1 });

    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'cache_cleared'));
    expect(audit).toMatchObject({
      tenantId: null,
      userId: adminId,
      actorEmail: 'ops@coverdesk.test',
      entity: 'cache',
      entityId: 'verified-tokens',
    });
  });

  it('answers 404 for a cache it does not keep', async () => {
    expect((await asAdmin('POST', '/api/admin/cache/no-such-cache/clear/')).statusCode).toBe(404);
  });
});
