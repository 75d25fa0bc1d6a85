import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle, Transaction } from '../../db/client.js';
import { withTenant } from '../../db/tenant.js';
import { QueueRunner } from '../../jobs/runner.js';
import { matchLines, saveLines } from './match.js';
import type { StatementFileLine } from './read-lines.js';
import { statementReadings } from './reading-tables.js';
import { commissionStatements } from './tables.js';

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
export class StatementRunner extends QueueRunner<StatementJob> {
  constructor(database: DatabaseHandle, log: FastifyBaseLogger) {
    super(database, log, {
      queue: 'commission-statement',
      what: 'statement',
      abandonedAfterSeconds: ABANDONED_AFTER_SECONDS,
      lookForAbandonedMs: LOOK_FOR_ABANDONED_MS,
    });
  }

  /** Whether the statement's reading saved a batch lately, so a live worker has it. */
  protected async isTaken({ tenantId, statementId }: StatementJob): Promise<boolean> {
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
      if (error instanceof ReadingHandedBack) {
        this.log.info({ statementId }, 'stopping: statement handed back to the queue');
        await this.sendAgain(job);
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
