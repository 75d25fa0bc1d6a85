import {
  HISTORY_STATUSES,
  type HistoryEntry,
  type historyListQuery,
  LEAD_TIME_UNITS,
  NOTIFICATION_TYPE_LABELS,
  NOTIFICATION_TYPES,
  type Notification,
  type NotificationChannel,
  type NotificationSetting,
  type NotificationType,
  type notificationListQuery,
  type SettingPatch,
} from '@coverdesk/contract';
import { type AnyColumn, and, desc, eq, gte, ilike, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Transaction } from '../../db/client.js';
import { containing, countRows, orderBy } from '../../db/query-helpers.js';
import { offsetOf } from '../../http/pagination.js';
import { notificationHistory, notificationSettings, notifications } from './tables.js';

/** What a new user gets for each type until they choose. */
export const DEFAULT_SETTINGS: Record<
  NotificationType,
  {
    enabled: boolean;
    channel: NotificationChannel;
    leadTime: number;
    quietHoursStart: string;
    quietHoursEnd: string;
  }
> = {
  payment_reminder: {
    enabled: true,
    channel: 'both',
    leadTime: 3,
    quietHoursStart: '21:00',
    quietHoursEnd: '08:00',
  },
  policy_renewal: {
    enabled: true,
    channel: 'both',
    leadTime: 30,
    quietHoursStart: '21:00',
    quietHoursEnd: '08:00',
  },
  meeting_reminder: {
    enabled: true,
    channel: 'in_app',
    leadTime: 30,
    quietHoursStart: '21:00',
    quietHoursEnd: '08:00',
  },
};

type SettingRow = typeof notificationSettings.$inferSelect;

/** "21:00:00" as PostgreSQL writes a time, "21:00" as the API speaks it. */
const hoursAndMinutes = (value: string | null) => (value === null ? null : value.slice(0, 5));

export const toSetting = (row: SettingRow): NotificationSetting => ({
  id: row.id,
  notification_type: row.notificationType,
  notification_type_display: NOTIFICATION_TYPE_LABELS[row.notificationType],
  enabled: row.enabled,
  channel: row.channel,
  lead_time: row.leadTime,
  lead_time_unit: LEAD_TIME_UNITS[row.notificationType],
  quiet_hours_start: hoursAndMinutes(row.quietHoursStart),
  quiet_hours_end: hoursAndMinutes(row.quietHoursEnd),
  updated_at: row.updatedAt.toISOString(),
});

const defaultRow = (tenantId: string, userId: string, type: NotificationType) => ({
  tenantId,
  userId,
  notificationType: type,
  ...DEFAULT_SETTINGS[type],
});

/**
 * The users' settings for every type, the defaults written first for any type a user has none of,
 * so each setting has an id to change. One statement per call, whatever the number of users.
 */
export async function settingsOf(
  tx: Transaction,
  tenantId: string,
  userIds: string[],
): Promise<SettingRow[]> {
  if (userIds.length === 0) return [];
  await tx
    .insert(notificationSettings)
    .values(userIds.flatMap((userId) => NOTIFICATION_TYPES.map((type) => defaultRow(tenantId, userId, type))))
    .onConflictDoNothing();
  const rows = await tx
    .select()
    .from(notificationSettings)
    .where(and(eq(notificationSettings.tenantId, tenantId), inArray(notificationSettings.userId, userIds)));
  return rows.sort(
    (a, b) => NOTIFICATION_TYPES.indexOf(a.notificationType) - NOTIFICATION_TYPES.indexOf(b.notificationType),
  );
}

const ownSetting = (tenantId: string, userId: string, id: string) =>
  and(
    eq(notificationSettings.tenantId, tenantId),
    eq(notificationSettings.userId, userId),
    eq(notificationSettings.id, id),
  );

export async function findSetting(tx: Transaction, tenantId: string, userId: string, id: string) {
  const [row] = await tx
    .select()
    .from(notificationSettings)
    .where(ownSetting(tenantId, userId, id));
  return row;
}

