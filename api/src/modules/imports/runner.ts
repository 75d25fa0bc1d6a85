import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { ImportRecord, UsageMetric } from '@coverdesk/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { DatabaseHandle, Transaction } from '../../db/client.js';
import { asConnectingRole, withTenant } from '../../db/tenant.js';
import { HttpError } from '../../http/errors.js';
import { abandonedJobs, createJobQueue, inTransaction } from '../../jobs/queue.js';
import { assertBelowLimit } from '../billing/usage.js';
import { actAs } from '../leads/queries.js';
import { parseImportFile } from './parse.js';
import type { RowOutcome } from './plan.js';
import { describeProblems, findImport, planStoredImport, toRecord } from './queries.js';
import { type ImportFailure, imports } from './tables.js';

const QUEUE = 'import';

export interface ImportJob {
  tenantId: string;
  importId: string;
}

/** The run of an import this process is working on, as its page polls it. */
interface LiveRun {
  tenantId: string;
  record: ImportRecord;
}

/** Ends the import's transaction without a write, with what its page should say. */
class ImportRefused extends Error {
  constructor(
    readonly detail: string,
    readonly outcomes: RowOutcome[] = [],
  ) {
    super(detail);
  }
}

const METRICS: UsageMetric[] = ['customers', 'policies', 'leads'];

/**
 * Runs imports as pg-boss jobs on the app's own database. An import is one transaction: all of its
 * rows are written, or (all-or-nothing with a bad row, a plan limit, a crash) none. The transaction
 * first takes an advisory lock on the import, so two workers never run the same import at once, and
 * reads its status, so a job delivered again after the import finished does nothing: a file is
 * imported once. A process killed mid-import leaves its job active; the next start sends those jobs
 * again instead of waiting for pg-boss's expiry.
 */
export class ImportRunner {
  private boss: PgBoss | undefined;
  private workerId: string | undefined;
  private readonly live = new Map<string, LiveRun>();

  constructor(
    private readonly database: DatabaseHandle,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    const boss = createJobQueue(this.database.pool);
    boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
    await boss.start();
    this.boss = boss;
    this.workerId = await boss.work<ImportJob>(QUEUE, { pollingIntervalSeconds: 1 }, async (jobs) => {
      for (const job of jobs) await this.run(job.data);
    });
    for (const job of await abandonedJobs<ImportJob>(this.database.pool, QUEUE)) {
      await boss.send(QUEUE, job);
    }
  }

  async stop(): Promise<void> {
    await this.boss?.stop({ graceful: true, wait: true, timeout: 10_000 });
    this.boss = undefined;
  }

  /** Queues the import in the caller's transaction: the job exists if and only if it commits. */
  async enqueue(tx: Transaction, job: ImportJob): Promise<void> {
    if (!this.boss) throw new Error('the import runner has not started');
    const boss = this.boss;
    // Jobs are platform rows, out of the tenant role's reach.
    await asConnectingRole(tx, () =>
      boss.send(QUEUE, job, { db: inTransaction(tx), retryLimit: 3, expireInSeconds: 3600 }),
    );
  }

  /** Fetches queued jobs now rather than at the next poll; called once an enqueue has committed. */
  wake(): void {
    if (this.boss && this.workerId) this.boss.notifyWorker(this.workerId);
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
    try {
      const parsed = await parseImportFile(found.file);
      const progress = async (done: number) => {
        record.processed_rows = done;
        await yieldToRequests();
      };
      await withTenant(db, tenantId, async (tx) => {
        const [{ locked } = { locked: false }] = (
          await tx.execute<{ locked: boolean }>(
            sql`select pg_try_advisory_xact_lock(hashtextextended(${importId}, 0)) as locked`,
          )
        ).rows;
        // Another worker holds it: that one finishes the import.
        if (!locked) return;
        const current = await findImport(tx, tenantId, importId);
        if (current?.status !== 'running') return;
        if (found.row.startedBy) await actAs(tx, found.row.startedBy);
        const plan = await planStoredImport(tx, tenantId, found.row, parsed, progress);
        for (const metric of METRICS) {
          await assertBelowLimit(tx, tenantId, metric, plan.adds[metric] ?? 0).catch((error) => {
            if (error instanceof HttpError) throw new ImportRefused(String(error.body.detail));
            throw error;
          });
        }
        const bad = plan.outcomes.filter((outcome) => outcome.action === 'fail');
        if (found.row.allOrNothing && bad.length > 0) throw this.refusal(plan.outcomes, bad.length);
        record.processed_rows = parsed.rows.length;
        const refused = await plan.write(tx);
        if (found.row.allOrNothing && refused.length > 0) throw this.refusal(plan.outcomes, refused.length);
        const refusedRows = new Set(refused.map((outcome) => outcome.row));
        const outcomes = [...plan.outcomes.filter((outcome) => !refusedRows.has(outcome.row)), ...refused];
        await this.finish(tx, tenantId, importId, found.row.kind, 'done', outcomes, '');
      });
    } catch (error) {
      const refusal =
        error instanceof ImportRefused
          ? error
          : new ImportRefused('The import stopped on an unexpected error. Nothing was imported.');
      if (!(error instanceof ImportRefused)) this.log.error({ err: error, importId }, 'import failed');
      await withTenant(db, tenantId, (tx) =>
        this.finish(tx, tenantId, importId, found.row.kind, 'failed', refusal.outcomes, refusal.detail),
      );
    } finally {
      this.live.delete(importId);
    }
  }

  private refusal(outcomes: RowOutcome[], bad: number) {
    const rows = bad === 1 ? '1 row has problems' : `${bad.toLocaleString('en-US')} rows have problems`;
    return new ImportRefused(
      `${rows}, and this import was set to all or nothing, so nothing was imported. Download the failed rows, fix them and upload the file again, or let the import skip bad rows.`,
      outcomes.map((outcome) => (outcome.action === 'fail' ? outcome : { ...outcome, action: 'skip' })),
    );
  }

  /** Records how the import ended; under all-or-nothing a refused import counts only its failures. */
  private async finish(
    tx: Transaction,
    tenantId: string,
    importId: string,
    kind: Parameters<typeof describeProblems>[0],
    status: 'done' | 'failed',
    outcomes: RowOutcome[],
    detail: string,
  ) {
    const counts = { create: 0, update: 0, skip: 0, fail: 0 };
    const failures: ImportFailure[] = [];
    for (const outcome of outcomes) {
      counts[outcome.action] += 1;
      if (outcome.action === 'fail')
        failures.push({ row: outcome.row, problems: describeProblems(kind, outcome.errors) });
    }
    failures.sort((a, b) => a.row - b.row);
    const written = status === 'done';
    await tx
      .update(imports)
      .set({
        status,
        created: written ? counts.create : 0,
        updated: written ? counts.update : 0,
        skipped: written ? counts.skip : 0,
        failed: counts.fail,
        failures,
        detail,
        finishedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(imports.tenantId, tenantId), eq(imports.id, importId)));
  }
}
