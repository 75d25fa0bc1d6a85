import {
  historyEntry,
  historyList,
  historyListQuery,
  historyStats,
  historyUnread,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { bearerAuth } from '../../http/authenticate.js';
import { notFound } from '../../http/errors.js';
import { pageOf } from '../../http/pagination.js';
import { withModule } from '../billing/access.js';
import {
  historyStats as countHistory,
  findHistory,
  listHistory,
  markNotificationsRead,
  toHistoryEntry,
  unreadHistory,
} from './queries.js';
import { errors, idParams, MODULE, marked, tags } from './routes-shared.js';

/** The delivery history: one row per reminder and channel, read and marked read. */
export const historyRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/notifications/history/',
      {
        schema: {
          tags,
          summary: 'Every delivery of the user’s reminders, newest first',
          description:
            'One row per channel: `in_app` (the bell) or `email`. Status pending, sent, failed (with the reason) or cancelled (its cause went away before sending).',
          security: bearerAuth,
          querystring: historyListQuery,
          response: { 200: historyList, ...errors },
        },
      },
      async (request) => {
        const { count, results } = await withModule(ctx, request, MODULE, (tx, { tenantId, userId }) =>
          listHistory(tx, tenantId, userId, request.query),
        );
        return pageOf(request, request.query, count, results);
      },
    );

    app.get(
      '/notifications/history/stats/',
      {
        schema: {
          tags,
          summary: 'Deliveries counted by status and type',
          security: bearerAuth,
          response: { 200: historyStats, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, (tx, { tenantId, userId }) => countHistory(tx, tenantId, userId)),
    );

    app.get(
      '/notifications/history/unread/',
      {
        schema: {
          tags,
          summary: 'Deliveries to the bell not read yet (at most 100)',
          security: bearerAuth,
          response: { 200: historyUnread, ...errors },
        },
      },
      async (request) => ({
        results: await withModule(ctx, request, MODULE, (tx, { tenantId, userId }) =>
          unreadHistory(tx, tenantId, userId),
        ),
      }),
    );

    app.post(
      '/notifications/history/:id/mark_as_read/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'Mark a delivery read (and its notification in the bell)',
          security: bearerAuth,
          params: idParams,
          response: { 200: historyEntry, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, async (tx, { tenantId, userId }) => {
          if (!(await findHistory(tx, tenantId, userId, request.params.id)))
            throw notFound('Delivery not found.');
          await markNotificationsRead(tx, tenantId, userId, { historyId: request.params.id });
          const found = await findHistory(tx, tenantId, userId, request.params.id);
          if (!found) throw notFound('Delivery not found.');
          return toHistoryEntry(found);
        }),
    );

    app.post(
      '/notifications/history/mark_all_as_read/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'Mark every delivery read',
          security: bearerAuth,
          response: { 200: marked, ...errors },
        },
      },
      async (request) => ({
        marked: await withModule(ctx, request, MODULE, (tx, { tenantId, userId }) =>
          markNotificationsRead(tx, tenantId, userId),
        ),
      }),
    );
  };
