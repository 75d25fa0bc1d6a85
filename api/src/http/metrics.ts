import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { jobCounts, QUEUES, type QueueCounts } from '../jobs/queue.js';
import { routeOf } from './route-timings.js';

/**
 * Prometheus metrics of one app. Each app has a registry of its own rather than prom-client's global
 * one: the API tests build many apps in one process, and a metric name may be registered only once
 * per registry.
 */

/** The route label of a request that matched no route, so made-up URLs add no series. */
export const UNMATCHED = 'unmatched';

/** Seconds. Past prom-client's default top of 10 s, since imports and PDFs may take two minutes. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/**
 * How long a scrape waits for the job counts. The count needs a connection from the app's pool, and
 * a pool worn out by load (or PGlite's single connection held by an import) must not stall the
 * scrape of everything else, least of all then. Half of Prometheus's default scrape timeout (10 s).
 */
const QUEUE_COUNT_TIMEOUT_MS = 5_000;

const QUEUE_STATES: QueueCounts['state'][] = ['queued', 'active', 'failed'];

type Pool = Pick<pg.Pool, 'query' | 'totalCount' | 'idleCount' | 'waitingCount'>;

/** Creates the app's registry and records every answered request in it. */
export function registerMetrics(app: FastifyInstance, pool: Pool, log: FastifyBaseLogger): Registry {
  const registry = new Registry();
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer, by route pattern.',
    labelNames: ['method', 'route', 'status_code'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const errors = new Counter({
    name: 'http_request_errors_total',
    help: 'Requests answered with a server error (5xx), by route pattern.',
    labelNames: ['method', 'route'],
    registers: [registry],
  });
  registerPoolGauges(registry, pool);
  registerQueueGauge(registry, pool, log);

  app.addHook('onResponse', async (request, reply) => {
    const route = routeOf(request) ?? UNMATCHED;
    duration.observe(
      { method: request.method, route, status_code: reply.statusCode },
      reply.elapsedTime / 1000,
    );
    if (reply.statusCode >= 500) errors.inc({ method: request.method, route });
  });
  return registry;
}

/** Read from node-postgres's pool at scrape time, so requests pay nothing for them. */
function registerPoolGauges(registry: Registry, pool: Pool): void {
  new Gauge({
    name: 'db_pool_connections_in_use',
    help: 'Database connections of this instance lent to a query or transaction.',
    registers: [registry],
    collect() {
      this.set(pool.totalCount - pool.idleCount);
    },
  });
  new Gauge({
    name: 'db_pool_connections_idle',
    help: 'Database connections of this instance open and free.',
    registers: [registry],
    collect() {
      this.set(pool.idleCount);
    },
  });
  new Gauge({
    name: 'db_pool_clients_waiting',
    help: 'Queries and transactions of this instance waiting for a free database connection.',
    registers: [registry],
    collect() {
      this.set(pool.waitingCount);
    },
  });
}

/**
 * The job queues as the database holds them, shared by every instance. When they cannot be read the
 * series are left out, so a dashboard shows no value rather than a stale one, and the rest of the
 * scrape still answers.
 */
function registerQueueGauge(registry: Registry, pool: Pool, log: FastifyBaseLogger): void {
  new Gauge({
    name: 'job_queue_jobs',
    help: 'Background jobs by queue and state: queued (waiting or to be retried), active, failed.',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      let counts: QueueCounts[];
      try {
        counts = await within(jobCounts(pool), QUEUE_COUNT_TIMEOUT_MS);
      } catch (err) {
        log.warn({ err }, 'metrics: could not count the background jobs');
        return;
      }
      // Every queue and state answers, at 0 when empty, so an alert on a series has one to read.
      for (const queue of QUEUES) for (const state of QUEUE_STATES) this.set({ queue, state }, 0);
      for (const { queue, state, count } of counts) this.set({ queue, state }, count);
    },
  });
}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export interface MetricsServer {
  /** The port it listens on; the one asked for, or the one picked for port 0. */
  port: number;
  close(): Promise<void>;
}

/** Registries already given the process's metrics; prom-client refuses to register them twice. */
const withProcessMetrics = new WeakSet<Registry>();

/**
 * Serves `GET /metrics` on a port of its own, so that the proxy publishing the app cannot publish
 * them. The process's own metrics (event-loop lag, memory, CPU) are added here rather than with the
 * registry: they start timers and monitors, which the tests' many apps have no use for.
 */
/** prom-client's default gauges whose `_total` suffix says counter. */
const MISNAMED_GAUGES = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

export async function startMetricsServer({
  registry,
  port,
  host,
}: {
  registry: Registry;
  port: number;
  host: string;
}): Promise<MetricsServer> {
  if (!withProcessMetrics.has(registry)) {
    collectDefaultMetrics({ register: registry });
    // Gauges named like counters, which `promtool check metrics` refuses; the gauges by type beside
    // them (nodejs_active_handles and the others) add up to the same.
    for (const name of MISNAMED_GAUGES) registry.removeSingleMetric(name);
    withProcessMetrics.add(registry);
  }
  const server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://metrics.invalid');
    if (request.method !== 'GET' || pathname !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    registry.metrics().then(
      (body) => response.writeHead(200, { 'content-type': registry.contentType }).end(body),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Prometheus keeps its connection open between scrapes; closing must not wait for it.
        server.closeAllConnections();
      }),
  };
}
