import { readFileSync } from 'node:fs';
import {
  cacheNameParams,
  detailResponse,
  performanceQuery,
  performanceReport,
  type ServerCache,
  type SystemHealth,
  serverCache,
  serverCacheList,
  systemHealth,
} from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { type ServerCache as Cache, findServerCache, listServerCaches } from '../../db/bounded-cache.js';
import { expectedMigrationCount } from '../../db/migrate.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { notFound } from '../../http/errors.js';
import { API_PACKAGE_JSON } from '../../paths.js';
import { users } from '../accounts/tables.js';
import { auditOrigin, recordAudit } from '../audit/record.js';
import {
  appliedMigrations,
  emailDelivery,
  jobQueueHealth,
  probeDatabase,
  slowestQueries,
} from './operations-queries.js';

const tags = ['admin'];

const appVersion = (JSON.parse(readFileSync(API_PACKAGE_JSON, 'utf8')) as { version: string }).version;

function processFigures(): SystemHealth['process'] {
  const memory = process.memoryUsage();
  return {
    rss_bytes: memory.rss,
    heap_used_bytes: memory.heapUsed,
    heap_total_bytes: memory.heapTotal,
    uptime_seconds: process.uptime(),
    node_version: process.version,
    app_version: appVersion,
  };
}

function cacheFigures({ name, description, cache }: Cache): ServerCache {
  const lookups = cache.hits + cache.misses;
  return {
    name,
    description,
    entries: cache.size,
    capacity: cache.limit,
    hits: cache.hits,
    misses: cache.misses,
    hit_rate: lookups === 0 ? null : cache.hits / lookups,
  };
}

/** How this server instance runs: its health, how fast it answers, and the caches it keeps. */
export const adminOperationRoutes =
  ({ config, db, databaseEngine, routeTimings }: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const expected = expectedMigrationCount();

    app.get(
      '/system-health/',
      {
        schema: {
          tags,
          summary: 'The database, migrations, job queues, email delivery and this server process',
          security: bearerAuth,
          response: { 200: systemHealth, 403: detailResponse },
        },
      },
      async (request) => {
        const checkedAt = new Date().toISOString();
        const engine = databaseEngine;
        try {
          const probe = await probeDatabase(db);
          const [applied, jobQueues, email] = await Promise.all([
            appliedMigrations(db),
            jobQueueHealth(db),
            emailDelivery(db),
          ]);
          return {
            checked_at: checkedAt,
            status: applied === expected ? 'ok' : 'degraded',
            database: { reachable: true, latency_ms: probe.latencyMs, engine, version: probe.version },
            migrations: { applied, expected },
            job_queues: jobQueues,
            email: { smtp_configured: config.smtpUrl !== undefined, ...email },
            process: processFigures(),
          } satisfies SystemHealth;
        } catch (err) {
          request.log.error({ err }, 'system health could not read the database');
          return {
            checked_at: checkedAt,
            status: 'degraded',
            database: { reachable: false, latency_ms: null, engine, version: null },
            migrations: { applied: null, expected },
            job_queues: null,
            email: null,
            process: processFigures(),
          } satisfies SystemHealth;
        }
      },
    );

    app.get(
      '/performance/',
      {
        schema: {
          tags,
          summary:
            "Each route's request count and latency percentiles on this server instance, and the slowest queries",
          security: bearerAuth,
          querystring: performanceQuery,
          response: { 200: performanceReport, 400: detailResponse, 403: detailResponse },
        },
      },
      async (request) => {
        const { window } = request.query;
        const slow = await slowestQueries(db, databaseEngine);
        return {
          window,
          instance_started_at: routeTimings.startedAt.toISOString(),
          checked_at: new Date().toISOString(),
          routes: routeTimings.figures(window).map((route) => ({
            method: route.method,
            route: route.route,
            count: route.count,
            errors: route.errors,
            p50_ms: route.p50Ms,
            p95_ms: route.p95Ms,
            p99_ms: route.p99Ms,
            max_ms: route.maxMs,
          })),
          slow_queries: slow.available
            ? { available: true, unavailable_reason: null, queries: slow.queries }
            : { available: false, unavailable_reason: slow.reason, queries: [] },
        };
      },
    );

    app.get(
      '/cache/',
      {
        schema: {
          tags,
          summary: 'The caches this server process keeps, with their sizes and hit rates',
          security: bearerAuth,
          response: { 200: serverCacheList, 403: detailResponse },
        },
      },
      async () => ({
        instance_started_at: routeTimings.startedAt.toISOString(),
        caches: listServerCaches().map(cacheFigures),
      }),
    );

    app.post(
      '/cache/:name/clear/',
      {
        schema: {
          tags,
          summary: 'Empty one cache of this server process; the next requests fill it again',
          security: bearerAuth,
          params: cacheNameParams,
          response: { 200: serverCache, 403: detailResponse, 404: detailResponse },
        },
      },
      async (request) => {
        const admin = signedInUser(request);
        const found = findServerCache(request.params.name);
        if (!found) throw notFound('No cache with this name.');
        const before = cacheFigures(found);
        const [actor] = await db.select({ email: users.email }).from(users).where(eq(users.id, admin.userId));
        // Recorded first: a clear that cannot be recorded does not happen.
        await recordAudit(db, auditOrigin(request), {
          tenantId: null,
          userId: admin.userId,
          actorEmail: actor?.email ?? null,
          action: 'cache_cleared',
          entity: 'cache',
          entityId: found.name,
          changes: { entries: { before: before.entries, after: 0 } },
        });
        found.cache.clear();
        return cacheFigures(found);
      },
    );
  };