const changesOf = (patch: SettingPatch) => ({
  ...(patch.enabled === undefined ? {} : { enabled: patch.enabled }),
  ...(patch.channel === undefined ? {} : { channel: patch.channel }),
  ...(patch.lead_time === undefined ? {} : { leadTime: patch.lead_time }),
  ...(patch.quiet_hours_start === undefined ? {} : { quietHoursStart: patch.quiet_hours_start }),
  ...(patch.quiet_hours_end === undefined ? {} : { quietHoursEnd: patch.quiet_hours_end }),
});

/** Changes a user's setting for a type (written from the defaults first if they had none). */
export async function changeSetting(
  tx: Transaction,
  tenantId: string,
  userId: string,
  type: NotificationType,
  patch: SettingPatch,
): Promise<SettingRow> {
  await settingsOf(tx, tenantId, [userId]);
  const [row] = await tx
    .update(notificationSettings)
    .set({ ...changesOf(patch), updatedAt: new Date() })
    .where(
      and(
        eq(notificationSettings.tenantId, tenantId),
        eq(notificationSettings.userId, userId),
        eq(notificationSettings.notificationType, type),
      ),
    )
    .returning();
  if (!row) throw new Error('the setting written a moment ago is missing');
  return row;
}

/** Deleting a setting puts the type back to its defaults; the id stays the same. */
export async function resetSetting(tx: Transaction, tenantId: string, userId: string, id: string) {
  const found = await findSetting(tx, tenantId, userId, id);
  if (!found) return undefined;
  const {
    tenantId: _t,
    userId: _u,
    notificationType: _n,
    ...defaults
  } = defaultRow(tenantId, userId, found.notificationType);
  await tx
    .update(notificationSettings)
    .set({ ...defaults, updatedAt: new Date() })
    .where(ownSetting(tenantId, userId, id));
  return found;
}

// ---- The bell's notifications ----

const notificationColumns = {
  id: notifications.id,
  title: notifications.title,
  message: notifications.message,
  priority: notifications.priority,
  readAt: notifications.readAt,
  createdAt: notifications.createdAt,
  notificationType: notifications.notificationType,
  relatedPolicyNumber: notifications.relatedPolicyNumber,
  relatedCustomerName: notifications.relatedCustomerName,
  historyId: notifications.historyId,
};

type NotificationRow = { [K in keyof typeof notificationColumns]: (typeof notifications.$inferSelect)[K] };

const toNotification = (row: NotificationRow): Notification => ({
  id: row.id,
  title: row.title,
  message: row.message,
  priority: row.priority,
  is_read: row.readAt !== null,
  read_at: row.readAt?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
  notification_type: row.notificationType,
  notification_type_display: NOTIFICATION_TYPE_LABELS[row.notificationType],
  related_policy_number: row.relatedPolicyNumber,
  related_customer_name: row.relatedCustomerName,
  data: { notification_history_id: row.historyId },
});

const ownNotifications = (tenantId: string, userId: string) =>
  and(eq(notifications.tenantId, tenantId), eq(notifications.userId, userId));

/** The days of a date filter are the agency's: the transaction runs in its time zone. */
const createdWithin = (column: AnyColumn, from?: string, to?: string) => [
  from ? gte(column, sql`${from}::date::timestamptz`) : undefined,
  to ? lt(column, sql`(${to}::date + 1)::timestamptz`) : undefined,
];

const PRIORITY_RANK = sql`case ${notifications.priority} when 'critical' then 4 when 'high' then 3 when 'medium' then 2 else 1 end`;

