import type { ImportKind, ImportRecord, ImportRowAction } from '@coverdesk/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle, Transaction } from '../../db/client.js';
import { withTenant } from '../../db/tenant.js';
import { HttpError } from '../../http/errors.js';
import { QueueRunner } from '../../jobs/runner.js';
import { JOB_ORIGIN, recordAudit } from '../audit/record.js';
import { agencyUserEmail } from '../audit/trail.js';
import { actAs } from '../leads/queries.js';
import { readImportFile } from './parse.js';
import { batchesOf, type RowOutcome, startPlan } from './plan.js';
import { assertImportFits, describeProblems, findImport, toRecord } from './queries.js';
import { type ImportFailure, imports } from './tables.js';

/**
 * An import's job active this long whose import nobody holds was left by an instance that died; it is
 * sent again. Taking one over too early costs only work, never a second write (the lock and the
 * status decide who writes), so this is short, but long enough that a worker between fetching its
 * job and taking the import's lock is seldom taken for a dead one. At start, every such job is taken.
 */
const ABANDONED_AFTER_SECONDS = 10;
const LOOK_FOR_ABANDONED_MS = 5_000;

/** The advisory lock a worker holds, for its whole transaction, on the import it writes. */
const importLock = (importId: string) => sql`hashtextextended(${importId}, 0)`;

export interface ImportJob {
  tenantId: string;
  importId: string;
}

/** The run of an import this process is working on, as its page polls it. */
interface LiveRun {
  tenantId: string;
  record: ImportRecord;
}

/** The record each kind of import writes, as the audit log names it. */
const IMPORTED_ENTITY = { customers: 'customer', policies: 'policy', leads: 'lead' } as const;

/**
 * An import is one row of the audit log, not one per record: who started it, the file, and what
 * it did. It runs as a job, so there is no request to name an address or request id.
 */
async function recordImport(
  tx: Transaction,
  tenantId: string,
  run: { id: string; kind: ImportKind; fileName: string; startedBy: string | null },
  tally: Tally,
) {
  const { create, update, skip } = tally.counts;
  await recordAudit(tx, JOB_ORIGIN, {
    tenantId,
    userId: run.startedBy,
    actorEmail: run.startedBy ? await agencyUserEmail(tx, run.startedBy) : null,
    action: 'import',
    entity: IMPORTED_ENTITY[run.kind],
    entityId: run.id,
    reason: `${run.fileName}: ${create} created, ${update} updated, ${skip} skipped.`,
  });
}

const isFailure = (outcome: RowOutcome) => outcome.action === 'fail';

/** What became of an import's rows so far: how many of each, and the failed rows with their problems. */
class Tally {
  readonly counts: Record<ImportRowAction, number> = { create: 0, update: 0, skip: 0, fail: 0 };
  readonly failures: RowOutcome[] = [];

  get failed() {
    return this.counts.fail;
  }

  count(outcomes: RowOutcome[]) {
    for (const outcome of outcomes) {
      this.counts[outcome.action] += 1;
      if (outcome.action === 'fail') this.failures.push(outcome);
    }
  }

  /** Updates refused while writing (a policy with payments): planned as updates, now failures. */
  refuse(refused: RowOutcome[]) {
    this.counts.update -= refused.length;
    this.count(refused);
  }
}

/** The instance is stopping: the import's transaction is rolled back and its job sent again for another. */
class ImportHandedBack extends Error {}

/** Ends the import's transaction without a write, with what its page should say. */
class ImportRefused extends Error {
  constructor(
    readonly detail: string,
    readonly tally: Tally = new Tally(),
  ) {
    super(detail);
  }
}

/** A refusal the API would answer with (a plan limit, a file past a bound) ends the import with its words. */
function refusedWhenAnswered(error: unknown): never {
  if (error instanceof HttpError) throw new ImportRefused(String(error.body.detail));
  throw error;
}

/**
 * Runs imports as pg-boss jobs on the app's own database. An import is one transaction: all of its
 * rows are written, or (all-or-nothing with a bad row, a plan limit, a crash) none. The transaction
 * first takes an advisory lock on the import, so two workers never run the same import at once, and
 * reads its status, so a job delivered again after the import finished does nothing: a file is
 * imported once. An instance that stops hands its import back (rolled back, the job sent again); one
 * killed mid-import leaves its job active, and the instances still running send it again once it has
 * been active a few seconds with nobody holding its lock (`takeOverAbandoned`), as does the next
 * instance to start.
 */
export class ImportRunner extends QueueRunner<ImportJob> {
  private readonly live = new Map<string, LiveRun>();

  constructor(database: DatabaseHandle, log: FastifyBaseLogger) {
    super(database, log, {
      queue: 'import',
      what: 'import',
      abandonedAfterSeconds: ABANDONED_AFTER_SECONDS,
      lookForAbandonedMs: LOOK_FOR_ABANDONED_MS,
    });
  }

  /** Whether a worker holds the import's lock now, i.e. is writing it. */
  protected async isTaken({ importId }: ImportJob): Promise<boolean> {
    return this.database.db.transaction(async (tx) => {
      const { rows } = await tx.execute<{ free: boolean }>(
        sql`select pg_try_advisory_xact_lock(${importLock(importId)}) as free`,
      );
      return !rows[0]?.free;
    });
  }

