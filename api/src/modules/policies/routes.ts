import {
  cancelBody,
  detailResponse,
  fieldErrorsResponse,
  MAX_INSTALLMENTS,
  notRenewingBody,
  type PolicyValues,
  policy,
  policyBody,
  policyDetail,
  policyExportQuery,
  policyInstallmentPage,
  policyInstallmentsQuery,
  policyListQuery,
  policyNumberMatches,
  policyNumberQuery,
  policyPage,
  policyStats,
  renewalTerm,
  renewBody,
  scaledNetPremium,
  scheduleProblems,
  secureDeleteBody,
  toCents,
  uuid,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { withTenant } from '../../db/tenant.js';
import { bearerAuth } from '../../http/authenticate.js';
import { conflict, fieldError, HttpError, notFound, parseWith, unauthorized } from '../../http/errors.js';
import { pageOf, sendJsonPage } from '../../http/pagination.js';
import { exportRoute } from '../../http/table-file.js';
import { verifyPassword } from '../accounts/passwords.js';
import { findUserById } from '../accounts/queries.js';
import { auditTrail } from '../audit/trail.js';
import { authorizeModule, withModule } from '../billing/access.js';
import { assertBelowLimit } from '../billing/usage.js';
import { claimRaceConflict, countClaimsOnPolicy, refuseWhileClaims } from '../claims/on-policy.js';
import { consumeAttempt, refundAttempt, type ThrottleRule } from '../throttle/throttle.js';
import { exportPolicies, policyFile } from './list-export.js';
import {
  findParties,
  findPoliciesNumbered,
  findPolicy,
  findPolicyForChange,
  listInstallments,
  listPolicies,
  summarizePolicies,
} from './queries.js';
import {
  cancelPolicy,
  changedSchedule,
  clearNotRenewing,
  createPolicy,
  deletePolicy,
  markNotRenewing,
  type PolicyInput,
  policyInput,
  renewPolicy,
  updatePolicy,
} from './writes.js';

const idParams = z.object({ id: uuid });
const tags = ['policies'];
/** "27 Nov 2026", as the policy page reads a day. */
const dayOf = (day: string) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(day));

const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse, 404: detailResponse };
const MODULE = 'module_policies';
const NOT_FOUND = 'Policy not found.';
const NUMBER_TAKEN = 'This insurer already has a policy with this number starting on this date.';
const SCHEDULE_PAID =
  "Payments have been recorded on this policy's instalments, so its premium and schedule can no longer change. Undo those payments first.";
const DELETE_PAID =
  'Payments have been recorded on this policy. Use secure delete, which asks for your password, to delete it with its payment history.';
const ALREADY_RENEWED = 'This policy has already been renewed.';

async function requirePolicy(tx: Transaction, tenantId: string, id: string) {
  const found = await findPolicy(tx, tenantId, id);
  if (!found) throw notFound(NOT_FOUND);
  return found;
}

/** One policy as answered alone: with its claims counted as the refusal to delete counts them. */
async function readPolicy(tx: Transaction, tenantId: string, id: string) {
  const found = await requirePolicy(tx, tenantId, id);
  return { ...found, claim_count: await countClaimsOnPolicy(tx, tenantId, id) };
}

async function requirePolicyForChange(tx: Transaction, tenantId: string, id: string) {
  const found = await findPolicyForChange(tx, tenantId, id);
  if (!found) throw notFound(NOT_FOUND);
  return found;
}

/**
 * The customer, insurer and type must be the agency's own and the insurer must sell the type; the
 * foreign keys would refuse another agency's rows too, but only as a server error. Fills in the
 * insurer's rate for the type and the net premium when the broker left them out. A policy being
 * edited keeps its insurer and type even when the insurer has stopped selling that type since.
 */
