import {
  byCompanyQuery,
  companyPolicyType,
  companyPolicyTypeList,
  detailResponse,
  fieldErrorsResponse,
  policyType,
  policyTypeBody,
  policyTypeInUse,
  policyTypeLinkBody,
  policyTypeListQuery,
  policyTypePage,
  uuid,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js';
import { one } from '../../db/query-helpers.js';
import { withTenant } from '../../db/tenant.js';
import { bearerAuth } from '../../http/authenticate.js';
import { conflict, fieldError, notFound, parseWith } from '../../http/errors.js';
import { pageOf } from '../../http/pagination.js';
import { authorizeModule, withModule } from '../billing/access.js';
import { companyExists } from '../companies/queries.js';
import { linkRate, listRates, unknownPolicyTypeIds } from '../companies/rates.js';
import {
  createPolicyType,
  deletePolicyType,
  findPolicyType,
  listPolicyTypes,
  policyTypeUsage,
  updatePolicyType,
} from './queries.js';

const idParams = z.object({ id: uuid });
const tags = ['policy types'];
const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse, 404: detailResponse };
/** The type catalogue is open to every active plan; letting an insurer sell a type needs Companies. */
const ANY_PLAN = undefined;
const NOT_FOUND = 'Policy type not found.';
const NAME_TAKEN = 'A policy type with this name already exists.';

async function requirePolicyType(tx: Transaction, tenantId: string, id: string) {
  const found = await findPolicyType(tx, tenantId, id);
  if (!found) throw notFound(NOT_FOUND);
  return found;
}

/** A duplicate name is the broker's mistake to fix, not a server error. */
const nameTaken = (error: unknown): never => {
  if (isUniqueViolation(error, 'policy_types_tenant_name_key')) throw fieldError('name', NAME_TAKEN);
  throw error;
};

/**
 * The agency's catalogue of policy types, and the spec's call that lets an insurer sell one. Any
 * agency with an active plan keeps a catalogue; insurers are the companies module.
 */
export const policyTypeRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = ctx;

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

    app.post(
      '/policy-types/',
      {
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
          if (!(await companyExists(tx, tenantId, companyId))) throw notFound('Company not found.');
          return (await listRates(tx, tenantId, [companyId])).get(companyId) ?? [];
        });
        return { results: rates };
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
          if (!(await updatePolicyType(tx, tenantId, id, request.body))) throw notFound(NOT_FOUND);
          return requirePolicyType(tx, tenantId, id);
        }).catch(nameTaken);
      },
    );

    app.delete(
      '/policy-types/:id/',
      {
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
          const usage = await policyTypeUsage(tx, tenantId, id);
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

function inUseMessage(name: string, usage: Awaited<ReturnType<typeof policyTypeUsage>>): string {
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
