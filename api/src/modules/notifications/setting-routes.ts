import {
  addDays,
  detailResponse,
  historyEntry,
  type NotificationType,
  notificationSetting,
  notificationSettingList,
  settingBody,
  settingPatch,
  settingProblems,
  settingsBulkBody,
  settingsSummary,
  testNotificationBody,
  unreadCount,
} from '@coverdesk/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { agencyToday } from '../../db/tenant.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { HttpError, notFound } from '../../http/errors.js';
import { withModule } from '../billing/access.js';
import { agencyUsers, tenants } from '../tenants/tables.js';
import { consumeAttempt } from '../throttle/throttle.js';
import {
  changeSetting,
  notificationStats as countNotifications,
  findSetting,
  lastSentAt,
  resetSetting,
  settingsOf,
  toHistoryEntry,
  toSetting,
} from './queries.js';
import {
  type Agency,
  deliveryOf,
  formatDay,
  formatMoney,
  meetingTime,
  paymentHeading,
  type Reminder,
  startsIn,
  writeReminders,
} from './reminders.js';
import { errors, idParams, MODULE, tags } from './routes-shared.js';
import type { NotificationRunner } from './runner.js';

/** How many "Send a test" a user, and their whole agency, may ask for in an hour. */
const TESTS_PER_HOUR = { user: 5, agency: 20 };
/** The start of the throttle keys of "Send a test". */
export const TEST_THROTTLE_PREFIX = 'notification-test:';
const testSent = z.object({ detail: z.string(), results: z.array(historyEntry) });

/** A sample of each type, for "Send a test": the real template, filled with made-up values. */
function sampleReminder(
  type: NotificationType,
  agency: Agency,
  today: string,
  inHalfAnHour: string,
): Reminder {
  const common = {
    subjectId: null,
    priority: 'low' as const,
    policyNumber: 'TEST-0001',
    customerName: 'Sample Customer',
  };
  const values = {
    customer_name: 'Sample Customer',
    policy_number: 'TEST-0001',
    insurer: 'Sample Insurer',
    agency_name: agency.name,
  };
  if (type === 'meeting_reminder') {
    return {
      ...common,
      type,
      policyNumber: null,
      values: {
        ...values,
        meeting_title: 'Sample meeting',
        starts_at: inHalfAnHour,
        due_status: startsIn(30),
      },
    };
  }
  return {
    ...common,
    type,
    values: {
      ...values,
      heading: type === 'payment_reminder' ? paymentHeading(-3) : 'Policy renewal',
      amount: formatMoney(type === 'payment_reminder' ? '250.00' : '1200.00', agency.currency),
      due_date: formatDay(addDays(today, type === 'payment_reminder' ? 3 : 30)),
      due_status: type === 'payment_reminder' ? 'coming up in 3 days' : 'in 30 days',
    },
  };
}

async function requireSetting(tx: Transaction, tenantId: string, userId: string, id: string) {
  const found = await findSetting(tx, tenantId, userId, id);
  if (!found) throw notFound('Setting not found.');
  return found;
}

/** A PATCH is checked across fields with the stored setting filled in, as the merged row will be. */
function checkPatched(stored: Parameters<typeof toSetting>[0], patch: z.output<typeof settingPatch>) {
  const current = toSetting(stored);
  const merged = {
    notification_type: current.notification_type,
    lead_time: patch.lead_time ?? current.lead_time,
    quiet_hours_start:
      patch.quiet_hours_start === undefined ? current.quiet_hours_start : patch.quiet_hours_start,
    quiet_hours_end: patch.quiet_hours_end === undefined ? current.quiet_hours_end : patch.quiet_hours_end,
  };
  const problems = settingProblems(merged);
  if (Object.keys(problems).length > 0) {
    throw new HttpError(
      400,
      Object.fromEntries(Object.entries(problems).map(([field, text]) => [field, [text]])),
    );
  }
}

