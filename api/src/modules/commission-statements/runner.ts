import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle, Transaction } from '../../db/client.js';
import { asConnectingRole, withTenant } from '../../db/tenant.js';
import { inTransaction, JobQueue, takeOverAbandoned } from '../../jobs/queue.js';
import { matchLines, saveLines } from './match.js';
import type { StatementFileLine } from './read-lines.js';
import { statementReadings } from './reading-tables.js';
import { commissionStatements } from './tables.js';

const QUEUE = 'commission-statement';

/**
 * Lines saved and matched per transaction. On embedded PGlite a transaction holds the only
 * connection, so every other request of every agency waits for it: a batch of this size takes
 * tens of milliseconds, so a 50,000-line statement never holds the database for more than a moment.
 */
export const LINES_PER_BATCH = 250;

/**
 * A reading not advanced for this long was left by an instance that died (a batch takes well under
 * a second): its job is sent again, and the reading goes on from its last saved batch. Taken over
 * too early costs only work: each batch locks the statement and starts where the reading stands.
 */
const ABANDONED_AFTER_SECONDS = 30;
const LOOK_FOR_ABANDONED_MS = 10_000;
const JOB_OPTIONS = { retryLimit: 3, expireInSeconds: 3600 };

export interface StatementJob {
  tenantId: string;
  statementId: string;
}

/** The instance is stopping: the reading stays where its last batch left it, and its job is sent again. */
class ReadingHandedBack extends Error {}

/** What the broker is told when the reading fails: the upload refused every file it cannot read. */
const UNEXPECTED =
  'The statement could not be read because of an unexpected error. Delete it and upload the file again; if it happens again, tell support.';

const yieldToOtherWork = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Matches uploaded commission statements as pg-boss jobs. The upload read the file and saved the
 * statement `processing` with the lines read (statement_readings); the job saves and matches them a
 * batch at a time, each
 * batch a transaction of its own that locks the statement and starts where its reading stands, so
 * two workers never save a line twice and one that takes over a stopped instance's job goes on
 * from the last batch saved. Then the statement is in review; a failure leaves it `failed`, with a
 * sentence for the broker.
 */
