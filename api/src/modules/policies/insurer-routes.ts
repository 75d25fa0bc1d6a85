import { companyPolicyPage, companyStats, pageQuery } from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { bearerAuth } from '../../http/authenticate.js';
import { pageOf } from '../../http/pagination.js';
import { withModule } from '../billing/access.js';
import { requireCompanyExists } from '../companies/queries.js';
import { listPolicies, summarizePolicies } from './queries.js';
import { errors, idParams } from './routes-shared.js';

/** An insurer's own pages are the companies module's: on a plan without it, these answer 403 too. */
const MODULE = 'module_companies';
const tags = ['companies'];

/** An insurer's policies and their figures, for the insurer's page: the book read by insurer. */
export const policyInsurerRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/companies/:id/policies/',
      {
        schema: {
          tags,
          summary: 'The policies an insurer underwrote',
          security: bearerAuth,
          params: idParams,
          querystring: pageQuery,
          response: { 200: companyPolicyPage, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        const { count, resultsJson } = await withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          await requireCompanyExists(tx, tenantId, id);
          return listPolicies(tx, tenantId, { ...request.query, company_id: id, ordering: '-start_date' });
        });
        // Decoded, so that the response schema keeps only the columns an insurer's list shows.
        return pageOf(request, request.query, count, JSON.parse(resultsJson));
      },
    );

    app.get(
      '/companies/:id/stats/',
      {
        schema: {
          tags,
          summary: "An insurer's policy counts, premium and commission",
          security: bearerAuth,
          params: idParams,
          response: { 200: companyStats, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        const stats = await withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          await requireCompanyExists(tx, tenantId, id);
          return summarizePolicies(tx, tenantId, { companyId: id });
        });
        return {
          company_id: id,
          policy_count: stats.total,
          active_policy_count: stats.by_status.active,
          active_premium: stats.active_premium,
          expected_commission: stats.expected_commission,
          received_commission: stats.received_commission,
        };
      },
    );
  };