export async function listNotifications(
  tx: Transaction,
  tenantId: string,
  userId: string,
  query: z.output<typeof notificationListQuery>,
) {
  const where = and(
    ownNotifications(tenantId, userId),
    query.notification_type ? eq(notifications.notificationType, query.notification_type) : undefined,
    query.priority ? eq(notifications.priority, query.priority) : undefined,
    query.search
      ? or(
          ilike(notifications.title, containing(query.search)),
          ilike(notifications.message, containing(query.search)),
        )
      : undefined,
    query.is_read === undefined
      ? undefined
      : query.is_read
        ? sql`${notifications.readAt} is not null`
        : isNull(notifications.readAt),
    ...createdWithin(notifications.createdAt, query.date_from, query.date_to),
  );
  const [total] = await tx.select({ count: countRows() }).from(notifications).where(where);
  const rows = await tx
    .select(notificationColumns)
    .from(notifications)
    .where(where)
    .orderBy(
      ...orderBy(
        query.ordering,
        { created_at: notifications.createdAt, priority: PRIORITY_RANK },
        notifications.id,
      ),
    )
    .limit(query.page_size)
    .offset(offsetOf(query));
  return { count: total?.count ?? 0, results: rows.map(toNotification) };
}

export async function notificationStats(tx: Transaction, tenantId: string, userId: string) {
  const [row] = await tx
    .select({
      total: countRows(),
      unread: sql<number>`(count(*) filter (where ${notifications.readAt} is null))::int`,
    })
    .from(notifications)
    .where(ownNotifications(tenantId, userId));
  const total = row?.total ?? 0;
  const unread = row?.unread ?? 0;
  return { total, unread, read: total - unread };
}

export async function findNotification(tx: Transaction, tenantId: string, userId: string, id: string) {
  const [row] = await tx
    .select(notificationColumns)
    .from(notifications)
    .where(and(ownNotifications(tenantId, userId), eq(notifications.id, id)));
  return row ? toNotification(row) : undefined;
}

/**
 * Marks the user's notifications read: those named by id, the one of a delivery (reading a delivery
 * reads its notification: one read state, kept on the notification), or every unread one. Returns
 * how many.
 */
export async function markNotificationsRead(
  tx: Transaction,
  tenantId: string,
  userId: string,
  which: { ids?: string[]; historyId?: string } = {},
): Promise<number> {
  const marked = await tx
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(
      and(
        ownNotifications(tenantId, userId),
        isNull(notifications.readAt),
        which.ids ? inArray(notifications.id, which.ids) : undefined,
        which.historyId ? eq(notifications.historyId, which.historyId) : undefined,
      ),
    )
    .returning({ id: notifications.id });
  return marked.length;
}

export async function dismissNotification(tx: Transaction, tenantId: string, userId: string, id: string) {
  const removed = await tx
    .delete(notifications)
    .where(and(ownNotifications(tenantId, userId), eq(notifications.id, id)))
    .returning({ id: notifications.id });
  return removed.length > 0;
}

// ---- Delivery history ----

const historyColumns = { history: notificationHistory, readAt: notifications.readAt };

type HistoryRow = {
  history: typeof notificationHistory.$inferSelect;
  readAt: Date | null;
};

export const toHistoryEntry = ({ history, readAt }: HistoryRow): HistoryEntry => ({
  id: history.id,
  notification_type: history.notificationType,
  notification_type_display: NOTIFICATION_TYPE_LABELS[history.notificationType],
  channel: history.channel,
  status: history.status,
  title: history.title,
  message: history.message,
  recipient: history.recipient,
  priority: history.priority,
  attempts: history.attempts,
  failure_reason: history.failureReason,
  scheduled_for: history.scheduledFor.toISOString(),
  sent_at: history.sentAt?.toISOString() ?? null,
  created_at: history.createdAt.toISOString(),
  is_read: history.channel === 'email' ? history.status === 'sent' : readAt !== null,
  read_at: readAt?.toISOString() ?? null,
  is_test: history.isTest,
  related_policy_number: history.relatedPolicyNumber,
  related_customer_name: history.relatedCustomerName,
});

const ownHistory = (tenantId: string, userId: string) =>
  and(eq(notificationHistory.tenantId, tenantId), eq(notificationHistory.userId, userId));

