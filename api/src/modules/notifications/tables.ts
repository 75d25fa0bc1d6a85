import {
  DELIVERY_CHANNELS,
  HISTORY_STATUSES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_PRIORITIES,
  NOTIFICATION_TYPES,
} from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  text,
  time,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz, updatedAt } from '../../db/columns.js';
import { tenantId } from '../../db/tenant-columns.js';

/**
 * Each user's choice per reminder type. A user without a row for a type gets the defaults
 * (`DEFAULT_SETTINGS`); the rows are written the first time the user's settings are read or
 * changed. Users are platform rows (`agency_users`), so no foreign key. Tenant-owned.
 */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    id: id(),
    tenantId: tenantId(),
    userId: uuid('user_id').notNull(),
    notificationType: text('notification_type', { enum: NOTIFICATION_TYPES }).notNull(),
    enabled: boolean('enabled').notNull(),
    channel: text('channel', { enum: NOTIFICATION_CHANNELS }).notNull(),
    /** Days ahead for instalments and renewals, minutes ahead for meetings. */
    leadTime: integer('lead_time').notNull(),
    /** Emails falling between these times of the agency's day wait for the end. */
    quietHoursStart: time('quiet_hours_start'),
    quietHoursEnd: time('quiet_hours_end'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('notification_settings_user_type_key').on(t.tenantId, t.userId, t.notificationType)],
);

/**
 * Every delivery of a reminder, one row per channel: what was said, to whom, and what became of it.
 * The unique key on (user, type, subject, day, channel) is what makes a reminder go out once: every
 * generator run inserts with ON CONFLICT DO NOTHING, so two instances, or a retried job, cannot both
 * write the same reminder. `subject_id` is the instalment, policy or meeting reminded of; a test
 * reminder has none and never conflicts. Tenant-owned.
 */
export const notificationHistory = pgTable(
  'notification_history',
  {
    id: id(),
    tenantId: tenantId(),
    userId: uuid('user_id').notNull(),
    notificationType: text('notification_type', { enum: NOTIFICATION_TYPES }).notNull(),
    channel: text('channel', { enum: DELIVERY_CHANNELS }).notNull(),
    subjectId: uuid('subject_id'),
    /** The agency's day the reminder is for. */
    eventDay: date('event_day', { mode: 'string' }).notNull(),
    status: text('status', { enum: HISTORY_STATUSES }).notNull(),
    priority: text('priority', { enum: NOTIFICATION_PRIORITIES }).notNull(),
    recipient: text('recipient').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    /** The email's HTML part, written when the reminder is; empty for the bell. */
    htmlBody: text('html_body').notNull().default(''),
    relatedPolicyNumber: text('related_policy_number'),
    relatedCustomerName: text('related_customer_name'),
    isTest: boolean('is_test').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    failureReason: text('failure_reason').notNull().default(''),
    /** Not before this moment: the end of the recipient's quiet hours, or at once. */
    scheduledFor: timestamptz('scheduled_for').notNull().defaultNow(),
    sentAt: timestamptz('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('notification_history_tenant_id_id_key').on(t.tenantId, t.id),
    uniqueIndex('notification_history_once_idx')
      .on(t.tenantId, t.userId, t.notificationType, t.subjectId, t.eventDay, t.channel)
      .where(sql`subject_id is not null`),
    index('notification_history_user_created_idx').on(t.tenantId, t.userId, t.createdAt),
  ],
);

/**
 * What the bell shows: one per in-app delivery, read or not; dismissing one removes it. Its
 * history row keeps the record of the delivery. Tenant-owned.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    tenantId: tenantId(),
    userId: uuid('user_id').notNull(),
    historyId: uuid('history_id').notNull(),
    notificationType: text('notification_type', { enum: NOTIFICATION_TYPES }).notNull(),
    priority: text('priority', { enum: NOTIFICATION_PRIORITIES }).notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    relatedPolicyNumber: text('related_policy_number'),
    relatedCustomerName: text('related_customer_name'),
    readAt: timestamptz('read_at'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('notifications_history_key').on(t.tenantId, t.historyId),
    foreignKey({
      name: 'notifications_history_fk',
      columns: [t.tenantId, t.historyId],
      foreignColumns: [notificationHistory.tenantId, notificationHistory.id],
    }).onDelete('cascade'),
    index('notifications_user_created_idx').on(t.tenantId, t.userId, t.createdAt),
    index('notifications_user_unread_idx').on(t.tenantId, t.userId).where(sql`read_at is null`),
  ],
);

/**
 * An agency's own wording for a type and channel, in place of Coverdesk's default. Tenant-owned.
 */
export const notificationTemplates = pgTable(
  'notification_templates',
  {
    tenantId: tenantId(),
    notificationType: text('notification_type', { enum: NOTIFICATION_TYPES }).notNull(),
    channel: text('channel', { enum: DELIVERY_CHANNELS }).notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('notification_templates_slot_key').on(t.tenantId, t.notificationType, t.channel)],
);
