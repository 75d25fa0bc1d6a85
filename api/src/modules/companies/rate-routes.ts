import {
  byCompanyQuery,
  companyPolicyType,
  companyPolicyTypeList,
  detailResponse,
  fieldErrorsResponse,
  policyType,
  policyTypeBody,
  policyTypeLinkBody,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { one } from '../../db/query-helpers.js';
import { withTenant } from '../../db/tenant.js';
import { bearerAuth } from '../../http/authenticate.js';
import { fieldError, parseWith } from '../../http/errors.js';
import { authorizeModule, withModule } from '../billing/access.js';
import { createPolicyType, nameTaken, requirePolicyType } from '../policy-types/queries.js';
import { companyExists, requireCompanyExists } from './queries.js';
import { linkRate, listRates, unknownPolicyTypeIds } from './rates.js';

const tags = ['policy types'];
const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse, 404: detailResponse };
/** The type catalogue is open to every active plan; letting an insurer sell a type needs Companies. */
const ANY_PLAN = undefined;

/**
 * The spec's calls under /policy-types/ that involve insurers: the one that adds a type or lets an
 * insurer sell one (and at what rate), and the types one insurer sells. They live with the insurers'
 * rates, which know both the insurers and the catalogue below them.
 */
export const rateRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = ctx;

    app.post(
      '/policy-types/',
      {
        config: { action: 'agency_settings' },
        schema: {
          tags,
          summary: 'Add a policy type, or let an insurer sell one',
          description:
            "With `{name, category, description, is_active}` adds a type to the catalogue. With the spec's `{company_id, policy_type_id, custom_name}` (and an optional `commission_percentage`) the insurer starts selling the type, or updates its name and rate for it.",
          security: bearerAuth,
          body: z.record(z.string(), z.unknown()),
          response: { 201: z.union([policyType, companyPolicyType]), ...errors },
        },
      },
      async (request, reply) => {
        const linking = 'company_id' in request.body;
        const { tenantId } = await authorizeModule(ctx, request, linking ? 'module_companies' : ANY_PLAN);
        if (linking) {
          const link = parseWith(policyTypeLinkBody, request.body);
          const linked = await withTenant(db, tenantId, async (tx) => {
            if (!(await companyExists(tx, tenantId, link.company_id))) {
              throw fieldError('company_id', 'No insurer with this id.');
            }
            if ((await unknownPolicyTypeIds(tx, tenantId, [link.policy_type_id])).length > 0) {
              throw fieldError('policy_type_id', 'No policy type with this id.');
            }
            const id = await linkRate(tx, tenantId, link.company_id, link);
            const rates = (await listRates(tx, tenantId, [link.company_id])).get(link.company_id) ?? [];
            return one(rates.filter((rate) => rate.id === id));
          });
          return reply.code(201).send(linked);
        }
        const values = parseWith(policyTypeBody, request.body);
        const created = await withTenant(db, tenantId, async (tx) => {
          const id = await createPolicyType(tx, tenantId, values);
          return requirePolicyType(tx, tenantId, id);
        }).catch(nameTaken);
        return reply.code(201).send(created);
      },
    );

    app.get(
      '/policy-types/by_company/',
      {
        schema: {
          tags,
          summary: 'The types one insurer sells, with its names and rates for them',
          security: bearerAuth,
          querystring: byCompanyQuery,
          response: { 200: companyPolicyTypeList, ...errors },
        },
      },
      async (request) => {
        const companyId = request.query.company_id;
        const rates = await withModule(ctx, request, 'module_companies', async (tx, { tenantId }) => {
          await requireCompanyExists(tx, tenantId, companyId);
          return (await listRates(tx, tenantId, [companyId])).get(companyId) ?? [];
        });
        return { results: rates };
      },
    );
  };
