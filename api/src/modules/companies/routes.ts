import {
  company,
  companyBody,
  companyListQuery,
  companyPage,
  detailResponse,
  fieldErrorsResponse,
  uuid,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { bearerAuth } from '../../http/authenticate.js';
import { fieldError, HttpError, notFound } from '../../http/errors.js';
import { refuseWhileUsed, usedMeanwhile } from '../../http/in-use.js';
import { pageOf } from '../../http/pagination.js';
import { auditTrail } from '../audit/trail.js';
import { withModule } from '../billing/access.js';
import {
  type CompanyValues,
  createCompany,
  deleteCompany,
  findCompany,
  listCompanies,
  updateCompany,
  usesOfCompany,
} from './queries.js';
import { unknownPolicyTypeIds } from './rates.js';

const idParams = z.object({ id: uuid });
const tags = ['companies'];
const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse, 404: detailResponse };
const MODULE = 'module_companies';
const NOT_FOUND = 'Company not found.';
const NAME_TAKEN = 'An insurer with this name already exists.';

async function requireCompany(tx: Transaction, tenantId: string, id: string) {
  const found = await findCompany(tx, tenantId, id);
  if (!found) throw notFound(NOT_FOUND);
  return found;
}

/**
 * Each rate must name one of the agency's own types; the message points at the row in the form.
 * The foreign key would refuse another agency's type too, but only as a server error.
 */
async function requireKnownPolicyTypes(tx: Transaction, tenantId: string, values: CompanyValues) {
  const ids = values.policy_types.map((rate) => rate.policy_type_id);
  const unknown = new Set(await unknownPolicyTypeIds(tx, tenantId, ids));
  if (unknown.size === 0) return;
  const messages = ids.flatMap((id, index) =>
    unknown.has(id) ? [[`policy_types.${index}.policy_type_id`, ['No policy type with this id.']]] : [],
  );
  throw new HttpError(400, Object.fromEntries(messages));
}

/** A duplicate name is the broker's mistake to fix, not a server error. */
const nameTaken = (error: unknown): never => {
  if (isUniqueViolation(error, 'companies_tenant_name_key')) throw fieldError('name', NAME_TAKEN);
  throw error;
};

/** The insurers an agency places business with, the types each sells and the commission it pays. */
export const companyRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/companies/',
      {
        schema: {
          tags,
          summary: 'Insurers, searched, filtered and sorted, each with the types it sells',
          security: bearerAuth,
          querystring: companyListQuery,
          response: { 200: companyPage, ...errors },
        },
      },
      async (request) => {
        const { count, results } = await withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          listCompanies(tx, tenantId, request.query),
        );
        return pageOf(request, request.query, count, results);
      },
    );

    app.post(
      '/companies/',
      {
        config: { action: 'insurers' },
        schema: {
          tags,
          summary: 'Add an insurer with the types it sells and its commission on each',
          security: bearerAuth,
          body: companyBody,
          response: { 201: company, ...errors },
        },
      },
      async (request, reply) => {
        const created = await withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          await requireKnownPolicyTypes(tx, tenantId, request.body);
          const id = await createCompany(tx, tenantId, request.body);
          await auditTrail(tx, request).created('company', id);
          return requireCompany(tx, tenantId, id);
        }).catch(nameTaken);
        return reply.code(201).send(created);
      },
    );

    app.get(
      '/companies/:id/',
      {
        schema: {
          tags,
          summary: 'One insurer with the types it sells',
          security: bearerAuth,
          params: idParams,
          response: { 200: company, ...errors },
        },
      },
      async (request) => {
        return withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          requireCompany(tx, tenantId, request.params.id),
        );
      },
    );

    app.put(
      '/companies/:id/',
      {
        config: { action: 'insurers' },
        schema: {
          tags,
          summary: 'Change an insurer',
          description:
            'A full replace: the types in `policy_types` become exactly the ones it sells, with these rates.',
          security: bearerAuth,
          params: idParams,
          body: companyBody,
          response: { 200: company, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        return withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          await requireKnownPolicyTypes(tx, tenantId, request.body);
          const updated = await auditTrail(tx, request).changed('company', id, () =>
            updateCompany(tx, tenantId, id, request.body),
          );
          if (!updated) throw notFound(NOT_FOUND);
          return requireCompany(tx, tenantId, id);
        }).catch(nameTaken);
      },
    );

    app.delete(
      '/companies/:id/',
      {
        config: { action: 'insurers' },
        schema: {
          tags,
          summary: 'Delete an insurer without policies, and the rates it pays',
          description: 'An insurer with policies answers 409: its policies go or move first.',
          security: bearerAuth,
          params: idParams,
          response: { 204: z.null(), 409: detailResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        await withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const company = await requireCompany(tx, tenantId, id);
          const { policies } = await usesOfCompany.of(tx, tenantId, id);
          refuseWhileUsed(company.name, policies, ['policy', 'policies']);
          await auditTrail(tx, request).changed('company', id, () => deleteCompany(tx, tenantId, id));
        }).catch(usedMeanwhile('insurer', 'policy'));
        return reply.code(204).send(null);
      },
    );
  };