/** Each user's reminder settings, their summary and unread count, and "Send a test". */
export const settingRoutes =
  (ctx: AppContext, runner: NotificationRunner): FastifyPluginAsyncZod =>
  async (app) => {
    /** The agency as emails name it: platform facts, read before the tenant transaction. */
    const agencyOf = async (request: FastifyRequest): Promise<Agency> => {
      const { tenantId } = signedInUser(request);
      const [row] = await ctx.db
        .select({ name: tenants.name, currency: tenants.currency })
        .from(tenants)
        .where(eq(tenants.id, tenantId));
      return { tenantId, name: row?.name ?? '', currency: row?.currency ?? 'USD', appUrl: ctx.config.appUrl };
    };

    app.get(
      '/notifications/settings/',
      {
        schema: {
          tags,
          summary: 'The signed-in user’s setting for each type (defaults until changed)',
          security: bearerAuth,
          response: { 200: notificationSettingList, ...errors },
        },
      },
      async (request) => ({
        results: (
          await withModule(ctx, request, MODULE, (tx, { tenantId, userId }) =>
            settingsOf(tx, tenantId, [userId]),
          )
        ).map(toSetting),
      }),
    );

    app.post(
      '/notifications/settings/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'Set a type’s setting in full',
          description: 'Each user has one setting per type; this replaces it.',
          security: bearerAuth,
          body: settingBody,
          response: { 201: notificationSetting, ...errors },
        },
      },
      async (request, reply) => {
        const { notification_type, ...patch } = request.body;
        const saved = await withModule(ctx, request, MODULE, (tx, { tenantId, userId }) =>
          changeSetting(tx, tenantId, userId, notification_type, patch),
        );
        return reply.code(201).send(toSetting(saved));
      },
    );

    app.post(
      '/notifications/settings/bulk_update/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'Change several types’ settings at once',
          security: bearerAuth,
          body: settingsBulkBody,
          response: { 200: notificationSettingList, ...errors },
        },
      },
      async (request) => ({
        results: (
          await withModule(ctx, request, MODULE, async (tx, { tenantId, userId }) => {
            for (const { notification_type, ...patch } of request.body.settings) {
              const stored = (await settingsOf(tx, tenantId, [userId])).find(
                (row) => row.notificationType === notification_type,
              );
              if (stored) checkPatched(stored, patch);
              await changeSetting(tx, tenantId, userId, notification_type, patch);
            }
            return settingsOf(tx, tenantId, [userId]);
          })
        ).map(toSetting),
      }),
    );

    app.get(
      '/notifications/settings/summary/',
      {
        schema: {
          tags,
          summary: 'What the user will be reminded of, in a few figures',
          security: bearerAuth,
          response: { 200: settingsSummary, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, async (tx, { tenantId, userId }) => {
          const settings = (await settingsOf(tx, tenantId, [userId])).filter((row) => row.enabled);
          const { unread } = await countNotifications(tx, tenantId, userId);
          return {
            enabled_types: settings.length,
            total_types: 3,
            email_enabled: settings.some((row) => row.channel !== 'in_app'),
            in_app_enabled: settings.some((row) => row.channel !== 'email'),
            unread_count: unread,
            last_sent_at: await lastSentAt(tx, tenantId, userId),
          };
        }),
    );

    app.get(
      '/notifications/settings/unread_count/',
      {
        schema: {
          tags,
          summary: 'How many notifications the bell shows as unread',
          security: bearerAuth,
          response: { 200: unreadCount, ...errors },
        },
      },
      async (request) => ({
        unread_count: (
          await withModule(ctx, request, MODULE, (tx, { tenantId, userId }) =>
            countNotifications(tx, tenantId, userId),
          )
        ).unread,
      }),
    );

    app.post(
      '/notifications/settings/test_notification/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'Send a test of a type through the user’s channel for it',
          description:
            'Uses the agency’s template with made-up values. The email, when the channel includes it, is queued like any reminder; its delivery shows in the history.',
          security: bearerAuth,
          body: testNotificationBody,
          response: { 201: testSent, 429: detailResponse, ...errors },
        },
      },
      async (request, reply) => {
        // Each test emails the user's own address, which nobody has verified: without a limit the
        // endpoint would relay mail to anyone who signs up with their address.
        const { tenantId, userId } = signedInUser(request);
        await consumeAttempt(
          ctx.db,
          [
            { key: `${TEST_THROTTLE_PREFIX}user:${userId}`, limit: TESTS_PER_HOUR.user, windowSeconds: 3600 },
            {
              key: `${TEST_THROTTLE_PREFIX}agency:${tenantId}`,
              limit: TESTS_PER_HOUR.agency,
              windowSeconds: 3600,
            },
          ],
          `You can send ${TESTS_PER_HOUR.user} test notifications an hour (your agency ${TESTS_PER_HOUR.agency}).`,
        );
        const agency = await agencyOf(request);
        const type = request.body.notification_type;
        const results = await withModule(ctx, request, MODULE, async (tx, { tenantId, userId }) => {
          const [setting] = (await settingsOf(tx, tenantId, [userId])).filter(
            (row) => row.notificationType === type,
          );
          const [user] = await tx
            .select({ email: agencyUsers.email })
            .from(agencyUsers)
            .where(eq(agencyUsers.id, userId));
          if (!setting || !user) throw notFound('User not found.');
          const today = await agencyToday(tx);
          // The sample meeting starts half an hour from now, on the agency's clock.
          const { rows } = await tx.execute<{ at: string }>(
            sql`select ${meetingTime(sql`now() + interval '30 minutes'`)} as at`,
          );
          const written = await writeReminders(
            tx,
            agency,
            { userId, email: user.email },
            await deliveryOf(tx, { ...setting, quietHoursStart: null, quietHoursEnd: null }, new Date()),
            [sampleReminder(type, agency, today, rows[0]?.at ?? '')],
            today,
            { isTest: true },
          );
          await runner.queueEmails(tx, tenantId, written.emails);
          return written.rows.map((row) => toHistoryEntry({ history: row, readAt: null }));
        });
        return reply.code(201).send({ detail: 'Test notification sent.', results });
      },
    );

    app.get(
      '/notifications/settings/:id/',
      {
        schema: {
          tags,
          summary: 'One of the user’s settings',
          security: bearerAuth,
          params: idParams,
          response: { 200: notificationSetting, ...errors },
        },
      },
      async (request) =>
        toSetting(
          await withModule(ctx, request, MODULE, (tx, { tenantId, userId }) =>
            requireSetting(tx, tenantId, userId, request.params.id),
          ),
        ),
    );

    app.patch(
      '/notifications/settings/:id/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'Change one of the user’s settings',
          security: bearerAuth,
          params: idParams,
          body: settingPatch,
          response: { 200: notificationSetting, ...errors },
        },
      },
      async (request) =>
        toSetting(
          await withModule(ctx, request, MODULE, async (tx, { tenantId, userId }) => {
            const stored = await requireSetting(tx, tenantId, userId, request.params.id);
            checkPatched(stored, request.body);
            return changeSetting(tx, tenantId, userId, stored.notificationType, request.body);
          }),
        ),
    );

    app.delete(
      '/notifications/settings/:id/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'Put a setting back to its defaults',
          security: bearerAuth,
          params: idParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await withModule(ctx, request, MODULE, async (tx, { tenantId, userId }) => {
          if (!(await resetSetting(tx, tenantId, userId, request.params.id)))
            throw notFound('Setting not found.');
        });
        return reply.code(204).send(null);
      },
    );
  };
