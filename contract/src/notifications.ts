import { z } from 'zod';
import { EVEN_WHEN_FIELDS_FAIL, isoDate, queryBoolean, REQUIRED, text, uuid, validField } from './fields.js';
import { ordering, paged, pageQuery } from './pagination.js';

/** What Coverdesk reminds a broker of. */
export const NOTIFICATION_TYPES = ['payment_reminder', 'policy_renewal', 'meeting_reminder'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const NOTIFICATION_TYPE_LABELS: Record<NotificationType, string> = {
  payment_reminder: 'Payment reminder',
  policy_renewal: 'Policy renewal',
  meeting_reminder: 'Meeting reminder',
};

/** A meeting is minutes away; an instalment or a renewal days. */
export const LEAD_TIME_UNITS: Record<NotificationType, 'days' | 'minutes'> = {
  payment_reminder: 'days',
  policy_renewal: 'days',
  meeting_reminder: 'minutes',
};
/** How far ahead a reminder may be asked for, in its type's unit. */
export const MAX_LEAD_TIME: Record<NotificationType, number> = {
  payment_reminder: 90,
  policy_renewal: 180,
  meeting_reminder: 1440,
};

export const NOTIFICATION_PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;
export type NotificationPriority = (typeof NOTIFICATION_PRIORITIES)[number];

/** Where a reminder goes: an email, the bell, or both. */
export const NOTIFICATION_CHANNELS = ['email', 'in_app', 'both'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export const NOTIFICATION_CHANNEL_LABELS: Record<NotificationChannel, string> = {
  email: 'Email',
  in_app: 'In the app',
  both: 'Email and in the app',
};
/** The channel of one delivery: `both` makes two. */
export const DELIVERY_CHANNELS = ['email', 'in_app'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

/** What became of one delivery. */
export const HISTORY_STATUSES = ['pending', 'sent', 'failed', 'cancelled'] as const;
export type HistoryStatus = (typeof HISTORY_STATUSES)[number];
export const HISTORY_STATUS_LABELS: Record<HistoryStatus, string> = {
  pending: 'Pending',
  sent: 'Sent',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** The spec's constants for the bell, the popup and polling. */
export const BELL_ITEMS = 10;
export const POPUP_ITEMS = 5;
export const NOTIFICATION_POLL_MS = 60_000;

const notificationType = z.enum(NOTIFICATION_TYPES, { error: 'Choose a notification type.' });

/** A notification in the bell and on /notifications (spec section 3). */
export const notification = z.object({
  id: z.string(),
  title: z.string(),
  message: z.string(),
  priority: z.enum(NOTIFICATION_PRIORITIES),
  is_read: z.boolean(),
  read_at: z.string().nullable(),
  created_at: z.string(),
  notification_type: z.enum(NOTIFICATION_TYPES),
  notification_type_display: z.string(),
  related_policy_number: z.string().nullable(),
  related_customer_name: z.string().nullable(),
  data: z.object({ notification_history_id: z.string().nullable() }),
});
export type Notification = z.infer<typeof notification>;
export const notificationList = paged(notification);

const dateRange = {
  date_from: isoDate.optional(),
  date_to: isoDate.optional(),
};

export const notificationListQuery = pageQuery.extend({
  notification_type: z.enum(NOTIFICATION_TYPES).optional(),
  is_read: queryBoolean.optional(),
  priority: z.enum(NOTIFICATION_PRIORITIES).optional(),
  ...dateRange,
  ordering: ordering(['created_at', 'priority'], '-created_at'),
});

export const notificationStats = z.object({
  total: z.number().int(),
  unread: z.number().int(),
  read: z.number().int(),
});
export type NotificationStats = z.infer<typeof notificationStats>;

/** Marks several read at once (the list's bulk action); without ids, every unread one. */
export const markReadBody = z.object({
  ids: z.array(uuid).max(200, 'At most 200 at a time.').optional(),
});

export const unreadCount = z.object({ unread_count: z.number().int() });

/** "08:30": a time of day, for quiet hours. */
const timeOfDay = text()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time like 21:00.')
  .nullable();

/** The parts of a setting a broker changes; each optional for PATCH and the bulk update. */
const settingFields = {
  enabled: z.boolean({ error: 'Choose on or off.' }),
  channel: z.enum(NOTIFICATION_CHANNELS, { error: 'Choose email, in the app or both.' }),
  lead_time: z
    .number({ error: 'Enter a whole number.' })
    .int('Enter a whole number.')
    .min(0, 'This cannot be negative.'),
  quiet_hours_start: timeOfDay,
  quiet_hours_end: timeOfDay,
};

type SettingDraft = Partial<{
  notification_type: unknown;
  lead_time: unknown;
  quiet_hours_start: unknown;
  quiet_hours_end: unknown;
}>;

/**
 * Rules across fields: the lead time within its type's range (days or minutes), and quiet hours
 * given both or neither. `type` is the stored one for a PATCH.
 */
export function settingProblems(draft: SettingDraft, storedType?: NotificationType): Record<string, string> {
  const problems: Record<string, string> = {};
  const type = validField(notificationType, draft.notification_type) ?? storedType;
  const lead = validField(settingFields.lead_time, draft.lead_time);
  if (type && lead !== undefined && lead > MAX_LEAD_TIME[type]) {
    problems.lead_time = `At most ${MAX_LEAD_TIME[type]} ${LEAD_TIME_UNITS[type]}.`;
  }
  if (type === 'meeting_reminder' && lead === 0) problems.lead_time = 'At least 1 minute.';
  const start = validField(timeOfDay, draft.quiet_hours_start);
  const end = validField(timeOfDay, draft.quiet_hours_end);
  const given = (value: unknown) => value !== undefined && value !== null;
  if ('quiet_hours_start' in draft || 'quiet_hours_end' in draft) {
    if (given(start) !== given(end)) {
      problems[given(start) ? 'quiet_hours_end' : 'quiet_hours_start'] =
        'Give both ends of the quiet hours, or neither.';
    } else if (given(start) && start === end) {
      problems.quiet_hours_end = 'Quiet hours must end at another time than they start.';
    }
  }
  return problems;
}

const withSettingRules = <Schema extends z.ZodObject>(schema: Schema) =>
  schema.superRefine((value, context) => {
    for (const [path, message] of Object.entries(settingProblems(value as SettingDraft))) {
      context.addIssue({ code: 'custom', path: [path], message });
    }
  }, EVEN_WHEN_FIELDS_FAIL);

/** POST settings/: a type's setting, replacing its defaults. */
export const settingBody = withSettingRules(
  z.object({
    notification_type: notificationType,
    enabled: settingFields.enabled.default(true),
    channel: settingFields.channel.default('both'),
    lead_time: settingFields.lead_time,
    quiet_hours_start: settingFields.quiet_hours_start.default(null),
    quiet_hours_end: settingFields.quiet_hours_end.default(null),
  }),
);
export type SettingBody = z.output<typeof settingBody>;

/** PATCH settings/{id}/: any of the fields. */
export const settingPatch = z.object({
  enabled: settingFields.enabled.optional(),
  channel: settingFields.channel.optional(),
  lead_time: settingFields.lead_time.optional(),
  quiet_hours_start: settingFields.quiet_hours_start.optional(),
  quiet_hours_end: settingFields.quiet_hours_end.optional(),
});
export type SettingPatch = z.output<typeof settingPatch>;

/** POST settings/bulk_update/: several types at once, each by its type. */
export const settingsBulkBody = z.object({
  settings: z
    .array(withSettingRules(settingPatch.extend({ notification_type: notificationType })), {
      error: REQUIRED,
    })
    .min(1, 'Send at least one setting.')
    .max(NOTIFICATION_TYPES.length, `At most ${NOTIFICATION_TYPES.length} settings.`),
});

export const notificationSetting = z.object({
  id: z.string(),
  notification_type: z.enum(NOTIFICATION_TYPES),
  notification_type_display: z.string(),
  enabled: z.boolean(),
  channel: z.enum(NOTIFICATION_CHANNELS),
  lead_time: z.number().int(),
  lead_time_unit: z.enum(['days', 'minutes']),
  quiet_hours_start: z.string().nullable(),
  quiet_hours_end: z.string().nullable(),
  updated_at: z.string(),
});
export type NotificationSetting = z.infer<typeof notificationSetting>;
export const notificationSettingList = z.object({ results: z.array(notificationSetting) });

export const settingsSummary = z.object({
  enabled_types: z.number().int(),
  total_types: z.number().int(),
  email_enabled: z.boolean(),
  in_app_enabled: z.boolean(),
  unread_count: z.number().int(),
  last_sent_at: z.string().nullable(),
});

/** POST settings/test_notification/: one of a type, through the broker's channel for it. */
export const testNotificationBody = z.object({
  notification_type: notificationType.default('payment_reminder'),
});

/** One delivery of a reminder: to the bell, or by email. */
export const historyEntry = z.object({
  id: z.string(),
  notification_type: z.enum(NOTIFICATION_TYPES),
  notification_type_display: z.string(),
  channel: z.enum(DELIVERY_CHANNELS),
  status: z.enum(HISTORY_STATUSES),
  title: z.string(),
  message: z.string(),
  recipient: z.string(),
  priority: z.enum(NOTIFICATION_PRIORITIES),
  attempts: z.number().int(),
  failure_reason: z.string(),
  scheduled_for: z.string(),
  sent_at: z.string().nullable(),
  created_at: z.string(),
  is_read: z.boolean(),
  read_at: z.string().nullable(),
  is_test: z.boolean(),
  related_policy_number: z.string().nullable(),
  related_customer_name: z.string().nullable(),
});
export type HistoryEntry = z.infer<typeof historyEntry>;
export const historyList = paged(historyEntry);
export const historyUnread = z.object({ results: z.array(historyEntry) });

export const historyListQuery = pageQuery.extend({
  notification_type: z.enum(NOTIFICATION_TYPES).optional(),
  status: z.enum(HISTORY_STATUSES).optional(),
  channel: z.enum(DELIVERY_CHANNELS).optional(),
  ...dateRange,
  ordering: ordering(['created_at', 'status'], '-created_at'),
});

export const historyStats = z.object({
  total: z.number().int(),
  unread: z.number().int(),
  by_status: z.record(z.enum(HISTORY_STATUSES), z.number().int()),
  by_type: z.record(z.enum(NOTIFICATION_TYPES), z.number().int()),
});

/** Words a template may hold, replaced when a reminder is written. */
export const TEMPLATE_PLACEHOLDERS = [
  'heading',
  'customer_name',
  'policy_number',
  'amount',
  'due_date',
  'insurer',
  'agency_name',
  'due_status',
  'meeting_title',
  'starts_at',
] as const;
export type TemplatePlaceholder = (typeof TEMPLATE_PLACEHOLDERS)[number];

export const notificationTemplate = z.object({
  id: z.string(),
  notification_type: z.enum(NOTIFICATION_TYPES),
  notification_type_display: z.string(),
  channel: z.enum(DELIVERY_CHANNELS),
  subject: z.string(),
  body: z.string(),
  is_custom: z.boolean(),
  placeholders: z.array(z.string()),
});
export type NotificationTemplate = z.infer<typeof notificationTemplate>;
export const notificationTemplateList = z.object({ results: z.array(notificationTemplate) });

/** A `{word}` in a template: the form that a reminder's values replace. */
export const PLACEHOLDER_PATTERN = /\{([a-z_]+)\}/g;

/** Refuses a `{word}` that names no value, which would otherwise reach the customer as written. */
function onlyKnownPlaceholders(value: string, context: z.RefinementCtx) {
  const known: readonly string[] = TEMPLATE_PLACEHOLDERS;
  const unknown = [...new Set([...value.matchAll(PLACEHOLDER_PATTERN)].map(([, name]) => name ?? ''))].filter(
    (name) => !known.includes(name),
  );
  if (unknown.length === 0) return;
  context.addIssue({
    code: 'custom',
    message: `Unknown placeholder${unknown.length === 1 ? '' : 's'}: ${unknown.map((name) => `{${name}}`).join(', ')}. Use only ${known.map((name) => `{${name}}`).join(', ')}.`,
  });
}

/** PUT templates/{id}/: the agency's own wording. */
export const templateBody = z.object({
  subject: text({ error: REQUIRED })
    .trim()
    .min(1, 'This field may not be blank.')
    .max(200, 'Ensure this field has no more than 200 characters.')
    .superRefine(onlyKnownPlaceholders),
  body: text({ error: REQUIRED })
    .trim()
    .min(1, 'This field may not be blank.')
    .max(5000, 'Ensure this field has no more than 5000 characters.')
    .superRefine(onlyKnownPlaceholders),
});
