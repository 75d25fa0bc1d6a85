import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { type MetricsServer, registerMetrics, startMetricsServer } from './metrics.js';

/** The value of one series in Prometheus's text format, or undefined when the scrape lacks it. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((row) => row.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('Prometheus metrics', () => {
  let t: TestApp;
  let server: MetricsServer;
  const scrape = (path = '/metrics') => fetch(`http://127.0.0.1:${server.port}${path}`);

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.ready();
    server = await startMetricsServer({ registry: t.app.metrics, port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it('counts requests by route pattern and status, with the pool, the job queues and the process', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health/' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/no-such-thing/42/' })).statusCode).toBe(404);
    // An email due in an hour waits in the queue; one that ran out of retries has failed.
    await t.database.pool.query(
      `insert into pgboss.job (name, data, start_after, state)
       values ('notification-email', '{}', now() + interval '1 hour', 'created'),
              ('notification-email', '{}', now(), 'failed')`,
    );

    const response = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();

    expect(
      sample(
        text,
        'http_request_duration_seconds_count{method="GET",route="/api/health/",status_code="200"}',
      ),
    ).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"}'),
    ).toBe(1);
    // The made-up path itself never becomes a label.
    expect(text).not.toContain('no-such-thing');

    expect(sample(text, 'db_pool_connections_in_use')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'db_pool_connections_idle')).toBeGreaterThanOrEqual(0);
    // The app's own timers (revoked sessions, job polling) may be waiting for PGlite's one connection.
    expect(sample(text, 'db_pool_clients_waiting')).toBeGreaterThanOrEqual(0);
    for (const state of ['queued', 'active', 'failed']) {
      expect(sample(text, `job_queue_jobs{queue="import",state="${state}"}`)).toBe(0);
    }
    expect(sample(text, 'job_queue_jobs{queue="notification-email",state="queued"}')).toBe(1);
    expect(sample(text, 'job_queue_jobs{queue="notification-email",state="failed"}')).toBe(1);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    // Every gauge passes promtool's lint: none is named like a counter.
    const gauges = [...text.matchAll(/^# TYPE (\S+) gauge$/gm)].map((match) => match[1]);
    expect(gauges).toContain('nodejs_active_handles');
    expect(gauges.filter((name) => name?.endsWith('_total'))).toEqual([]);
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('answers nothing but GET /metrics', async () => {
    expect((await scrape('/')).status).toBe(404);
    expect((await scrape('/api/health/')).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});

describe('Prometheus metrics without the job queues', () => {
  it('still answers, with server errors counted, when the jobs cannot be counted', async () => {
    const app = Fastify({ logger: false });
    const brokenPool = {
      totalCount: 2,
      idleCount: 1,
      waitingCount: 0,
      query: () => Promise.reject(new Error('connection refused')),
    } as unknown as Parameters<typeof registerMetrics>[1];
    const registry = registerMetrics(app, brokenPool, app.log);
    app.get('/api/policies/:id/', async () => {
      throw new Error('the database went away');
    });
    await app.inject({ method: 'GET', url: '/api/policies/1/' });
    await app.inject({ method: 'GET', url: '/api/policies/2/' });

    const text = await registry.metrics();
    expect(sample(text, 'http_request_errors_total{method="GET",route="/api/policies/:id/"}')).toBe(2);
    expect(sample(text, 'db_pool_connections_in_use')).toBe(1);
    expect(text).not.toMatch(/^job_queue_jobs\{/m);
    await app.close();
  });
});
