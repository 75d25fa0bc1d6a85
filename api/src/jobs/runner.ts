import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle, Transaction } from '../db/client.js';
import { asConnectingRole } from '../db/tenant.js';
import { inTransaction, JobQueue, type QueueName, takeOverAbandoned } from './queue.js';

export interface RunnerSettings {
  queue: QueueName;
  /** What a job works, for the logs ("import", "statement"). */
  what: string;
  /** A job active this long that no live worker has (`isTaken`) was left by a stopped instance. */
  abandonedAfterSeconds: number;
  lookForAbandonedMs: number;
}

const JOB_OPTIONS = { retryLimit: 3, expireInSeconds: 3600 };

/**
 * A queue of jobs this instance works, one at a time, on the app's own database: jobs are queued in
 * the caller's transaction (they exist if and only if it commits), fetched at once when woken, and
 * a lookout sends again those an instance that died left active, as does the next instance to start.
 * A job taken over too early costs only work: each kind of job says how a live worker holds one
 * (`isTaken`) and writes nothing twice.
 */
export abstract class QueueRunner<Job extends object> {
  protected queue: JobQueue | undefined;
  /** Set once stopping: a job in progress hands itself back (`sendAgain`) at its next safe point. */
  protected stopping = false;
  private workerId: string | undefined;
  private lookout: NodeJS.Timeout | undefined;
  private looking: Promise<void> | undefined;

  constructor(
    protected readonly database: DatabaseHandle,
    protected readonly log: FastifyBaseLogger,
    private readonly settings: RunnerSettings,
  ) {}

  /** Works one job; a failure of the work itself is recorded on its record, never thrown to the queue. */
  abstract run(job: Job): Promise<void>;

  /** Whether a live worker has the job now. */
  protected abstract isTaken(job: Job): Promise<boolean>;

  async start(): Promise<void> {
    const queue = new JobQueue(this.database.pool);
    queue.boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
    await queue.boss.start();
    this.queue = queue;
    this.workerId = await queue.work<Job>(
      this.settings.queue,
      { pollingIntervalSeconds: 1 },
      async (jobs) => {
        for (const job of jobs) await this.run(job.data);
      },
    );
    await this.sendAbandonedAgain(0);
    this.lookout = setInterval(() => {
      this.looking ??= this.sendAbandonedAgain(this.settings.abandonedAfterSeconds).finally(() => {
        this.looking = undefined;
      });
    }, this.settings.lookForAbandonedMs);
    this.lookout.unref();
  }

  /** Hands back the job in progress, if any, and takes no more. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.lookout);
    await this.looking;
    await this.queue?.stop();
    this.queue = undefined;
  }

  /** Queues the job in the caller's transaction: the job exists if and only if it commits. */
  async enqueue(tx: Transaction, job: Job): Promise<void> {
    if (!this.queue) throw new Error(`the ${this.settings.what} runner has not started`);
    const { boss } = this.queue;
    // Jobs are platform rows, out of the tenant role's reach.
    await asConnectingRole(tx, () =>
      boss.send(this.settings.queue, job, { db: inTransaction(tx), ...JOB_OPTIONS }),
    );
  }

  /** Fetches queued jobs now rather than at the next poll; called once an enqueue has committed. */
  wake(): void {
    if (this.queue && this.workerId) this.queue.boss.notifyWorker(this.workerId);
  }

  /** Sends the job to the queue again, for this instance or another to take up. */
  protected async sendAgain(job: Job): Promise<void> {
    await this.queue?.boss.send(this.settings.queue, job, JOB_OPTIONS);
  }

  private async sendAbandonedAgain(olderThanSeconds: number): Promise<void> {
    if (!this.queue) return;
    const { queue, what } = this.settings;
    try {
      const abandoned = await takeOverAbandoned<Job>(this.database.pool, queue, olderThanSeconds, (job) =>
        this.isTaken(job),
      );
      for (const job of abandoned) {
        this.log.warn({ job }, `${what} left by a stopped instance: taken up again`);
        await this.sendAgain(job);
      }
    } catch (err) {
      this.log.error({ err }, `could not look for abandoned ${what}s`);
    }
  }
}
