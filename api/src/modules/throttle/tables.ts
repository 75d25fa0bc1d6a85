import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from '../../db/columns.js';

/** Attempt counters shared by every API instance (sign-in failures, registrations, reset requests). */
export const throttleBuckets = pgTable('throttle_buckets', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  windowEndsAt: timestamptz('window_ends_at').notNull(),
});
