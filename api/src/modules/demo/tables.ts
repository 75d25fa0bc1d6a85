import { date, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../db/columns.js';

/**
 * Claims on scheduled work: one row per job and day. Every instance tries to insert the row when
 * the job falls due; the primary key lets exactly one succeed, and only that one runs the job.
 * Platform table: no tenant, no row-level security, out of reach of tenant transactions.
 */
export const scheduledRuns = pgTable(
  'scheduled_runs',
  {
    job: text('job').notNull(),
    runOn: date('run_on', { mode: 'string' }).notNull(),
    claimedAt: timestamptz('claimed_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.job, t.runOn] })],
);
