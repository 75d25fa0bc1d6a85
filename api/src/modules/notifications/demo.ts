import { and, asc, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { asConnectingRole } from '../../db/tenant.js';
import { meetings } from '../calendar/tables.js';
import { overdue } from '../policies/instalments.js';
import { expiringWithin } from '../policies/status.js';
import { installments, policies } from '../policies/tables.js';
import { agencyUsers, tenants } from '../tenants/tables.js';
import { settingsOf } from './queries.js';
import {
  type Agency,
  meetingReminders,
  paymentReminders,
  type Reminder,
  renewalReminders,
  writeReminders,
} from './reminders.js';
import { notificationHistory, notificationSettings, notificationTemplates } from './tables.js';

/** How long ago each demo notification arrived, newest first; the last two are already read. */
const MINUTES_AGO = [3, 42, 3 * 60, 26 * 60, 50 * 60, 74 * 60];
const ALREADY_READ = 2;

/**
 * The demo broker's bell: a handful of reminders written the way the generator writes them, from
 * the demo's own book (its oldest overdue instalments, its nearest renewals, its next meeting), so
 * a visitor signing in sees the popup, the badge and links that lead somewhere real. Settings are
 * the defaults, in the app only. Runs after the policies and meetings are seeded.
 */
export async function seedDemoNotifications(
  tx: Transaction,
  { tenantId, day, now }: { tenantId: string; day: string; now: Date },
): Promise<void> {
  // Deliveries take their notifications with them.
  await tx.delete(notificationHistory).where(eq(notificationHistory.tenantId, tenantId));
  await tx.delete(notificationSettings).where(eq(notificationSettings.tenantId, tenantId));
  await tx.delete(notificationTemplates).where(eq(notificationTemplates.tenantId, tenantId));
  const [user] = await tx.select({ id: agencyUsers.id, email: agencyUsers.email }).from(agencyUsers).limit(1);
  if (!user) return;
  await settingsOf(tx, tenantId, [user.id]);
  // Nobody reads the shared demo account's mailbox: its reminders stay in the app.
  await tx
    .update(notificationSettings)
    .set({ channel: 'in_app' })
    .where(eq(notificationSettings.tenantId, tenantId));
  // The agency's name is a platform fact.
  const [facts] = await asConnectingRole(tx, () =>
    tx
      .select({ name: tenants.name, currency: tenants.currency })
      .from(tenants)
      .where(eq(tenants.id, tenantId)),
  );
  const agency: Agency = {
    tenantId,
    name: facts?.name ?? '',
    currency: facts?.currency ?? 'USD',
    appUrl: '',
  };

  const oldestOverdue = tx
    .select({ id: installments.id })
    .from(installments)
    .where(and(eq(installments.tenantId, tenantId), overdue))
    .orderBy(asc(installments.dueDate), asc(installments.id))
    .limit(3);
  const nearestRenewals = tx
    .select({ id: policies.id })
    .from(policies)
    .where(and(eq(policies.tenantId, tenantId), expiringWithin(30), isNull(policies.notRenewingAt)))
    .orderBy(asc(policies.endDate), asc(policies.id))
    .limit(2);
  const nextMeeting = tx
    .select({ id: meetings.id })
    .from(meetings)
    .where(and(eq(meetings.tenantId, tenantId), gte(meetings.startsAt, sql`now()`)))
    .orderBy(asc(meetings.startsAt))
    .limit(1);
  // The newest are the overdue payments, then the meeting, then the renewals.
  const reminders: Reminder[] = [
    ...(await paymentReminders(tx, agency, day, 0, inArray(installments.id, oldestOverdue))),
    ...(await meetingReminders(tx, agency, user.id, now, 0, inArray(meetings.id, nextMeeting))),
    ...(await renewalReminders(tx, agency, day, 0, inArray(policies.id, nearestRenewals))),
  ];
  for (const [index, reminder] of reminders.slice(0, MINUTES_AGO.length).entries()) {
    const createdAt = new Date(now.getTime() - (MINUTES_AGO[index] ?? 0) * 60_000);
    await writeReminders(
      tx,
      agency,
      { userId: user.id, email: user.email },
      { channels: ['in_app'], emailAt: createdAt },
      [reminder],
      day,
      { createdAt },
    );
  }
  await tx.execute(sql`
    update notifications set read_at = created_at + interval '5 minutes'
    where tenant_id = ${tenantId} and id in (
      select id from notifications where tenant_id = ${tenantId} order by created_at asc limit ${ALREADY_READ})`);
}
