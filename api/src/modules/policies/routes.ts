import {
  detailResponse,
  policy,
  policyBody,
  policyDetail,
  policyExportQuery,
  policyListQuery,
  policyNumberMatches,
  policyNumberQuery,
  policyPage,
  policyStats,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { bearerAuth } from '../../http/authenticate.js';
import { conflict, fieldError } from '../../http/errors.js';
import { sendJsonPage } from '../../http/pagination.js';
import { exportRoute } from '../../http/table-file.js';
import { auditTrail } from '../audit/trail.js';
import { withModule } from '../billing/access.js';
import { assertBelowLimit } from '../billing/usage.js';
import { assertAssignee, newAssignee } from '../team/assignees.js';
import { policyDeleteRoutes } from './delete-routes.js';
import { claimsOnPolicy } from './in-use.js';
import { policyInsurerRoutes } from './insurer-routes.js';
import { exportPolicies, policyFile } from './list-export.js';
import { endedTermEarly, findPoliciesNumbered, listPolicies, summarizePolicies } from './queries.js';
import {
  assertMaySetProducerShare,
  errors,
  idParams,
  MODULE,
  numberTaken,
  requirePolicy,
  requirePolicyForChange,
  resolveInput,
  tags,
} from './routes-shared.js';
import { policyTermRoutes } from './term-routes.js';
import { changedSchedule, createPolicy, updatePolicy } from './writes.js';

// The term it renews ends the day before it starts: a new start would leave that term's end behind.
const RENEWAL_START_FIXED =
  'This renewal ended the term it renews the day before it starts. To start it on another day, delete it and renew that term again.';
const SCHEDULE_PAID =
  "Payments have been recorded on this policy's instalments, so its premium and schedule can no longer change. Undo those payments first.";

/** One policy as answered alone: with its claims counted as the refusal to delete counts them. */
async function readPolicy(tx: Transaction, tenantId: string, id: string) {
  const found = await requirePolicy(tx, tenantId, id);
  return { ...found, claim_count: await claimsOnPolicy().count(tx, tenantId, id) };
}

/**
 * The policies an agency sold: their terms, instalment schedules, commission, cancellation and
 * renewal. Status is never stored; it is read from the dates, a cancellation and a renewal.
 */
export const policyRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(
      exportRoute(ctx, {
        path: '/policies/export/',
        module: MODULE,
        tags,
        summary: 'Policies as a CSV or XLSX file',
        description:
          "Every policy the list's `search`, filters and `ordering` match, in the list's order, with its premium, commission and payments.",
        querystring: policyExportQuery,
        list: 'policies',
        sheet: 'Policies',
        columns: policyFile.columns,
        rows: exportPolicies,
      }),
    );

    app.get(
      '/policies/',
      {
        schema: {
          tags,
          summary: 'Policies, searched, filtered and sorted',
          description:
            '`search` matches the policy number and the customer name. `expiring_within_days` keeps active policies ending within that many days from today.',
          security: bearerAuth,
          querystring: policyListQuery,
          response: { 200: policyPage, ...errors },
        },
      },
      async (request, reply) => {
        const page = await withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          listPolicies(tx, tenantId, request.query),
        );
        return sendJsonPage(request, reply, request.query, page);
      },
    );

    app.post(
      '/policies/',
      {
        schema: {
          tags,
          summary: 'Add a policy and its instalment schedule',
          description:
            "Without `commission_percentage` the insurer's rate for the type applies; without `net_premium` the net is the total premium. `producer_split_percentage` (the assignee's share of the commission, else their default share) takes the `team` action: other roles are answered 403.",
          security: bearerAuth,
          body: policyBody,
          response: { 201: policy, ...errors },
        },
      },
      async (request, reply) => {
        assertMaySetProducerShare(request, request.body);
        const created = await withModule(ctx, request, MODULE, async (tx, { tenantId, userId }) => {
          const assignedTo = await newAssignee(tx, request.body.assigned_to, userId);
          const input = await resolveInput(tx, tenantId, { ...request.body, assigned_to: assignedTo });
          await assertBelowLimit(tx, tenantId, 'policies');
          const id = await createPolicy(tx, tenantId, input);
          await auditTrail(tx, request).created('policy', id);
          return requirePolicy(tx, tenantId, id);
        }).catch(numberTaken);
        return reply.code(201).send(created);
      },
    );

    app.get(
      '/policies/stats/',
      {
        schema: {
          tags,
          summary: 'Policy counts by status, premium in force and commission',
          description:
            'Commission sums every policy that was not cancelled; `active_premium` sums the total premium of active ones.',
          security: bearerAuth,
          response: { 200: policyStats, ...errors },
        },
      },
      async (request) => {
        return withModule(ctx, request, MODULE, (tx, { tenantId }) => summarizePolicies(tx, tenantId));
      },
    );

    app.get(
      '/policies/numbered/',
      {
        schema: {
          tags,
          summary: 'Other policies with the same number',
          description:
            "For warning a broker while they type a policy number: the agency's policies with this number under any insurer, compared without case, leaving out `exclude_id` (the policy being edited). At most five. Saving is not refused for it; only the same number with the same insurer and start date is.",
          security: bearerAuth,
          querystring: policyNumberQuery,
          response: { 200: policyNumberMatches, ...errors },
        },
      },
      async (request) => {
        const { policy_number, exclude_id } = request.query;
        const results = await withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          findPoliciesNumbered(tx, tenantId, policy_number, exclude_id),
        );
        return { results };
      },
    );

    app.get(
      '/policies/:id/',
      {
        schema: {
          tags,
          summary: 'One policy',
          description:
            '`claim_count` is how many claims are on the policy; while there are any, it cannot be deleted.',
          security: bearerAuth,
          params: idParams,
          response: { 200: policyDetail, ...errors },
        },
      },
      async (request) => {
        return withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          readPolicy(tx, tenantId, request.params.id),
        );
      },
    );

    app.put(
      '/policies/:id/',
      {
        schema: {
          tags,
          summary: 'Change a policy',
          description:
            'A renewal that ended the term it renews early keeps its start date (else 400). A change that gives a different instalment schedule (count, due dates or amounts) rebuilds it, which is refused with 409 once anything has been paid; other changes, a term a day longer say, keep the instalments as they are. Left out, `assigned_to` and `producer_split_percentage` stay as they are; `producer_split_percentage` takes the `team` action (403 for other roles), null giving the member’s default share back.',
          security: bearerAuth,
          params: idParams,
          body: policyBody,
          response: { 200: policy, 409: detailResponse, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        assertMaySetProducerShare(request, request.body);
        return withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const stored = await requirePolicyForChange(tx, tenantId, id);
          if (request.body.start_date !== stored.startDate && (await endedTermEarly(tx, tenantId, id))) {
            throw fieldError('start_date', RENEWAL_START_FIXED);
          }
          await assertAssignee(tx, request.body.assigned_to, stored.assignedTo);
          const input = await resolveInput(tx, tenantId, request.body, stored);
          const schedule = await changedSchedule(tx, tenantId, id, input);
          if (schedule && stored.hasPayments) throw conflict({ detail: SCHEDULE_PAID });
          await auditTrail(tx, request).changed('policy', id, () =>
            updatePolicy(tx, tenantId, id, input, schedule),
          );
          return requirePolicy(tx, tenantId, id);
        }).catch(numberTaken);
      },
    );

    await app.register(policyDeleteRoutes(ctx));
    await app.register(policyTermRoutes(ctx));
    await app.register(policyInsurerRoutes(ctx));
  };
