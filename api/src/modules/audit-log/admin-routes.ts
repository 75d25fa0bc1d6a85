import {
  adminAuditListQuery,
  adminAuditPage,
  auditAgencyList,
  auditAgencyQuery,
  detailResponse,
  fieldErrorsResponse,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { readAcrossAgencies } from '../../db/platform-read.js';
import { bearerAuth } from '../../http/authenticate.js';
import { pageOf } from '../../http/pagination.js';
import { findAgencies, listPlatformAudit } from './queries.js';

const tags = ['admin'];
const errors = { 400: fieldErrorsResponse, 401: detailResponse, 403: detailResponse };

/** The whole platform's audit log (user activity). */
export const adminAuditRoutes =
  ({ db }: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/user-activity/',
      {
        schema: {
          tags,
          summary: 'Every agency’s activity and every admin action, newest first',
          description:
            '`tenant` is an agency id; `user` a user id, or part of the email the action was taken with (a failed sign-in keeps the email typed). `date_from` and `date_to` are whole days in UTC.',
          security: bearerAuth,
          querystring: adminAuditListQuery,
          response: { 200: adminAuditPage, ...errors },
        },
      },
      async (request) => {
        const { count, results } = await readAcrossAgencies(db, (tx) => listPlatformAudit(tx, request.query));
        return pageOf(request, request.query, count, results);
      },
    );

    app.get(
      '/user-activity/agencies/',
      {
        schema: {
          tags,
          summary: 'Agencies by name, to filter user activity by',
          security: bearerAuth,
          querystring: auditAgencyQuery,
          response: { 200: auditAgencyList, ...errors },
        },
      },
      async (request) => ({ results: await findAgencies(db, request.query.search) }),
    );
  };