async function resolveInput(
  tx: Transaction,
  tenantId: string,
  values: PolicyValues,
  stored?: { companyId: string; policyTypeId: string; commissionPercentage: string },
): Promise<PolicyInput> {
  // The body's rules say the same; checked again on the one path to every schedule the API builds,
  // so that no change to those rules lets a request make the server write thousands of instalments.
  const problems = scheduleProblems(
    values.start_date,
    values.end_date,
    values.payment_frequency,
    values.custom_installments,
  );
  if (problems.length > 0) {
    throw new HttpError(400, Object.fromEntries(problems.map(({ field, message }) => [field, [message]])));
  }
  const { customerExists, company, policyType } = await findParties(tx, tenantId, values);
  const keepsCover =
    stored?.companyId === values.company_id && stored?.policyTypeId === values.policy_type_id;
  const rate = company?.rate ?? (keepsCover ? stored?.commissionPercentage : undefined);
  if (!customerExists || !company || !policyType || rate === undefined) {
    const messages: Record<string, string[]> = {};
    if (!customerExists) messages.customer_id = ['No customer with this id.'];
    if (!company) messages.company_id = ['No insurer with this id.'];
    if (!policyType) messages.policy_type_id = ['No policy type with this id.'];
    else if (company) {
      messages.policy_type_id = [`${company.name} does not sell ${policyType.name}.`];
    }
    throw new HttpError(400, messages);
  }
  return policyInput(values, rate);
}

/** A duplicate number is the broker's mistake to fix, not a server error. */
const numberTaken = (error: unknown): never => {
  if (isUniqueViolation(error, 'policies_number_key')) throw fieldError('policy_number', NUMBER_TAKEN);
  throw error;
};

/**
 * The policies an agency sold: their terms, instalment schedules, commission, cancellation and
 * renewal. Status is never stored; it is read from the dates, a cancellation and a renewal.
 */