// A delivery to the bell is unread while its notification is; a dismissed one counts as seen.
const bellOf = and(
  eq(notifications.tenantId, notificationHistory.tenantId),
  eq(notifications.historyId, notificationHistory.id),
);
const unreadInBell = and(
  eq(notificationHistory.channel, 'in_app'),
  isNull(notifications.readAt),
  sql`${notifications.id} is not null`,
);

function historyFilters(tenantId: string, userId: string, query: z.output<typeof historyListQuery>) {
  return and(
    ownHistory(tenantId, userId),
    query.notification_type ? eq(notificationHistory.notificationType, query.notification_type) : undefined,
    query.status ? eq(notificationHistory.status, query.status) : undefined,
    query.channel ? eq(notificationHistory.channel, query.channel) : undefined,
    query.search
      ? or(
          ilike(notificationHistory.title, containing(query.search)),
          ilike(notificationHistory.message, containing(query.search)),
        )
      : undefined,
    ...createdWithin(notificationHistory.createdAt, query.date_from, query.date_to),
  );
}

export async function listHistory(
  tx: Transaction,
  tenantId: string,
  userId: string,
  query: z.output<typeof historyListQuery>,
) {
  const where = historyFilters(tenantId, userId, query);
  const [total] = await tx.select({ count: countRows() }).from(notificationHistory).where(where);
  const rows = await tx
    .select(historyColumns)
    .from(notificationHistory)
    .leftJoin(notifications, bellOf)
    .where(where)
    .orderBy(
      ...orderBy(
        query.ordering,
        { created_at: notificationHistory.createdAt, status: notificationHistory.status },
        notificationHistory.id,
      ),
    )
    .limit(query.page_size)
    .offset(offsetOf(query));
  return { count: total?.count ?? 0, results: rows.map(toHistoryEntry) };
}

/** The unread deliveries to the bell, newest first (at most 100). */
export async function unreadHistory(tx: Transaction, tenantId: string, userId: string) {
  const rows = await tx
    .select(historyColumns)
    .from(notificationHistory)
    .leftJoin(notifications, bellOf)
    .where(and(ownHistory(tenantId, userId), unreadInBell))
    .orderBy(desc(notificationHistory.createdAt), desc(notificationHistory.id))
    .limit(100);
  return rows.map(toHistoryEntry);
}

export async function findHistory(tx: Transaction, tenantId: string, userId: string, id: string) {
  const [row] = await tx
    .select(historyColumns)
    .from(notificationHistory)
    .leftJoin(notifications, bellOf)
    .where(and(ownHistory(tenantId, userId), eq(notificationHistory.id, id)));
  return row;
}

export async function historyStats(tx: Transaction, tenantId: string, userId: string) {
  const rows = await tx
    .select({
      status: notificationHistory.status,
      type: notificationHistory.notificationType,
      count: countRows(),
      unread: sql<number>`(count(*) filter (where ${unreadInBell}))::int`,
    })
    .from(notificationHistory)
    .leftJoin(notifications, bellOf)
    .where(ownHistory(tenantId, userId))
    .groupBy(notificationHistory.status, notificationHistory.notificationType);
  const byStatus = Object.fromEntries(HISTORY_STATUSES.map((status) => [status, 0])) as Record<
    (typeof HISTORY_STATUSES)[number],
    number
  >;
  const byType = Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, 0])) as Record<
    NotificationType,
    number
  >;
  let total = 0;
  let unread = 0;
  for (const row of rows) {
    byStatus[row.status] += row.count;
    byType[row.type] += row.count;
    total += row.count;
    unread += row.unread;
  }
  return { total, unread, by_status: byStatus, by_type: byType };
}

/** When the user was last sent anything, for the settings summary. */
export async function lastSentAt(tx: Transaction, tenantId: string, userId: string) {
  const [row] = await tx
    .select({ at: sql<Date | null>`max(${notificationHistory.sentAt})` })
    .from(notificationHistory)
    .where(ownHistory(tenantId, userId));
  return row?.at ? new Date(row.at).toISOString() : null;
}