  /** An import running in this process, with its progress; only to its own agency. */
  progressOf(tenantId: string, importId: string): ImportRecord | undefined {
    const run = this.live.get(importId);
    return run?.tenantId === tenantId ? run.record : undefined;
  }

  /** Runs one import; a failure of the import itself is recorded on it, never thrown to the queue. */
  async run({ tenantId, importId }: ImportJob): Promise<void> {
    const { db } = this.database;
    const found = await withTenant(db, tenantId, async (tx) => {
      const row = await findImport(tx, tenantId, importId);
      if (!row || (row.status !== 'queued' && row.status !== 'running')) return undefined;
      await tx
        .update(imports)
        .set({ status: 'running', updatedAt: sql`now()` })
        .where(and(eq(imports.tenantId, tenantId), eq(imports.id, importId)));
      const [{ file } = { file: Buffer.alloc(0) }] = await tx
        .select({ file: imports.file })
        .from(imports)
        .where(and(eq(imports.tenantId, tenantId), eq(imports.id, importId)));
      return { row: { ...row, status: 'running' as const }, file };
    });
    if (!found) return;
    const record = toRecord(found.row);
    this.live.set(importId, { tenantId, record });
    const tally = new Tally();
    try {
      await withTenant(db, tenantId, async (tx) => {
        const [{ locked } = { locked: false }] = (
          await tx.execute<{ locked: boolean }>(
            sql`select pg_try_advisory_xact_lock(${importLock(importId)}) as locked`,
          )
        ).rows;
        // Another worker holds it: that one finishes the import.
        if (!locked) return;
        const current = await findImport(tx, tenantId, importId);
        if (current?.status !== 'running') return;
        if (found.row.startedBy) await actAs(tx, found.row.startedBy);
        await assertImportFits(tx, tenantId, found.row).catch(refusedWhenAnswered);
        const { allOrNothing } = found.row;
        const planner = await startPlan(tx, tenantId, found.row.kind, found.row);
        // Under all-or-nothing a bad row ends the writing, but the rest of the file is still checked
        // so that the broker sees every bad row at once.
        const stopped = () => allOrNothing && tally.failed > 0;
        await readImportFile(found.file, async ({ rows }) => {
          // Each batch is written while the next is read and planned; at most two are held at once.
          let writing: Promise<void> = Promise.resolve();
          for await (const batch of batchesOf(rows)) {
            if (this.stopping) throw new ImportHandedBack();
            const plan = await planner.plan(batch);
            // Built while the batch before is still being written, so the database need not wait for it.
            const write =
              stopped() || (allOrNothing && plan.outcomes.some(isFailure)) ? undefined : plan.prepare();
            await writing;
            tally.count(plan.outcomes);
            record.processed_rows += batch.length;
            if (!write || stopped()) continue;
            writing = write(tx).then((refused) => tally.refuse(refused));
            // Awaited at the next batch or after the last; until then a failure must not count as unhandled.
            writing.catch(() => {});
          }
          await writing;
        }).catch(refusedWhenAnswered);
        if (allOrNothing && tally.failed > 0) throw this.refusal(tally);
        await planner.finish(tx);
        await this.finish(tx, tenantId, importId, found.row.kind, 'done', tally, '');
        await recordImport(tx, tenantId, found.row, tally);
      });
    } catch (error) {
      if (error instanceof ImportHandedBack) {
        this.log.info({ importId }, 'stopping: import handed back to the queue');
        await this.sendAgain({ tenantId, importId });
        return;
      }
      const refusal =
        error instanceof ImportRefused
          ? error
          : new ImportRefused('The import stopped on an unexpected error. Nothing was imported.');
      if (!(error instanceof ImportRefused)) this.log.error({ err: error, importId }, 'import failed');
      await withTenant(db, tenantId, (tx) =>
        this.finish(tx, tenantId, importId, found.row.kind, 'failed', refusal.tally, refusal.detail),
      );
    } finally {
      this.live.delete(importId);
    }
  }

  private refusal(tally: Tally) {
    const bad = tally.failed;
    const rows = bad === 1 ? '1 row has problems' : `${bad.toLocaleString('en-US')} rows have problems`;
    return new ImportRefused(
      `${rows}, and this import was set to all or nothing, so nothing was imported. Download the failed rows, fix them and upload the file again, or let the import skip bad rows.`,
      tally,
    );
  }

  /** Records how the import ended; an import that failed wrote nothing and counts only its failures. */
  private async finish(
    tx: Transaction,
    tenantId: string,
    importId: string,
    kind: Parameters<typeof describeProblems>[0],
    status: 'done' | 'failed',
    tally: Tally,
    detail: string,
  ) {
    const failures: ImportFailure[] = tally.failures
      .map((outcome) => ({ row: outcome.row, problems: describeProblems(kind, outcome.errors) }))
      .sort((a, b) => a.row - b.row);
    const written = status === 'done';
    await tx
      .update(imports)
      .set({
        status,
        created: written ? tally.counts.create : 0,
        updated: written ? tally.counts.update : 0,
        skipped: written ? tally.counts.skip : 0,
        failed: tally.failed,
        failures,
        detail,
        finishedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(imports.tenantId, tenantId), eq(imports.id, importId)));
  }
}
