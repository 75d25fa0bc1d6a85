import {
  BELL_ITEMS,
  markReadBody,
  notification,
  notificationList,
  notificationListQuery,
  notificationStats,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { bearerAuth } from '../../http/authenticate.js';
import { notFound } from '../../http/errors.js';
import { pageOf } from '../../http/pagination.js';
import { withModule } from '../billing/access.js';
import {
  notificationStats as countNotifications,
  dismissNotification,
  findNotification,
  listNotifications,
  markNotificationsRead,
} from './queries.js';
import { errors, idParams, MODULE, marked, tags } from './routes-shared.js';

async function requireNotification(tx: Transaction, tenantId: string, userId: string, id: string) {
  const found = await findNotification(tx, tenantId, userId, id);
  if (!found) throw notFound('Notification not found.');
  return found;
}

/** The bell (spec: /notifications/dashboard/): the user's notifications, read, marked and dismissed. */
export const bellRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/notifications/dashboard/',
      {
        schema: {
          tags,
          summary: 'The signed-in user’s notifications, newest first',
          description: `Filters: notification_type, is_read, priority, date_from and date_to (the agency's days). The bell asks for the ${BELL_ITEMS} latest.`,
          security: bearerAuth,
          querystring: notificationListQuery,
          response: { 200: notificationList, ...errors },
        },
      },
      async (request) => {
        const { count, results } = await withModule(ctx, request, MODULE, (tx, { tenantId, userId }) =>
          listNotifications(tx, tenantId, userId, request.query),
        );
        return pageOf(request, request.query, count, results);
      },
    );

    app.get(
      '/notifications/dashboard/stats/',
      {
        schema: {
          tags,
          summary: 'How many notifications, read and unread',
          security: bearerAuth,
          response: { 200: notificationStats, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, (tx, { tenantId, userId }) =>
          countNotifications(tx, tenantId, userId),
        ),
    );

    app.post(
      '/notifications/dashboard/:id/mark-read/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'Mark one notification read',
          security: bearerAuth,
          params: idParams,
          response: { 200: notification, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, async (tx, { tenantId, userId }) => {
          await requireNotification(tx, tenantId, userId, request.params.id);
          await markNotificationsRead(tx, tenantId, userId, { ids: [request.params.id] });
          return requireNotification(tx, tenantId, userId, request.params.id);
        }),
    );

    app.post(
      '/notifications/dashboard/mark-all-read/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'Mark notifications read: those named in `ids`, or all of them',
          security: bearerAuth,
          body: markReadBody.optional(),
          response: { 200: marked, ...errors },
        },
      },
      async (request) => ({
        marked: await withModule(ctx, request, MODULE, (tx, { tenantId, userId }) =>
          markNotificationsRead(tx, tenantId, userId, { ids: request.body?.ids }),
        ),
      }),
    );

    app.post(
      '/notifications/dashboard/:id/dismiss/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'Dismiss a notification: it leaves the bell; its delivery stays in the history',
          security: bearerAuth,
          params: idParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await withModule(ctx, request, MODULE, async (tx, { tenantId, userId }) => {
          if (!(await dismissNotification(tx, tenantId, userId, request.params.id))) {
            throw notFound('Notification not found.');
          }
        });
        return reply.code(204).send(null);
      },
    );
  };
