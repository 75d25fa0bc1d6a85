import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz, updatedAt } from '../../db/columns.js';
import { tenantId } from '../../db/tenant-columns.js';
import { users } from '../accounts/tables.js';

/**
 * Meetings brokers put in the calendar; the other events are read from their records. A timed
 * meeting has moments, an all-day one dates (its last day included), so it stays on its days if
 * the agency changes time zone. The links to a customer and a lead are foreign keys on
 * (tenant_id, id) that clear only their own column when that row goes (`ON DELETE SET NULL (...)`,
 * which drizzle cannot express), in the custom migration. Tenant-owned.
 */
export const meetings = pgTable(
  'meetings',
  {
    id: id(),
    tenantId: tenantId(),
    title: text('title').notNull(),
    allDay: boolean('all_day').notNull().default(false),
    startsAt: timestamptz('starts_at'),
    endsAt: timestamptz('ends_at'),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    customerId: uuid('customer_id'),
    leadId: uuid('lead_id'),
    location: text('location').notNull().default(''),
    videoUrl: text('video_url').notNull().default(''),
    notes: text('notes').notNull().default(''),
    reminderMinutes: integer('reminder_minutes'),
    /** The user who created it (`agency_users`); users are platform rows, so no foreign key. */
    ownerId: uuid('owner_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('meetings_tenant_id_id_key').on(t.tenantId, t.id),
    index('meetings_tenant_starts_idx').on(t.tenantId, t.startsAt).where(sql`not all_day`),
    index('meetings_tenant_start_date_idx').on(t.tenantId, t.startDate).where(sql`all_day`),
    check(
      'meetings_times_check',
      sql`case when all_day
        then start_date is not null and end_date >= start_date and starts_at is null and ends_at is null
        else starts_at is not null and ends_at > starts_at and start_date is null and end_date is null end`,
    ),
  ],
);

/**
 * Each user's calendar feed: the SHA-256 of the secret in its address, never the secret. A
 * platform table like `refresh_tokens`: a calendar app presents the secret before any agency is
 * known. One feed per user; making a new one replaces it.
 */
export const calendarFeeds = pgTable('calendar_feeds', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretHash: text('secret_hash').notNull().unique(),
  createdAt: createdAt(),
});
