import type { DeliveryChannel, NotificationPriority, NotificationType } from '@coverdesk/contract';
import { and, eq, isNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { one } from '../../db/query-helpers.js';
import { meetings } from '../calendar/tables.js';
import { companies } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import { overdueOn, unpaid } from '../policies/instalments.js';
import { isOpen, statusOn } from '../policies/status.js';
import { installments, policies } from '../policies/tables.js';
import { notificationHistory, type notificationSettings, notifications } from './tables.js';
import { listTemplates, renderTemplate, type TemplateValues } from './templates.js';

/** One thing to remind a user of, before it is written for a channel. */
export interface Reminder {
  type: NotificationType;
  /** The instalment, policy or meeting; null for a test. */
  subjectId: string | null;
  priority: NotificationPriority;
  values: TemplateValues;
  policyNumber: string | null;
  customerName: string | null;
  /**
   * The day the reminder is once for, when it is not the day it is written: a meeting's own day, so
   * that a reminder window across midnight reminds of it once, not once on each side.
   */
  eventDay?: string;
}

/** The agency a reminder is written for: its name and currency are platform facts, read beforehand. */
export interface Agency {
  tenantId: string;
  name: string;
  currency: string;
  /** Where links in emails point. */
  appUrl: string;
}

export interface Recipient {
  userId: string;
  email: string;
}

/**
 * Overdue instalments are reminded of weekly in their first month (the day after the due date, then
 * 8, 15, 22 and 29 days after it), then monthly (60, 90, ... days): a debt a year old is not news
 * every week.
 */
const overdueRemindingDay = (daysOverdue: SQL) =>
  sql`((${daysOverdue} <= 30 and ${daysOverdue} % 7 = 1) or (${daysOverdue} > 30 and ${daysOverdue} % 30 = 0))`;

/** An unpaid instalment grows more urgent as it ages: medium in its first week, high to 30 days, then critical. */
export function overduePriority(daysOverdue: number): NotificationPriority {
  if (daysOverdue <= 0) return 'low';
  if (daysOverdue <= 7) return 'medium';
  if (daysOverdue <= 30) return 'high';
  return 'critical';
}

/** A renewal a week away is urgent; a month away worth planning. */
export function renewalPriority(daysLeft: number): NotificationPriority {
  if (daysLeft <= 7) return 'high';
  if (daysLeft <= 30) return 'medium';
  return 'low';
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** "due today", "coming up in 3 days", "12 days overdue". */
export function dueStatus(daysUntil: number): string {
  if (daysUntil === 0) return 'due today';
  if (daysUntil > 0) return `coming up in ${plural(daysUntil, 'day')}`;
  return `${plural(-daysUntil, 'day')} overdue`;
}

/** "in 30 min", "in 1 h 30 min", "in 18 h": how soon a meeting starts. */
export function startsIn(minutes: number): string {
  const left = Math.max(minutes, 1);
  if (left < 60) return `in ${left} min`;
  const hours = Math.floor(left / 60);
  const rest = left % 60;
  return hours < 3 && rest > 0 ? `in ${hours} h ${rest} min` : `in ${Math.round(left / 60)} h`;
}

/** A payment reminder's title: overdue ones say so, the others remind. */
export const paymentHeading = (daysOverdue: number) =>
  daysOverdue > 0 ? 'Overdue payment' : 'Payment reminder';

/** "in 3 days", "tomorrow", "today", for a renewal. */
const inDays = (days: number) => (days === 0 ? 'today' : days === 1 ? 'tomorrow' : `in ${days} days`);

export const formatMoney = (amount: string, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(Number(amount));

export const formatDay = (day: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

/**
 * A meeting's start as reminders write it, on the agency's clock (the transaction's), in the same
 * form as `formatDay` and the app's date and time: "Nov 25, 2026, 2:30 PM".
 */
export const meetingTime = (moment: SQLWrapper) =>
  sql<string>`to_char(${moment}, 'Mon FMDD, YYYY, FMHH12:MI AM')`;

/** `day` as a date the statements compare with. */
const asDate = (day: string) => sql`${day}::date`;

const policyOf = and(eq(policies.tenantId, installments.tenantId), eq(policies.id, installments.policyId));
const customerOf = and(eq(customers.tenantId, policies.tenantId), eq(customers.id, policies.customerId));
const companyOf = and(eq(companies.tenantId, policies.tenantId), eq(companies.id, policies.companyId));

/**
 * Instalments to remind of on `day`: still owed and due `leadDays` later, or overdue by the payments
 * list's own rule on a reminding day. What is left to pay is the amount.
 */
export async function paymentReminders(
  tx: Transaction,
  agency: Agency,
  day: string,
  leadDays: number,
  only?: SQL,
): Promise<Reminder[]> {
  const daysOverdue = sql<number>`(${asDate(day)} - ${installments.dueDate})::int`;
  const rows = await tx
    .select({
      id: installments.id,
      dueDate: installments.dueDate,
      owed: sql<string>`(${installments.amountDue} - ${installments.amountPaid})::text`,
      daysOverdue,
      policyNumber: policies.policyNumber,
      customerName: customers.displayName,
      insurer: companies.name,
    })
    .from(installments)
    .innerJoin(policies, policyOf)
    .innerJoin(customers, customerOf)
    .innerJoin(companies, companyOf)
    .where(
      and(
        eq(installments.tenantId, agency.tenantId),
        only ??
          sql`((${unpaid} and ${installments.dueDate} = ${asDate(day)} + ${leadDays}::int)
            or (${overdueOn(asDate(day))} and ${overdueRemindingDay(daysOverdue)}))`,
      ),
    );
  return rows.map((row) => ({
    type: 'payment_reminder',
    subjectId: row.id,
    priority: overduePriority(row.daysOverdue),
    policyNumber: row.policyNumber,
    customerName: row.customerName,
    values: {
      heading: paymentHeading(row.daysOverdue),
      customer_name: row.customerName,
      policy_number: row.policyNumber,
      amount: formatMoney(row.owed, agency.currency),
      due_date: formatDay(row.dueDate),
      insurer: row.insurer,
      agency_name: agency.name,
      due_status: dueStatus(-row.daysOverdue),
    },
  }));
}

/**
 * Policies to remind of on `day`: active that day (the policy module's rule), ending `leadDays`
 * later, and not marked as not renewing. A renewed or cancelled policy is not active.
 */
export async function renewalReminders(
  tx: Transaction,
  agency: Agency,
  day: string,
  leadDays: number,
  only?: SQL,
): Promise<Reminder[]> {
  const rows = await tx
    .select({
      id: policies.id,
      endDate: policies.endDate,
      premium: policies.totalPremium,
      daysLeft: sql<number>`(${policies.endDate} - ${asDate(day)})::int`,
      policyNumber: policies.policyNumber,
      customerName: customers.displayName,
      insurer: companies.name,
    })
    .from(policies)
    .innerJoin(customers, customerOf)
    .innerJoin(companies, companyOf)
    .where(
      and(
        eq(policies.tenantId, agency.tenantId),
        only ??
          and(
            statusOn(asDate(day)).awaitingRenewal,
            isNull(policies.notRenewingAt),
            sql`${policies.endDate} = ${asDate(day)} + ${leadDays}::int`,
          ),
      ),
    );
  return rows.map((row) => ({
    type: 'policy_renewal',
    subjectId: row.id,
    priority: renewalPriority(row.daysLeft),
    policyNumber: row.policyNumber,
    customerName: row.customerName,
    values: {
      heading: 'Policy renewal',
      customer_name: row.customerName,
      policy_number: row.policyNumber,
      amount: formatMoney(row.premium, agency.currency),
      due_date: formatDay(row.endDate),
      insurer: row.insurer,
      agency_name: agency.name,
      due_status: inDays(row.daysLeft),
    },
  }));
}

/**
 * The user's timed meetings starting after `now` and within their reminder: the meeting's own, or
 * the user's lead time when it has none.
 */
export async function meetingReminders(
  tx: Transaction,
  agency: Agency,
  ownerId: string,
  now: Date,
  leadMinutes: number,
  only?: SQL,
): Promise<Reminder[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const rows = await tx
    .select({
      id: meetings.id,
      title: meetings.title,
      minutes: sql<number>`ceil(extract(epoch from ${meetings.startsAt} - ${at}) / 60)::int`,
      startsAt: meetingTime(meetings.startsAt),
      // The agency's day (the transaction's time zone is the agency's), as `day` is for the others.
      startsOn: sql<string>`${meetings.startsAt}::date::text`,
      customerName: customers.displayName,
    })
    .from(meetings)
    .leftJoin(
      customers,
      and(eq(customers.tenantId, meetings.tenantId), eq(customers.id, meetings.customerId)),
    )
    .where(
      and(
        eq(meetings.tenantId, agency.tenantId),
        only ??
          and(
            eq(meetings.ownerId, ownerId),
            sql`not ${meetings.allDay}`,
            sql`${meetings.startsAt} > ${at}`,
            sql`${meetings.startsAt} <= ${at} + make_interval(mins => coalesce(${meetings.reminderMinutes}, ${leadMinutes}::int))`,
          ),
      ),
    );
  return rows.map((row) => ({
    type: 'meeting_reminder',
    subjectId: row.id,
    eventDay: row.startsOn,
    priority: 'high',
    policyNumber: null,
    customerName: row.customerName,
    values: {
      meeting_title: row.title,
      starts_at: row.startsAt,
      customer_name: row.customerName ?? '',
      agency_name: agency.name,
      due_status: startsIn(row.minutes),
    },
  }));
}

/** Whether what a reminder was about still calls for it: unpaid, not renewed or cancelled, not started. */
export async function causeRemains(
  tx: Transaction,
  agency: Agency,
  type: NotificationType,
  subjectId: string,
): Promise<boolean> {
  const [found] =
    type === 'payment_reminder'
      ? await tx
          .select({ id: installments.id })
          .from(installments)
          .where(and(eq(installments.tenantId, agency.tenantId), eq(installments.id, subjectId), unpaid))
      : type === 'policy_renewal'
        ? await tx
            .select({ id: policies.id })
            .from(policies)
            .where(
              and(
                eq(policies.tenantId, agency.tenantId),
                eq(policies.id, subjectId),
                isOpen,
                isNull(policies.notRenewingAt),
              ),
            )
        : await tx
            .select({ id: meetings.id })
            .from(meetings)
            .where(
              and(
                eq(meetings.tenantId, agency.tenantId),
                eq(meetings.id, subjectId),
                sql`${meetings.startsAt} > now()`,
              ),
            );
  return found !== undefined;
}

export const CANCELLED_BECAUSE: Record<NotificationType, string> = {
  payment_reminder: 'The instalment was paid before the reminder went out.',
  policy_renewal: 'The policy was renewed, cancelled or marked as not renewing before the reminder went out.',
  meeting_reminder: 'The meeting was removed or had started before the reminder went out.',
};

/** Where a reminder leads in the app. */
const LINKS: Record<NotificationType, { path: string; label: string }> = {
  payment_reminder: { path: '/payments', label: 'Open payments' },
  policy_renewal: { path: '/alerts', label: 'Open expiring policies' },
  meeting_reminder: { path: '/calendar', label: 'Open the calendar' },
};

/** How a user's setting for a type delivers. */
export interface Delivery {
  channels: DeliveryChannel[];
  /** When emails may go: now, or the end of the user's quiet hours. */
  emailAt: Date;
}

/** The channels of a setting, and the moment its emails may go at `now` given its quiet hours. */
export async function deliveryOf(
  tx: Transaction,
  setting: Pick<typeof notificationSettings.$inferSelect, 'channel' | 'quietHoursStart' | 'quietHoursEnd'>,
  now: Date,
): Promise<Delivery> {
  const channels: DeliveryChannel[] = setting.channel === 'both' ? ['in_app', 'email'] : [setting.channel];
  if (!channels.includes('email') || !setting.quietHoursStart || !setting.quietHoursEnd) {
    return { channels, emailAt: now };
  }
  // In the agency's time zone, which the tenant transaction set: quiet hours may run past midnight.
  const { rows } = await tx.execute<{ at: string }>(sql`
    with moment as (
      select (${now.toISOString()}::timestamptz at time zone current_setting('timezone')) as local,
        ${setting.quietHoursStart}::time as quiet_from, ${setting.quietHoursEnd}::time as quiet_to
    )
    select (case
      when quiet_from < quiet_to and local::time >= quiet_from and local::time < quiet_to
        then (local::date + quiet_to)::timestamptz
      when quiet_from > quiet_to and local::time >= quiet_from then (local::date + 1 + quiet_to)::timestamptz
      when quiet_from > quiet_to and local::time < quiet_to then (local::date + quiet_to)::timestamptz
      else ${now.toISOString()}::timestamptz end)::text as at
    from moment`);
  return { channels, emailAt: new Date(one(rows).at) };
}

/** A written email, for the job that sends it. */
export interface EmailToSend {
  historyId: string;
  at: Date;
}

/**
 * Writes reminders for one user: a history row per channel, and for the bell a notification. The
 * unique key on (user, type, subject, day, channel) lets each reminder be written once: a row that
 * already exists is skipped in the same statement, whatever ran before or runs beside it. Returns
 * the emails to send; the caller queues them in the same transaction.
 */
export async function writeReminders(
  tx: Transaction,
  agency: Agency,
  recipient: Recipient,
  delivery: Delivery,
  reminders: Reminder[],
  eventDay: string,
  options: { isTest?: boolean; createdAt?: Date } = {},
): Promise<{ rows: (typeof notificationHistory.$inferSelect)[]; emails: EmailToSend[] }> {
  if (reminders.length === 0 || delivery.channels.length === 0) return { rows: [], emails: [] };
  const templates = await listTemplates(tx, agency.tenantId);
  const rows = reminders.flatMap((reminder) =>
    delivery.channels.map((channel) => {
      const template = templates.find(
        (slot) => slot.notification_type === reminder.type && slot.channel === channel,
      );
      if (!template) throw new Error(`no template for ${reminder.type}.${channel}`);
      const link = LINKS[reminder.type];
      const rendered = renderTemplate(template, reminder.values, {
        url: `${agency.appUrl}${link.path}`,
        label: link.label,
      });
      const email = channel === 'email';
      return {
        tenantId: agency.tenantId,
        userId: recipient.userId,
        notificationType: reminder.type,
        channel,
        subjectId: reminder.subjectId,
        eventDay: reminder.eventDay ?? eventDay,
        status: email ? ('pending' as const) : ('sent' as const),
        priority: reminder.priority,
        recipient: email ? recipient.email : 'In the app',
        title: rendered.subject,
        message: email ? rendered.text : rendered.body,
        htmlBody: email ? rendered.html : '',
        relatedPolicyNumber: reminder.policyNumber,
        relatedCustomerName: reminder.customerName,
        isTest: options.isTest ?? false,
        scheduledFor: email ? delivery.emailAt : (options.createdAt ?? sql`now()`),
        sentAt: email ? null : (options.createdAt ?? sql`now()`),
        createdAt: options.createdAt ?? sql`now()`,
      };
    }),
  );
  const written = await tx
    .insert(notificationHistory)
    .values(rows as (typeof notificationHistory.$inferInsert)[])
    .onConflictDoNothing()
    .returning();
  const toBell = written.filter((row) => row.channel === 'in_app');
  if (toBell.length > 0) {
    await tx.insert(notifications).values(
      toBell.map((row) => ({
        tenantId: row.tenantId,
        userId: row.userId,
        historyId: row.id,
        notificationType: row.notificationType,
        priority: row.priority,
        title: row.title,
        message: row.message,
        relatedPolicyNumber: row.relatedPolicyNumber,
        relatedCustomerName: row.relatedCustomerName,
        createdAt: row.createdAt,
      })),
    );
  }
  return {
    rows: written,
    emails: written
      .filter((row) => row.channel === 'email')
      .map((row) => ({ historyId: row.id, at: row.scheduledFor })),
  };
}
