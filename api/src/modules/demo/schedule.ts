import { lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { FileStore } from '../documents/storage.js';
import { resetDemoAgency } from './account.js';
import { scheduledRuns } from './tables.js';

// One daily job does not justify a job queue yet. pg-boss would add a dependency and its own schema
// and polling to every install, embedded PGlite included, to run a single statement's worth of
// coordination: the claim below. When reminders, emails and imports arrive as background work,
// they move to pg-boss and this job with them.

export const DEMO_RESET_JOB = 'demo-reset';
/** The demo is rebuilt at this hour, on the server's clock, when nobody is likely to be using it. */
const RESET_HOUR = 3;
/** Claims older than this are of no use to anyone and are cleared as new ones are made. */
const KEEP_CLAIMS_DAYS = 30;

/** The calendar day of a moment on the server's clock, as an ISO date. */
const localDay = (moment: Date) =>
  `${moment.getFullYear()}-${String(moment.getMonth() + 1).padStart(2, '0')}-${String(moment.getDate()).padStart(2, '0')}`;

/**
 * Claims a job's run for one day. Every instance asks; the primary key lets one insert through and
 * the others do nothing, so exactly one caller gets true, however many ask at once.
 */
export async function claimRun(db: Database, job: string, runOn: string): Promise<boolean> {
  const claimed = await db
    .insert(scheduledRuns)
    .values({ job, runOn })
    .onConflictDoNothing()
    .returning({ job: scheduledRuns.job });
  await db
    .delete(scheduledRuns)
    .where(lt(scheduledRuns.runOn, sql`${runOn}::date - ${KEEP_CLAIMS_DAYS}::int`));
  return claimed.length > 0;
}

/** The next moment the clock reads RESET_HOUR:00 after `now`, in the server's time zone. */
export function nextResetAt(now: Date): Date {
  const next = new Date(now.getFullYear(), now.getMonth(), now.getDate(), RESET_HOUR, 0, 0, 0);
  if (next <= now) next.setDate(next.getDate() + 1);
  return next;
}

/**
 * Rebuilds the demo agency every day at 03:00. Each instance keeps a timer; at 03:00 they all try
 * to claim the day and the one that wins rebuilds. A reset that fails is logged and the demo keeps
 * yesterday's data (the reseed is one transaction) until the next day. `stop` clears the timer and
 * waits for a reset in progress, so the database can close after it.
 */
export function scheduleDemoReset(
  db: Database,
  files: FileStore,
  log: FastifyBaseLogger,
): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  const arm = () => {
    if (stopped) return;
    const at = nextResetAt(new Date());
    timer = setTimeout(() => {
      running = run(at).finally(arm);
    }, at.getTime() - Date.now());
    // The server keeps the process alive; this timer alone should not.
    timer.unref();
  };

  const run = async (at: Date) => {
    try {
      // The day of the scheduled moment, not of when the timer happened to fire.
      if (!(await claimRun(db, DEMO_RESET_JOB, localDay(at)))) return;
      const started = Date.now();
      const reset = await resetDemoAgency(db, files, new Date());
      log.info({ job: DEMO_RESET_JOB, reset, ms: Date.now() - started }, 'demo agency rebuilt');
    } catch (err) {
      log.error({ err, job: DEMO_RESET_JOB }, 'demo agency reset failed');
    }
  };

  arm();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
