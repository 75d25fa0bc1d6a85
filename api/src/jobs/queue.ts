import { type SQL, sql } from 'drizzle-orm';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { Transaction } from '../db/client.js';

/** Where pg-boss keeps its tables, beside the app's own in the same database. */
const JOB_SCHEMA = 'pgboss';

/** Every queue the app works; created with the schema, before any instance sends to them. */
export const QUEUES = ['import', 'notification-generate', 'notification-email'] as const;
export type QueueName = (typeof QUEUES)[number];

/**
 * pg-boss on the app's own pool rather than a pool of its own: on embedded PGlite that pool is the
 * one connection there is, and on PostgreSQL it keeps the app within the connections it was given.
 */
export function createJobQueue(pool: pg.Pool, options: PgBoss.ConstructorOptions = {}): PgBoss {
  return new PgBoss({
    db: { executeSql: (text, values) => pool.query(text, values) },
    schema: JOB_SCHEMA,
    // Only the scheduler (`startScheduler`) keeps pg-boss's cron clock; workers would only poll it.
    schedule: false,
    ...options,
  });
}

/** Creates or upgrades pg-boss's schema and the app's queues; run with the migrations. */
export async function installJobQueue(pool: pg.Pool): Promise<void> {
  const boss = createJobQueue(pool, { supervise: false });
  await boss.start();
  for (const name of QUEUES) {
    if (!(await boss.getQueue(name))) await boss.createQueue(name);
  }
  await boss.stop({ graceful: false, wait: true });
}

/**
 * Keeps pg-boss's cron clock, which sends each scheduled job once per tick however many instances
 * keep it (a row lock on the clock's last tick, then a singleton send), and (re)declares the
 * schedules. Run by the server process only, not by tests that build the app.
 */
export async function startScheduler(
  pool: pg.Pool,
  schedules: Partial<Record<QueueName, string>>,
  onError: (error: Error) => void,
): Promise<{ stop(): Promise<void> }> {
  const boss = createJobQueue(pool, { schedule: true, supervise: false });
  boss.on('error', onError);
  await boss.start();
  for (const [name, cron] of Object.entries(schedules)) await boss.schedule(name, cron);
  return { stop: () => boss.stop({ graceful: true, wait: true, timeout: 10_000 }) };
}

/**
 * pg-boss's statements run inside an open drizzle transaction, so that a job is sent if and only if
 * the transaction that asked for it commits. Its `$n` placeholders become drizzle parameters.
 */
export function inTransaction(tx: Transaction): PgBoss.Db {
  return {
    async executeSql(text, values = []) {
      const parts = text.split(/\$(\d+)/);
      const chunks: SQL[] = [];
      parts.forEach((part, index) => {
        chunks.push(index % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`);
      });
      const result = await tx.execute(sql.join(chunks));
      return { rows: result.rows };
    },
  };
}

/** Jobs a worker had taken when its process stopped; pg-boss would only retry them on expiry. */
export async function abandonedJobs<Data>(pool: pg.Pool, name: QueueName): Promise<Data[]> {
  const { rows } = await pool.query<{ data: Data }>(
    `select data from ${JOB_SCHEMA}.job where name = $1 and state = 'active'`,
    [name],
  );
  return rows.map((row) => row.data);
}
