import type { SlowQuery, SystemHealth } from '@coverdesk/contract';
import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { readAcrossAgencies } from '../../db/platform-read.js';
import { QUEUES } from '../../jobs/queue.js';
import { emailOutbox } from '../mail/tables.js';
import { notificationHistory } from '../notifications/tables.js';

/** How long a trivial query takes, and the server's version. */
export async function probeDatabase(db: Database): Promise<{ latencyMs: number; version: string }> {
  const started = performance.now();
  const { rows } = await db.execute<{ version: string }>(
    sql`select current_setting('server_version') as version`,
  );
  return { latencyMs: performance.now() - started, version: rows[0]?.version ?? '' };
}

export async function appliedMigrations(db: Database): Promise<number> {
  const { rows } = await db.execute<{ applied: number }>(
    sql`select count(*)::int as applied from drizzle.__drizzle_migrations`,
  );
  return rows[0]?.applied ?? 0;
}

/**
 * Each queue's waiting and running jobs, and those that failed for good in the last 24 hours:
 * pg-boss moves finished jobs from its job table to its archive after a while, so both are read.
 */
export async function jobQueueHealth(db: Database): Promise<NonNullable<SystemHealth['job_queues']>> {
  const { rows } = await db.execute<{ name: string; queued: number; active: number; failed_24h: number }>(sql`
    with jobs as (
      select name, state, completed_on from pgboss.job
      union all
      select name, state, completed_on from pgboss.archive where state = 'failed'
    )
    select name,
      count(*) filter (where state in ('created', 'retry'))::int as queued,
      count(*) filter (where state = 'active')::int as active,
      count(*) filter (where state = 'failed' and completed_on > now() - interval '24 hours')::int as failed_24h
    from jobs group by name`);
  const byName = new Map(rows.map((row) => [row.name, row]));
  return QUEUES.map((name) => {
    const row = byName.get(name);
    return { name, queued: row?.queued ?? 0, active: row?.active ?? 0, failed_24h: row?.failed_24h ?? 0 };
  });
}

/**
 * Emails of the last 24 hours. Reminders record every delivery, in every agency; account emails
 * (password resets and the like) are recorded only when they could not be sent.
 */
export async function emailDelivery(
  db: Database,
): Promise<Omit<NonNullable<SystemHealth['email']>, 'smtp_configured'>> {
  const since = sql`now() - interval '24 hours'`;
  const [reminders] = await readAcrossAgencies(db, (tx) =>
    tx
      .select({
        sent: sql<number>`count(*) filter (where ${notificationHistory.status} = 'sent')::int`,
        failed: sql<number>`count(*) filter (where ${notificationHistory.status} = 'failed')::int`,
        retrying: sql<number>`count(*) filter (where ${notificationHistory.status} = 'pending' and ${notificationHistory.attempts} > 0)::int`,
      })
      .from(notificationHistory)
      .where(and(eq(notificationHistory.channel, 'email'), gt(notificationHistory.createdAt, since))),
  );
  const outbox = await db
    .select({ status: emailOutbox.status, count: count() })
    .from(emailOutbox)
    .where(gt(emailOutbox.createdAt, since))
    .groupBy(emailOutbox.status);
  const outboxCount = (status: string) => outbox.find((row) => row.status === status)?.count ?? 0;
  return {
    reminders_sent: reminders?.sent ?? 0,
    reminders_failed: reminders?.failed ?? 0,
    reminders_retrying: reminders?.retrying ?? 0,
    account_failed: outboxCount('failed'),
    account_not_sent: outboxCount('not_configured'),
  };
}

const SLOW_QUERY_LIMIT = 20;
const QUERY_TEXT_LIMIT = 300;

export type SlowQueries = { available: true; queries: SlowQuery[] } | { available: false; reason: string };

/**
 * The statements that took longest on average, from pg_stat_statements when the server collects
 * them. Only detected, never set up: the extension needs the server's shared_preload_libraries.
 */
export async function slowestQueries(db: Database, engine: 'postgresql' | 'pglite'): Promise<SlowQueries> {
  if (engine === 'pglite') {
    return {
      available: false,
      reason:
        'The app runs on embedded PGlite, which does not collect query statistics (pg_stat_statements).',
    };
  }
  const { rows: installed } = await db.execute<{ installed: boolean }>(
    sql`select exists (select 1 from pg_extension where extname = 'pg_stat_statements') as installed`,
  );
  if (!installed[0]?.installed) {
    return {
      available: false,
      reason:
        'The pg_stat_statements extension is not installed in this database. A database administrator can add it to shared_preload_libraries and run CREATE EXTENSION pg_stat_statements.',
    };
  }
  try {
    const { rows } = await db.execute<{
      query: string;
      calls: number;
      mean_ms: number;
      total_ms: number;
    }>(sql`
      select left(regexp_replace(query, '\\s+', ' ', 'g'), ${QUERY_TEXT_LIMIT}) as query, calls::int as calls,
        mean_exec_time as mean_ms, total_exec_time as total_ms
      from pg_stat_statements
      where dbid = (select oid from pg_database where datname = current_database())
      order by mean_exec_time desc
      limit ${SLOW_QUERY_LIMIT}`);
    return {
      available: true,
      queries: rows.map((row) => ({ ...row, mean_ms: Number(row.mean_ms), total_ms: Number(row.total_ms) })),
    };
  } catch {
    return {
      available: false,
      reason:
        'The pg_stat_statements extension is installed but the server does not load it: it must be listed in shared_preload_libraries.',
    };
  }
}
