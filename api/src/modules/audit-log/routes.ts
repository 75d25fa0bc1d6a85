import {
  auditListQuery,
  auditPage,
  auditUserList,
  detailResponse,
  fieldErrorsResponse,
} from '@coverdesk/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { withTenant } from '../../db/tenant.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { HttpError } from '../../http/errors.js';
import { pageOf } from '../../http/pagination.js';
import { findUserById } from '../accounts/queries.js';
import { listAgencyAudit, listAgencyUsers } from './queries.js';

const tags = ['audit'];
const errors = { 400: fieldErrorsResponse, 401: detailResponse, 403: detailResponse };

/**
 * Owners and managers read the agency's log (the role check before the handler); the demo user
 * never does: the visitors who share it would read one another's sign-ins.
 */
async function requireNotDemo(db: Database, request: FastifyRequest) {
  const auth = signedInUser(request);
  const user = await findUserById(db, auth.userId);
  if (!user || user.isDemoUser) {
    throw new HttpError(403, { detail: "The demo agency's activity log is not shown." });
  }
  return auth;
}

/** An agency's own audit log, for its owner. */
export const auditRoutes =
  ({ db }: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/user/profile/audit/',
      {
        config: { action: 'audit_log' },
        schema: {
          tags,
          summary: "The agency's activity log, newest first (its owner only)",
          description:
            "Sign-ins, sign-outs, password and profile changes, and every create, update and delete of the agency's records, with the fields changed. `date_from` and `date_to` are whole days in the agency's time zone. 403 for anyone but the owner.",
          security: bearerAuth,
          querystring: auditListQuery,
          response: { 200: auditPage, ...errors },
        },
      },
      async (request) => {
        const { tenantId } = await requireNotDemo(db, request);
        const { count, results } = await withTenant(db, tenantId, (tx) =>
          listAgencyAudit(tx, tenantId, request.query),
        );
        return pageOf(request, request.query, count, results);
      },
    );

    app.get(
      '/user/profile/audit/users/',
      {
        config: { action: 'audit_log' },
        schema: {
          tags,
          summary: "The agency's users, to filter its activity log by (its owner only)",
          security: bearerAuth,
          response: { 200: auditUserList, ...errors },
        },
      },
      async (request) => {
        const { tenantId } = await requireNotDemo(db, request);
        return { results: await withTenant(db, tenantId, listAgencyUsers) };
      },
    );
  };
