import {
  cancelBody,
  detailResponse,
  MAX_INSTALLMENTS,
  notRenewingBody,
  policy,
  policyBody,
  policyInstallmentPage,
  policyInstallmentsQuery,
  renewalPreview,
  renewalPreviewQuery,
  renewalTerm,
  renewBody,
  scaledNetPremium,
  toCents,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { bearerAuth } from '../../http/authenticate.js';
import { conflict, fieldError, notFound, parseWith } from '../../http/errors.js';
import { pageOf } from '../../http/pagination.js';
import { auditTrail } from '../audit/trail.js';
import { withModule } from '../billing/access.js';
import { assertBelowLimit } from '../billing/usage.js';
import { listInstallments, renewalPreviewOf } from './queries.js';
import {
  errors,
  idParams,
  MODULE,
  NOT_FOUND,
  numberTaken,
  requirePolicy,
  requirePolicyForChange,
  resolveInput,
  tags,
} from './routes-shared.js';
import { cancelPolicy, clearNotRenewing, markNotRenewing, renewPolicy } from './writes.js';

/** "27 Nov 2026", as the policy page reads a day. */
const dayOf = (day: string) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(day));
const ALREADY_RENEWED = 'This policy has already been renewed.';
// A renewed term ends when its renewal starts (or at its end); a cancellation would have it end twice.
const RENEWED_NOT_CANCELLED =
  'This policy has been renewed: its term ends when the renewal starts. Delete the renewal first to cancel it.';

/** A term's life after it is written: cancelled, marked as not renewing, its instalments read, renewed. */
export const policyTermRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/policies/:id/cancel/',
      {
        schema: {
          tags,
          summary: 'Cancel a policy from a date, with the reason',
          description:
            'The date must fall within the term (else 400). The instalments due after it become `cancelled`: never due, overdue, reminded or on the calendar again. The policy then earns its premium for the days it covered, or its premium less `refund_amount` when one is given, and its `expected_commission` the same share of the whole. An already cancelled policy answers 409, and so does a renewed one: its renewal ends it.',
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
          if (stored.renewedToId !== null) throw conflict({ detail: RENEWED_NOT_CANCELLED });
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

    app.get(
      '/policies/:id/renewal-preview/',
      {
        schema: {
          tags,
          summary: 'What renewing from a day does to the current term',
          description:
            "For a renewal starting `start_date`: when it starts on or before the term's end, `ends_on` is the term's last day of cover (the day before) and `earned_premium` and `expected_commission` what the term then earns by the cancellation's rule; otherwise `ends_on` is null and the term earns what it earns now. Nothing is written.",
          security: bearerAuth,
          params: idParams,
          querystring: renewalPreviewQuery,
          response: { 200: renewalPreview, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        return withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const preview = await renewalPreviewOf(tx, tenantId, id, request.query.start_date);
          if (!preview) throw notFound(NOT_FOUND);
          return preview;
        });
      },
    );

    app.post(
      '/policies/:id/renew/',
      {
        schema: {
          tags,
          summary: 'Renew a policy for the next term',
          description:
            "Every field defaults to the current term: from the day after it ends, for as long, with the same number, premium, net and frequency, and the commission rate the insurer pays on the type today (the term's own rate if the insurer no longer lists the type). A new total premium without a net scales the net in the same proportion, rounded half-up to the cent. Insurers that issue a new number each term take `policy_number`. A term is renewed once; a cancelled policy not at all. A renewal starts after the term it renews starts (else 400). One that starts on or before the term's end ends the term the day before, as a rewrite: the term is recorded as ended on the renewal's start (`cancelled_at`, with no reason or refund) while its status stays `renewed` once over, earns its premium and commission for its days of cover by the cancellation's rule (`earned_premium`, `expected_commission`), and its instalments due after that day become `cancelled`; paid ones stay paid. `/policies/{id}/renewal-preview/` says beforehand what the term will earn. Deleting the renewal gives the term its whole cover back.",
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
          if (term.start_date <= current.startDate) {
            throw fieldError(
              'start_date',
              `The renewal must start after this term starts, ${dayOf(current.startDate)}.`,
            );
          }
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
            // The next term stays with whoever looks after this one.
            assigned_to: current.assignedTo,
            producer_split_percentage: current.producerSplitPercentage,
          });
          // An insurer that no longer lists the type keeps the term's own rate for the renewal.
          const input = await resolveInput(tx, tenantId, values, current);
          await assertBelowLimit(tx, tenantId, 'policies');
          const trail = auditTrail(tx, request);
          const renewalId = await trail.changed('policy', id, () =>
            renewPolicy(tx, tenantId, { id, endDate: current.endDate }, input),
          );
          await trail.created('policy', renewalId);
          return requirePolicy(tx, tenantId, renewalId);
        }).catch(numberTaken);
        return reply.code(201).send(renewal);
      },
    );
  };