export const policyRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = ctx;

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
            "Without `commission_percentage` the insurer's rate for the type applies; without `net_premium` the net is the total premium.",
          security: bearerAuth,
          body: policyBody,
          response: { 201: policy, ...errors },
        },
      },
      async (request, reply) => {
        const created = await withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const input = await resolveInput(tx, tenantId, request.body);
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
            'A change that gives a different instalment schedule (count, due dates or amounts) rebuilds it, which is refused with 409 once anything has been paid; other changes, a term a day longer say, keep the instalments as they are.',
          security: bearerAuth,
          params: idParams,
          body: policyBody,
          response: { 200: policy, 409: detailResponse, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        return withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const stored = await requirePolicyForChange(tx, tenantId, id);
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

    app.delete(
      '/policies/:id/',
      {
        schema: {
          tags,
          summary: 'Delete a policy nothing has been paid on and no claim is on',
          description:
            'Once payments are recorded this answers 409; secure delete removes it with its history. A policy with claims answers 409 whichever way it is deleted: claims are never deleted with their policy.',
          security: bearerAuth,
          params: idParams,
          response: { 204: z.null(), 409: detailResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        await withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const stored = await requirePolicyForChange(tx, tenantId, id);
          await refuseWhileClaims(tx, tenantId, stored);
          if (stored.hasPayments) throw conflict({ detail: DELETE_PAID });
          await auditTrail(tx, request)
            .changed('policy', id, () => deletePolicy(tx, tenantId, id))
            .catch(claimRaceConflict(stored.policyNumber));
        });
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/policies/:id/secure-delete/',
      {
        schema: {
          tags,
          summary: 'Delete a policy with its instalments and payments, confirmed by password',
          description:
            'A policy with claims answers 409 before any password is weighed: claims are never deleted with their policy.',
          security: bearerAuth,
          params: idParams,
          body: secureDeleteBody,
          response: { 204: z.null(), 409: detailResponse, 429: detailResponse, ...errors },
        },
      },
      async (request, reply) => {
        const auth = await authorizeModule(ctx, request, MODULE);
        const { tenantId } = auth;
        const { id } = request.params;
        // Another agency's id reads as missing, and a policy with claims is refused, before any
        // password is weighed.
        await withTenant(db, tenantId, async (tx) => {
          const found = await requirePolicy(tx, tenantId, id);
          await refuseWhileClaims(tx, tenantId, { id, policyNumber: found.policy_number });
        });
        const user = await findUserById(db, auth.userId);
        if (!user) throw unauthorized('User not found');
        // The same bucket as the profile's password check: a stolen access token gets five guesses
        // in all, whichever form it guesses through.
        const guesses: ThrottleRule = {
          key: `password-check:user:${user.id}`,
          limit: 5,
          windowSeconds: 15 * 60,
        };
        await consumeAttempt(db, [guesses]);
        if (!(await verifyPassword(user.passwordHash, request.body.password))) {
          throw fieldError('password', 'Your password is incorrect.');
        }
        await refundAttempt(db, [guesses]);
        const deleted = await withTenant(db, tenantId, async (tx) => {
          const stored = await findPolicyForChange(tx, tenantId, id);
          if (!stored) return false;
          await refuseWhileClaims(tx, tenantId, stored);
          return auditTrail(tx, request)
            .changed('policy', id, () => deletePolicy(tx, tenantId, id))
            .catch(claimRaceConflict(stored.policyNumber));
        });
        if (!deleted) throw notFound(NOT_FOUND);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/policies/:id/cancel/',
      {
        schema: {
          tags,
          summary: 'Cancel a policy from a date, with the reason',
          description:
            'The date must fall within the term (else 400). The instalments due after it become `cancelled`: never due, overdue, reminded or on the calendar again. The policy then earns its premium for the days it covered, or its premium less `refund_amount` when one is given, and its `expected_commission` the same share of the whole. An already cancelled policy answers 409.',
          security: bearerAuth,
          params: idParams,
          body: cancelBody,
          response: { 200: policy, 409: detailResponse, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        return withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const stored = await requirePolicyForChange(tx, tenantId, id);
          if (stored.cancelledAt !== null) throw conflict({ detail: 'This policy is already cancelled.' });
          const { cancelled_at, refund_amount } = request.body;
          if (cancelled_at < stored.startDate || cancelled_at > stored.endDate) {
            throw fieldError(
              'cancelled_at',
              `Choose a day within the policy's term, from ${dayOf(stored.startDate)} to ${dayOf(stored.endDate)}.`,
            );
          }
          if (refund_amount !== null && toCents(refund_amount) > toCents(stored.totalPremium)) {
            throw fieldError(
              'refund_amount',
              `The refund cannot be more than the policy's premium, ${stored.totalPremium}.`,
            );
          }
          await auditTrail(tx, request).changed('policy', id, () =>
            cancelPolicy(tx, tenantId, id, request.body),
          );
          return requirePolicy(tx, tenantId, id);
        });
      },
    );

    app.post(
      '/policies/:id/not-renewing/',
      {
        schema: {
          tags,
          summary: 'Mark a policy as one the agency will not renew, with the reason',
          description:
            'The policy leaves the expiring-policies list (`/alerts/expiring/`) and the reason shows on it; its status does not change. Marking a marked policy again replaces the reason. A cancelled or renewed policy answers 409. Renewing the policy afterwards is allowed and clears the mark.',
          security: bearerAuth,
          params: idParams,
          body: notRenewingBody,
          response: { 200: policy, 409: detailResponse, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        return withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const marked = await auditTrail(tx, request).changed('policy', id, () =>
            markNotRenewing(tx, tenantId, id, request.body.reason),
          );
          if (!marked) {
            const found = await requirePolicy(tx, tenantId, id);
            throw conflict({
              detail:
                found.status === 'cancelled' ? 'A cancelled policy is not up for renewal.' : ALREADY_RENEWED,
            });
          }
          return requirePolicy(tx, tenantId, id);
        });
      },
    );

    app.delete(
      '/policies/:id/not-renewing/',
      {
        schema: {
          tags,
          summary: 'Undo marking a policy as not renewing',
          description:
            'The policy is back on the expiring-policies list while it is due; a policy without the mark is answered as it is.',
          security: bearerAuth,
          params: idParams,
          response: { 200: policy, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        return withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          await auditTrail(tx, request).changed('policy', id, () => clearNotRenewing(tx, tenantId, id));
          return requirePolicy(tx, tenantId, id);
        });
      },
    );

    app.get(
      '/policies/:id/installments/',
      {
        schema: {
          tags,
          summary: "A policy's instalments in order, with what has been paid on each",
          description: `Paged like every list; the default page size, ${MAX_INSTALLMENTS}, is the most instalments a schedule has, so one page reads it whole.`,
          security: bearerAuth,
          params: idParams,
          querystring: policyInstallmentsQuery,
          response: { 200: policyInstallmentPage, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        const { count, results } = await withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          await requirePolicy(tx, tenantId, id);
          return listInstallments(tx, tenantId, id, request.query);
        });
        return pageOf(request, request.query, count, results);
      },
    );

    app.post(
      '/policies/:id/renew/',
      {
        schema: {
          tags,
          summary: 'Renew a policy for the next term',
          description:
            "Every field defaults to the current term: from the day after it ends, for as long, with the same number, premium, net and frequency, and the commission rate the insurer pays on the type today (the term's own rate if the insurer no longer lists the type). A new total premium without a net scales the net in the same proportion, rounded half-up to the cent. Insurers that issue a new number each term take `policy_number`. A term is renewed once; a cancelled policy not at all.",
          security: bearerAuth,
          params: idParams,
          body: renewBody,
          response: { 201: policy, 409: detailResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const changes = request.body;
        const renewal = await withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const current = await requirePolicyForChange(tx, tenantId, id);
          if (current.cancelledAt !== null) {
            throw conflict({ detail: 'A cancelled policy cannot be renewed.' });
          }
          // The row lock makes a second renewal wait here, then see the first one's link.
          if (current.renewedToId !== null) throw conflict({ detail: ALREADY_RENEWED });
          const term = renewalTerm(
            { start_date: current.startDate, end_date: current.endDate },
            changes.start_date,
          );
          // Checked as a whole policy, so a renewal obeys exactly the rules of the form.
          const values = parseWith(policyBody, {
            policy_number: changes.policy_number ?? current.policyNumber,
            customer_id: current.customerId,
            company_id: current.companyId,
            policy_type_id: current.policyTypeId,
            start_date: term.start_date,
            end_date: changes.end_date ?? term.end_date,
            total_premium: changes.total_premium ?? current.totalPremium,
            net_premium:
              changes.net_premium ??
              (changes.total_premium === undefined
                ? current.netPremium
                : scaledNetPremium(current.netPremium, current.totalPremium, changes.total_premium)),
            // Left out, the insurer's rate for the type today, as the renew form offers it.
            commission_percentage: changes.commission_percentage,
            payment_frequency: changes.payment_frequency ?? current.paymentFrequency,
            custom_installments: changes.custom_installments ?? current.customInstallments ?? undefined,
            insured_item: current.insuredItem,
            sum_insured: current.sumInsured,
            deductible: current.deductible,
            notes: current.notes,
          });
          // An insurer that no longer lists the type keeps the term's own rate for the renewal.
          const input = await resolveInput(tx, tenantId, values, current);
          await assertBelowLimit(tx, tenantId, 'policies');
          const trail = auditTrail(tx, request);
          const renewalId = await trail.changed('policy', id, () => renewPolicy(tx, tenantId, id, input));
          await trail.created('policy', renewalId);
          return requirePolicy(tx, tenantId, renewalId);
        }).catch(numberTaken);
        return reply.code(201).send(renewal);
      },
    );
  };
