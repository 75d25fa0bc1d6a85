import { type SQL, sql } from 'drizzle-orm';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { Transaction } from '../db/client.js';

/** Where pg-boss keeps its tables, beside the app's own in the same database. */
const JOB_SCHEMA = 'pgboss';

/** Every queue the app works; created with the schema, before any instance sends to them. */
export const QUEUES = [
  'import',
  'commission-statement',
  'notification-generate',
  'notification-email',
] as const;
export type QueueName = (typeof QUEUES)[number];

/**
 * pg-boss on the app's own pool rather than a pool of its own: on embedded PGlite that pool is the
 * one connection there is, and on PostgreSQL it keeps the app within the connections it was given.
 *
 * pg-boss's own `stop()` resolves while a worker's fetch may still be on its way back, and it
 * completes or fails a job without awaiting the statement; the handler of a job fetched that late
 * would run, and those statements be sent, after the app has closed the pool. So every statement
 * and every handler run goes through here, and `stop()` returns once none is left.
 */
export class JobQueue {
  readonly boss: PgBoss;
  private readonly running = new Set<Promise<unknown>>();

  constructor(pool: Pick<pg.Pool, 'query'>, options: PgBoss.ConstructorOptions = {}) {
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => this.track(pool.query(text, values)) },
      schema: JOB_SCHEMA,
      // Only the scheduler (`startScheduler`) keeps pg-boss's cron clock; workers would only poll it.
      schedule: false,
      ...options,
    });
  }

  /**
   * `boss.work`, with each run of the handler awaited by `stop`. A worker that found a job looks
   * for the next one at once: pg-boss would wait out its polling interval after every job, so a
   * queue of 40 emails took 40 seconds and a broker's test email waited behind them.
   */
  async work<Data>(
    name: QueueName,
    options: PgBoss.WorkOptions,
    handler: PgBoss.WorkHandler<Data>,
  ): Promise<string> {
    let workerId: string | undefined;
    workerId = await this.boss.work<Data>(name, options, async (jobs) => {
      try {
        return await this.track(handler(jobs));
      } finally {
        if (workerId) this.boss.notifyWorker(workerId);
      }
    });
    return workerId;
  }

  async stop(options: PgBoss.StopOptions = { graceful: true, wait: true, timeout: 10_000 }): Promise<void> {
    await this.boss.stop(options);
    // A fetch's answer starts its handler, and a handler's end sends its completion, in the same
    // turn of the event loop; once a whole turn passes with nothing running, nothing will start.
    while (this.running.size > 0) {
      await Promise.allSettled(this.running);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.running.add(work);
    const settled = () => this.running.delete(work);
    work.then(settled, settled);
    return work;
  }
}

/** Creates or upgrades pg-boss's schema and the app's queues; run by the migrations, under their lock. */
export async function installJobQueue(connection: Pick<pg.Pool, 'query'>): Promise<void> {
  const queue = new JobQueue(connection, { supervise: false });
  await queue.boss.start();
  for (const name of QUEUES) {
    if (!(await queue.boss.getQueue(name))) await queue.boss.createQueue(name);
  }
  await queue.stop({ graceful: false, wait: true });
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
  const queue = new JobQueue(pool, { schedule: true, supervise: false });
  queue.boss.on('error', onError);
  await queue.boss.start();
  for (const [name, cron] of Object.entries(schedules)) await queue.boss.schedule(name, cron);
  return queue;
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

/**
 * Jobs taken by a worker that no longer works on them: its process was killed, or lost its
 * database connection. pg-boss would only notice on the job's expiry, an hour on. A job counts as
 * abandoned once it has been active `olderThanSeconds` and `stillWorked` says nobody holds it; each
 * is closed here and its data returned, to be sent again. Closing it is one update on an active job,
 * so of several instances looking at once, one alone takes it over.
 */
export async function takeOverAbandoned<Data>(
  pool: pg.Pool,
  name: QueueName,
  olderThanSeconds: number,
  stillWorked: (data: Data) => Promise<boolean>,
): Promise<Data[]> {
  const { rows } = await pool.query<{ id: string; data: Data }>(
    `select id, data from ${JOB_SCHEMA}.job
      where name = $1 and state = 'active' and started_on < now() - make_interval(secs => $2)`,
    [name, olderThanSeconds],
  );
  const taken: Data[] = [];
  for (const job of rows) {
    if (await stillWorked(job.data)) continue;
    const closed = await pool.query(
      `update ${JOB_SCHEMA}.job set state = 'completed', completed_on = now(), output = '{"taken_over": true}'::jsonb
        where name = $1 and id = $2 and state = 'active'`,
      [name, job.id],
    );
    if (closed.rowCount === 1) taken.push(job.data);
  }
  return taken;
}

export interface QueueCounts {
  queue: string;
  state: 'queued' | 'active' | 'failed';
  count: number;
}

/**
 * How many jobs each queue holds that wait (new, or failed with a retry to come), run, or failed for
 * good, in one statement. Completed and cancelled jobs are left out: pg-boss keeps them for days and
 * they need no one.
 */
export async function jobCounts(pool: Pick<pg.Pool, 'query'>): Promise<QueueCounts[]> {
  const { rows } = await pool.query<QueueCounts>(
    `select name as queue,
            case when state in ('created', 'retry') then 'queued' else state::text end as state,
            count(*)::int as count
       from ${JOB_SCHEMA}.job
      where state in ('created', 'retry', 'active', 'failed')
      group by 1, 2`,
  );
  return rows;
}
