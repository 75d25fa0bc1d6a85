import { z } from 'zod';

/** How the platform runs: the admin's system-health, performance and cache screens. */

export const DATABASE_ENGINES = ['postgresql', 'pglite'] as const;
export const DATABASE_ENGINE_LABELS: Record<(typeof DATABASE_ENGINES)[number], string> = {
  postgresql: 'PostgreSQL',
  pglite: 'PGlite (embedded)',
};

const count = z.number().int();

export const jobQueueHealth = z.object({
  name: z.string(),
  /** Waiting to be worked: new, or waiting to be tried again. */
  queued: count,
  /** Being worked now. */
  active: count,
  /** Failed for good in the last 24 hours. */
  failed_24h: count,
});

export const systemHealth = z.object({
  checked_at: z.string(),
  /** `ok` when the database answers and every migration is applied. */
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    reachable: z.boolean(),
    /** How long a trivial query took, in milliseconds; null when unreachable. */
    latency_ms: z.number().nullable(),
    engine: z.enum(DATABASE_ENGINES),
    /** The server's version, "16.4"; null when unreachable. */
    version: z.string().nullable(),
  }),
  migrations: z.object({ applied: count.nullable(), expected: count }),
  /** Null when the database could not be read. */
  job_queues: z.array(jobQueueHealth).nullable(),
  /** Emails of the last 24 hours; null when the database could not be read. */
  email: z
    .object({
      smtp_configured: z.boolean(),
      /** Reminder emails, which record every delivery. */
      reminders_sent: count,
      reminders_failed: count,
      /** Tried, refused, and waiting for another try. */
      reminders_retrying: count,
      /** Account emails (password resets, invitations) the mail server refused; sent ones are not recorded. */
      account_failed: count,
      /** Account emails kept in the outbox because no SMTP server is set up. */
      account_not_sent: count,
    })
    .nullable(),
  process: z.object({
    rss_bytes: count,
    heap_used_bytes: count,
    heap_total_bytes: count,
    uptime_seconds: z.number(),
    node_version: z.string(),
    app_version: z.string(),
  }),
});
export type SystemHealth = z.infer<typeof systemHealth>;

export const PERFORMANCE_WINDOWS = ['hour', 'day'] as const;
export type PerformanceWindow = (typeof PERFORMANCE_WINDOWS)[number];
export const PERFORMANCE_WINDOW_LABELS: Record<PerformanceWindow, string> = {
  hour: 'Last hour',
  day: 'Last day',
};

export const performanceQuery = z.object({
  window: z.enum(PERFORMANCE_WINDOWS, { error: 'Choose hour or day.' }).default('hour'),
});

export const routePerformance = z.object({
  method: z.string(),
  /** The route's pattern, "/api/customers/:id/", never a raw URL. */
  route: z.string(),
  count,
  /** Answers with a server error (5xx). */
  errors: count,
  p50_ms: z.number(),
  p95_ms: z.number(),
  p99_ms: z.number(),
  max_ms: z.number(),
});
export type RoutePerformance = z.infer<typeof routePerformance>;

export const slowQuery = z.object({
  /** The statement's text, cut to a readable length. */
  query: z.string(),
  calls: count,
  mean_ms: z.number(),
  total_ms: z.number(),
});
export type SlowQuery = z.infer<typeof slowQuery>;

export const performanceReport = z.object({
  window: z.enum(PERFORMANCE_WINDOWS),
  /** When this server instance started counting: the figures are its own, since then. */
  instance_started_at: z.string(),
  checked_at: z.string(),
  routes: z.array(routePerformance),
  slow_queries: z.object({
    available: z.boolean(),
    /** Why the slowest queries cannot be shown, in words for the admin; null when they can. */
    unavailable_reason: z.string().nullable(),
    queries: z.array(slowQuery),
  }),
});
export type PerformanceReport = z.infer<typeof performanceReport>;

export const serverCache = z.object({
  name: z.string(),
  description: z.string(),
  entries: count,
  capacity: count,
  hits: count,
  misses: count,
  /** Hits over lookups, 0 to 1; null before the first lookup. */
  hit_rate: z.number().nullable(),
});
export type ServerCache = z.infer<typeof serverCache>;

export const serverCacheList = z.object({
  /** The figures are this server instance's, since it started or the cache was last cleared. */
  instance_started_at: z.string(),
  caches: z.array(serverCache),
});
export type ServerCacheList = z.infer<typeof serverCacheList>;

export const cacheNameParams = z.object({ name: z.string().max(100) });