export class StatementRunner {
  private queue: JobQueue | undefined;
  private workerId: string | undefined;
  private stopping = false;
  private lookout: NodeJS.Timeout | undefined;
  private looking: Promise<void> | undefined;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    const queue = new JobQueue(this.database.pool);
    queue.boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
    await queue.boss.start();
    this.queue = queue;
    this.workerId = await queue.work<StatementJob>(QUEUE, { pollingIntervalSeconds: 1 }, async (jobs) => {
      for (const job of jobs) await this.run(job.data);
    });
    await this.sendAbandonedAgain(0);
    this.lookout = setInterval(() => {
      this.looking ??= this.sendAbandonedAgain(ABANDONED_AFTER_SECONDS).finally(() => {
        this.looking = undefined;
      });
    }, LOOK_FOR_ABANDONED_MS);
    this.lookout.unref();
  }

  /** Stops after the batch in progress, if any, and takes no more jobs. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.lookout);
    await this.looking;
    await this.queue?.stop();
    this.queue = undefined;
  }

  /** Queues the reading in the caller's transaction: the job exists if and only if it commits. */
  async enqueue(tx: Transaction, job: StatementJob): Promise<void> {
    if (!this.queue) throw new Error('the statement runner has not started');
    const { boss } = this.queue;
    // Jobs are platform rows, out of the tenant role's reach.
    await asConnectingRole(tx, () => boss.send(QUEUE, job, { db: inTransaction(tx), ...JOB_OPTIONS }));
  }

  /** Fetches queued jobs now rather than at the next poll; called once an enqueue has committed. */
  wake(): void {
    if (this.queue && this.workerId) this.queue.boss.notifyWorker(this.workerId);
  }

  private async sendAbandonedAgain(olderThanSeconds: number): Promise<void> {
    const queue = this.queue;
    if (!queue) return;
    try {
      const abandoned = await takeOverAbandoned<StatementJob>(
        this.database.pool,
        QUEUE,
        olderThanSeconds,
        // At start too: a reading another instance is advancing is not this one's to take.
        (job) => this.isAdvancing(job),
      );
      for (const job of abandoned) {
        this.log.warn(
          { statementId: job.statementId },
          'statement left by a stopped instance: reading it on',
        );
        await queue.boss.send(QUEUE, job, JOB_OPTIONS);
      }
    } catch (err) {
      this.log.error({ err }, 'could not look for abandoned statements');
    }
  }

  /** Whether the statement's reading saved a batch lately, so a live worker has it. */
  private async isAdvancing({ tenantId, statementId }: StatementJob): Promise<boolean> {
    const [reading] = await withTenant(this.database.db, tenantId, (tx) =>
      tx
        .select({ updatedAt: statementReadings.updatedAt })
        .from(statementReadings)
        .where(ofReading(tenantId, statementId)),
    );
    return !!reading && reading.updatedAt.getTime() > Date.now() - ABANDONED_AFTER_SECONDS * 1000;
  }

  /** Reads one statement; a failure of the reading is recorded on it, never thrown to the queue. */
  async run(job: StatementJob): Promise<void> {
    const { tenantId, statementId } = job;
    const { db } = this.database;
    const found = await withTenant(db, tenantId, async (tx) => {
      const [row] = await tx
        .select({
          lines: statementReadings.lines,
          companyId: commissionStatements.companyId,
          statementDate: commissionStatements.statementDate,
        })
        .from(statementReadings)
        .innerJoin(commissionStatements, eq(commissionStatements.id, statementReadings.statementId))
        .where(and(ofReading(tenantId, statementId), eq(commissionStatements.status, 'processing')));
      return row;
    });
    // Read already, failed, or deleted meanwhile.
    if (!found?.lines) return;
    const { lines, companyId, statementDate } = found;
    try {
      for (let start = 0; start < lines.length; start += LINES_PER_BATCH) {
        if (this.stopping) throw new ReadingHandedBack();
        const batch = lines.slice(start, start + LINES_PER_BATCH);
        const going = await withTenant(db, tenantId, (tx) =>
          this.saveBatch(tx, job, { companyId, statementDate, start, batch }),
        );
        if (!going) return;
        // Other requests' turn on the connection and the event loop, between batches.
        await yieldToOtherWork();
      }
      await withTenant(db, tenantId, async (tx) => {
        if (!(await lockedProcessing(tx, statementId))) return;
        await tx.delete(statementReadings).where(ofReading(tenantId, statementId));
        await tx
          .update(commissionStatements)
          .set({ status: 'review' })
          .where(eq(commissionStatements.id, statementId));
      });
    } catch (error) {
      if (error instanceof ReadingHandedBack && this.queue) {
        this.log.info({ statementId }, 'stopping: statement handed back to the queue');
        await this.queue.boss.send(QUEUE, job, JOB_OPTIONS);
        return;
      }
      this.log.error({ err: error, statementId }, 'statement reading failed');
      await withTenant(db, tenantId, (tx) => this.fail(tx, tenantId, statementId, UNEXPECTED));
    }
  }

  /**
   * Saves and matches one batch, unless the reading is past it (another worker did it) or the
   * statement is no longer processing (deleted meanwhile): answers whether to go on.
   */
  private async saveBatch(
    tx: Transaction,
    { tenantId, statementId }: StatementJob,
    work: { companyId: string; statementDate: string; start: number; batch: StatementFileLine[] },
  ): Promise<boolean> {
    if (!(await lockedProcessing(tx, statementId))) return false;
    const [reading] = await tx
      .select({ linesDone: statementReadings.linesDone })
      .from(statementReadings)
      .where(ofReading(tenantId, statementId));
    if (!reading) return false;
    const { batch, start } = work;
    if (reading.linesDone >= start + batch.length) return true;
    await saveLines(tx, tenantId, statementId, batch);
    await matchLines(tx, {
      statementId,
      companyId: work.companyId,
      statementDate: work.statementDate,
      first: batch[0]?.lineNumber ?? 0,
      last: batch[batch.length - 1]?.lineNumber ?? 0,
    });
    await tx
      .update(statementReadings)
      .set({ linesDone: start + batch.length, updatedAt: sql`now()` })
      .where(ofReading(tenantId, statementId));
    return true;
  }

  /** The statement failed: its lines saved so far are removed, its file dropped, and why it failed kept. */
  private async fail(tx: Transaction, tenantId: string, statementId: string, detail: string) {
    if (!(await lockedProcessing(tx, statementId))) return;
    await tx.execute(sql`delete from statement_lines where statement_id = ${statementId}::uuid`);
    await tx
      .update(statementReadings)
      .set({ lines: null, detail, updatedAt: sql`now()` })
      .where(ofReading(tenantId, statementId));
    await tx
      .update(commissionStatements)
      .set({ status: 'failed' })
      .where(eq(commissionStatements.id, statementId));
  }
}

const ofReading = (tenantId: string, statementId: string) =>
  and(eq(statementReadings.tenantId, tenantId), eq(statementReadings.statementId, statementId));

/** Locks the statement against another worker's batch and a delete; answers whether it is still processing. */
async function lockedProcessing(tx: Transaction, statementId: string): Promise<boolean> {
  const [statement] = await tx
    .select({ status: commissionStatements.status })
    .from(commissionStatements)
    .where(eq(commissionStatements.id, statementId))
    .for('update');
  return statement?.status === 'processing';
}
