import {
  detailResponse,
  fieldErrorsResponse,
  policyType,
  policyTypeBody,
  policyTypeInUse,
  policyTypeListQuery,
  policyTypePage,
  uuid,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import { bearerAuth } from '../../http/authenticate.js';
import { conflict, notFound } from '../../http/errors.js';
import { pageOf } from '../../http/pagination.js';
import { withModule } from '../billing/access.js';
import {
  deletePolicyType,
  listPolicyTypes,
  nameTaken,
  POLICY_TYPE_NOT_FOUND,
  requirePolicyType,
  updatePolicyType,
  usesOfPolicyType,
} from './queries.js';

const idParams = z.object({ id: uuid });
const tags = ['policy types'];
const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse, 404: detailResponse };
/** The type catalogue is open to every active plan; letting an insurer sell a type needs Companies. */
const ANY_PLAN = undefined;

/**
 * The agency's catalogue of policy types, open to any agency with an active plan. Adding a type is
 * served with the insurers' rates (companies/rate-routes.ts): the spec's one call for both adds a
 * type or lets an insurer sell one.
 */
export const policyTypeRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/policy-types/',
      {
        schema: {
          tags,
          summary: 'Policy types, searched, filtered and sorted',
          security: bearerAuth,
          querystring: policyTypeListQuery,
          response: { 200: policyTypePage, ...errors },
        },
      },
      async (request) => {
        const { count, results } = await withModule(ctx, request, ANY_PLAN, (tx, { tenantId }) =>
          listPolicyTypes(tx, tenantId, request.query),
        );
        return pageOf(request, request.query, count, results);
      },
    );

    app.get(
      '/policy-types/:id/',
      {
        schema: {
          tags,
          summary: 'One policy type',
          security: bearerAuth,
          params: idParams,
          response: { 200: policyType, ...errors },
        },
      },
      async (request) => {
        return withModule(ctx, request, ANY_PLAN, (tx, { tenantId }) =>
          requirePolicyType(tx, tenantId, request.params.id),
        );
      },
    );

    app.put(
      '/policy-types/:id/',
      {
        config: { action: 'agency_settings' },
        schema: {
          tags,
          summary: 'Change a policy type',
          security: bearerAuth,
          params: idParams,
          body: policyTypeBody,
          response: { 200: policyType, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        return withModule(ctx, request, ANY_PLAN, async (tx, { tenantId }) => {
          if (!(await updatePolicyType(tx, tenantId, id, request.body)))
            throw notFound(POLICY_TYPE_NOT_FOUND);
          return requirePolicyType(tx, tenantId, id);
        }).catch(nameTaken);
      },
    );

    app.delete(
      '/policy-types/:id/',
      {
        config: { action: 'agency_settings' },
        schema: {
          tags,
          summary: 'Delete a policy type nothing uses',
          description:
            'A type an insurer sells or a policy uses answers 409 with what uses it; deactivate it instead.',
          security: bearerAuth,
          params: idParams,
          response: { 204: z.null(), 409: policyTypeInUse, ...errors },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        await withModule(ctx, request, ANY_PLAN, async (tx, { tenantId }) => {
          const type = await requirePolicyType(tx, tenantId, id);
          const usage = await usesOfPolicyType.of(tx, tenantId, id);
          if (usage.companies.length > 0 || usage.policies_count > 0) {
            throw conflict({ detail: inUseMessage(type.name, usage), ...usage });
          }
          await deletePolicyType(tx, tenantId, id);
        }).catch((error: unknown) => {
          // An insurer started selling it between the check and the delete.
          if (isForeignKeyViolation(error)) {
            throw conflict({
              detail: 'This policy type has just been put to use. Deactivate it instead.',
              companies: [],
              policies_count: 0,
            });
          }
          throw error;
        });
        return reply.code(204).send(null);
      },
    );
  };

function inUseMessage(name: string, usage: Awaited<ReturnType<typeof usesOfPolicyType.of>>): string {
  const uses: string[] = [];
  if (usage.companies.length > 0) {
    const names = usage.companies.map((company) => company.name).join(', ');
    uses.push(
      `${usage.companies.length === 1 ? 'an insurer sells it' : `${usage.companies.length} insurers sell it`} (${names})`,
    );
  }
  if (usage.policies_count > 0) {
    uses.push(`${usage.policies_count} ${usage.policies_count === 1 ? 'policy uses' : 'policies use'} it`);
  }
  return `${name} cannot be deleted: ${uses.join(' and ')}. Deactivate it instead to keep it off new policies.`;
}
