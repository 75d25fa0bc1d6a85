import {
  type CustomerValues,
  customerBody,
  customerDetail,
  customerDuplicateList,
  customerDuplicateQuery,
  customerExportQuery,
  customerListQuery,
  customerPage,
  customerPatchBody,
  detailResponse,
  fieldErrorsResponse,
  uuid,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { bearerAuth } from '../../http/authenticate.js';
import { notFound, parseWith } from '../../http/errors.js';
import { refuseWhileUsed, usedMeanwhile } from '../../http/in-use.js';
import { pageOf } from '../../http/pagination.js';
import { exportRoute } from '../../http/table-file.js';
import { auditTrail } from '../audit/trail.js';
import { withModule } from '../billing/access.js';
import { assertBelowLimit } from '../billing/usage.js';
import { assertAssignee, assertKeptInOwnBook, newAssignee } from '../team/assignees.js';
import {
  createCustomer,
  customerFile,
  deleteCustomer,
  exportCustomers,
  findCustomer,
  findDuplicateCustomers,
  listCustomers,
  updateCustomer,
  usesOfCustomer,
} from './queries.js';

const idParams = z.object({ id: uuid });
const tags = ['customers'];
const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse, 404: detailResponse };
const NOT_FOUND = 'Customer not found.';
const MODULE = 'module_customers';

const EDITABLE_FIELDS = Object.keys(customerBody.shape) as (keyof CustomerValues)[];

async function requireCustomer(tx: Transaction, tenantId: string, id: string, options?: { lock: boolean }) {
  const found = await findCustomer(tx, tenantId, id, options);
  if (!found) throw notFound(NOT_FOUND);
  return found;
}

/** One customer as answered alone: with their policies counted as the refusal to delete counts them. */
async function readCustomer(tx: Transaction, tenantId: string, id: string) {
  const found = await requireCustomer(tx, tenantId, id);
  return { ...found, policy_count: (await usesOfCustomer.of(tx, tenantId, id)).policies };
}

/** The agency's customers, people and businesses, within the number its plan allows. */
export const customerRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(
      exportRoute(ctx, {
        path: '/customers/export/',
        module: MODULE,
        tags,
        summary: 'Customers as a CSV or XLSX file',
        description: "Every customer the list's `search`, filters and `ordering` match, in the list's order.",
        querystring: customerExportQuery,
        list: 'customers',
        sheet: 'Customers',
        columns: customerFile.columns,
        rows: exportCustomers,
      }),
    );

    app.get(
      '/customers/',
      {
        schema: {
          tags,
          summary: 'Customers, searched, filtered and sorted',
          description:
            '`search` matches names, email, national id and phone; with three or more digits it also matches the phone whatever its spacing.',
          security: bearerAuth,
          querystring: customerListQuery,
          response: { 200: customerPage, ...errors },
        },
      },
      async (request) => {
        const { count, results } = await withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          listCustomers(tx, tenantId, request.query),
        );
        return pageOf(request, request.query, count, results);
      },
    );

    app.post(
      '/customers/',
      {
        schema: {
          tags,
          summary: 'Add a customer',
          description: '402 once the agency has as many customers as its plan allows.',
          security: bearerAuth,
          body: customerBody,
          response: { 201: customerDetail, ...errors },
        },
      },
      async (request, reply) => {
        const created = await withModule(ctx, request, MODULE, async (tx, { tenantId, userId }) => {
          const assignedTo = await newAssignee(tx, request.body.assigned_to, userId);
          assertKeptInOwnBook(tx, assignedTo);
          await assertBelowLimit(tx, tenantId, 'customers');
          const id = await createCustomer(tx, tenantId, { ...request.body, assigned_to: assignedTo });
          await auditTrail(tx, request).created('customer', id);
          return readCustomer(tx, tenantId, id);
        });
        return reply.code(201).send(created);
      },
    );

    app.get(
      '/customers/duplicates/',
      {
        schema: {
          tags,
          summary: 'Existing customers with the same email, phone or national id',
          description:
            'For warning a broker while they type. Email is compared without case, phone by its digits (six or more), national id without spaces, dashes or case; blank values are ignored. At most five.',
          security: bearerAuth,
          querystring: customerDuplicateQuery,
          response: { 200: customerDuplicateList, ...errors },
        },
      },
      async (request) => {
        const results = await withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          findDuplicateCustomers(tx, tenantId, request.query),
        );
        return { results };
      },
    );

    app.get(
      '/customers/:id/',
      {
        schema: {
          tags,
          summary: 'One customer',
          description:
            '`policy_count` is how many policies must be deleted or moved before the customer can be.',
          security: bearerAuth,
          params: idParams,
          response: { 200: customerDetail, ...errors },
        },
      },
      async (request) => {
        return withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          readCustomer(tx, tenantId, request.params.id),
        );
      },
    );

    app.put(
      '/customers/:id/',
      {
        schema: {
          tags,
          summary: 'Replace a customer',
          security: bearerAuth,
          params: idParams,
          body: customerBody,
          response: { 200: customerDetail, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        return withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const stored = await requireCustomer(tx, tenantId, id, { lock: true });
          await assertAssignee(tx, request.body.assigned_to, stored.assigned_to);
          assertKeptInOwnBook(tx, request.body.assigned_to);
          const updated = await auditTrail(tx, request).changed('customer', id, () =>
            updateCustomer(tx, tenantId, id, request.body),
          );
          if (!updated) throw notFound(NOT_FOUND);
          return readCustomer(tx, tenantId, id);
        });
      },
    );

    app.patch(
      '/customers/:id/',
      {
        schema: {
          tags,
          summary: 'Change some fields of a customer',
          description:
            'Fields not named keep their stored values; the result is checked as a whole customer.',
          security: bearerAuth,
          params: idParams,
          body: customerPatchBody,
          response: { 200: customerDetail, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        return withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const stored = await requireCustomer(tx, tenantId, id, { lock: true });
          const current = Object.fromEntries(EDITABLE_FIELDS.map((field) => [field, stored[field]]));
          const values = parseWith(customerBody, { ...current, ...request.body });
          await assertAssignee(tx, values.assigned_to, stored.assigned_to);
          assertKeptInOwnBook(tx, values.assigned_to);
          await auditTrail(tx, request).changed('customer', id, () =>
            updateCustomer(tx, tenantId, id, values),
          );
          return readCustomer(tx, tenantId, id);
        });
      },
    );

    app.delete(
      '/customers/:id/',
      {
        schema: {
          tags,
          summary: 'Delete a customer without policies',
          description: 'A customer with policies answers 409: their policies go or move first.',
          security: bearerAuth,
          params: idParams,
          response: { 204: z.null(), 409: detailResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        await withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const customer = await requireCustomer(tx, tenantId, id);
          const { policies } = await usesOfCustomer.of(tx, tenantId, id);
          refuseWhileUsed(customer.display_name, policies, ['policy', 'policies']);
          await auditTrail(tx, request).changed('customer', id, () => deleteCustomer(tx, tenantId, id));
        }).catch(usedMeanwhile('customer', 'policy'));
        return reply.code(204).send(null);
      },
    );
  };
