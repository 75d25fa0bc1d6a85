import {
  CLAIM_STATUS_LABELS,
  CLAIM_TRANSITIONS,
  type ClaimValues,
  claimAmountProblems,
  claimBody,
  claimDateProblems,
  claimDetail,
  claimExportQuery,
  claimListQuery,
  claimNoteBody,
  claimPage,
  claimStats,
  claimStatsQuery,
  claimTransitionBody,
  detailResponse,
  fieldErrorsResponse,
  INCIDENT_OUTSIDE_TERM,
  incidentOutsideTermResponse,
  listStatuses,
  toCents,
  uuid,
} from '@coverdesk/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js';
import { agencyToday, withWholeBook } from '../../db/tenant.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { conflict, fieldError, HttpError, notFound } from '../../http/errors.js';
import { pageOf } from '../../http/pagination.js';
import { exportRoute } from '../../http/table-file.js';
import { displayName, findUserById } from '../accounts/queries.js';
import { auditTrail } from '../audit/trail.js';
import { withModule } from '../billing/access.js';
import { assertAssignee, newAssignee } from '../team/assignees.js';
import {
  type Author,
  addAmountEvents,
  addClaimEvent,
  claimFile,
  claimHasMoved,
  createClaim,
  deleteClaim,
  exportClaims,
  findClaim,
  findClaimForChange,
  findPolicyTerm,
  listClaimEvents,
  listClaims,
  moveClaim,
  nextClaimNumber,
  summarizeClaims,
  touchClaim,
  updateClaim,
} from './queries.js';

const idParams = z.object({ id: uuid });
const tags = ['claims'];
const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse, 404: detailResponse };
const MODULE = 'module_claims';
const NOT_FOUND = 'Claim not found.';
const NUMBER_TAKEN = 'Another claim of your agency already has this number.';

const TRANSITIONS_DOC = Object.entries(CLAIM_TRANSITIONS)
  .map(([from, to]) => `\`${from}\` → ${to.map((status) => `\`${status}\``).join(', ')}`)
  .join('; ');

async function requireClaim(tx: Transaction, tenantId: string, id: string) {
  const found = await findClaim(tx, tenantId, id);
  if (!found) throw notFound(NOT_FOUND);
  return { ...found, timeline: await listClaimEvents(tx, tenantId, id) };
}

async function requireClaimForChange(tx: Transaction, tenantId: string, id: string) {
  const found = await findClaimForChange(tx, tenantId, id);
  if (!found) throw notFound(NOT_FOUND);
  return found;
}

/**
 * Who is acting, for the timeline. Users are platform rows, read before the tenant transaction opens
 * (inside it the app role cannot see them).
 */
async function authorOf(ctx: AppContext, request: FastifyRequest): Promise<Author> {
  const { userId } = signedInUser(request);
  const user = await findUserById(ctx.db, userId);
  const name = user ? displayName(user) : '';
  return { id: userId, name };
}

/** What a claim has recorded before an edit: nothing yet for a claim being reported. */
interface RecordedAmounts {
  amountApproved: string | null;
  amountPaid: string;
}
const NOTHING_RECORDED: RecordedAmounts = { amountApproved: null, amountPaid: '0.00' };

/**
 * Approving and paying are moves of their own, with their timeline entries: reporting or editing a
 * claim may correct an approved or paid amount once the claim has one, and never records or removes
 * one. So a claim cannot look approved or paid without having been moved there.
 */
function checkRecordedAmounts(stored: RecordedAmounts, values: ClaimValues) {
  const problems: Record<string, string[]> = {};
  const approved = values.amount_approved;
  if (stored.amountApproved === null && approved !== null) {
    problems.amount_approved = ['The approved amount is recorded by approving the claim.'];
  } else if (stored.amountApproved !== null && approved === null) {
    problems.amount_approved = ['A recorded approval can be corrected, not removed.'];
  }
  const paidBefore = toCents(stored.amountPaid) > 0n;
  const paidNow = toCents(values.amount_paid) > 0n;
  if (!paidBefore && paidNow) {
    problems.amount_paid = ['What the insurer paid is recorded by marking the claim paid.'];
  } else if (paidBefore && !paidNow) {
    problems.amount_paid = ['A recorded payment can be corrected, not removed.'];
  }
  if (Object.keys(problems).length > 0) throw new HttpError(400, problems);
}

/**
 * The policy must be the agency's own, the dates not in the agency's future, and an incident outside
 * the policy's term is saved only once the broker confirms it (409 `incident_outside_term` until then).
 * An edit that keeps the policy and the incident date does not ask again.
 */
async function checkAgainstPolicy(
  tx: Transaction,
  tenantId: string,
  values: ClaimValues,
  stored?: { policyId: string; incidentDate: string },
) {
  const policy = await findPolicyTerm(tx, tenantId, values.policy_id);
  if (!policy) throw fieldError('policy_id', 'No policy with this id.');
  const today = await agencyToday(tx);
  const problems = claimDateProblems(values, today);
  if (problems.length > 0) {
    throw new HttpError(400, Object.fromEntries(problems.map(({ field, message }) => [field, [message]])));
  }
  const unchanged = stored?.policyId === values.policy_id && stored?.incidentDate === values.incident_date;
  const outside = values.incident_date < policy.startDate || values.incident_date > policy.endDate;
  if (outside && !unchanged && !values.confirm_outside_term) {
    throw conflict({
      detail: `The incident date is outside the policy's term (${policy.startDate} to ${policy.endDate}). Check it, or confirm to save it anyway.`,
      code: INCIDENT_OUTSIDE_TERM,
      policy_start: policy.startDate,
      policy_end: policy.endDate,
    });
  }
}

/**
 * A number a broker typed that another claim has is theirs to fix, not a server error; so is a policy
 * deleted between the check and the write.
 */
const numberTaken = (error: unknown): never => {
  if (isUniqueViolation(error, 'claims_number_key')) throw fieldError('claim_number', NUMBER_TAKEN);
  if (isForeignKeyViolation(error)) throw fieldError('policy_id', 'No policy with this id.');
  throw error;
};

const blank = (value: string | undefined) => value === undefined || value === '';

/**
 * Claims made on the agency's policies, followed from report to settlement: a status that moves only
 * along the allowed transitions, the amounts claimed, approved and paid, the insurer's adjuster, and
 * a timeline of every move and note.
 */
export const claimRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(
      exportRoute(ctx, {
        path: '/claims/export/',
        module: MODULE,
        tags,
        summary: 'Claims as a CSV or XLSX file',
        description: "Every claim the list's `search`, filters and `ordering` match, in the list's order.",
        querystring: claimExportQuery,
        list: 'claims',
        sheet: 'Claims',
        columns: claimFile.columns,
        rows: exportClaims,
      }),
    );

    app.get(
      '/claims/',
      {
        schema: {
          tags,
          summary: 'Claims, searched, filtered and sorted',
          description:
            "`search` matches the claim number, the insurer's reference, the customer's name and the policy number. `company_id` and `customer_id` filter by the policy's insurer and customer; the incident dates bound the incident date, both included.",
          security: bearerAuth,
          querystring: claimListQuery,
          response: { 200: claimPage, ...errors },
        },
      },
      async (request) => {
        const { count, results } = await withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          listClaims(tx, tenantId, request.query),
        );
        return pageOf(request, request.query, count, results);
      },
    );

    app.post(
      '/claims/',
      {
        schema: {
          tags,
          summary: 'Report a claim on a policy',
          description: `The claim starts \`open\`, with a timeline entry; its approved and paid amounts are recorded by the moves that approve and pay it, so a report carrying either answers 400. Without \`claim_number\` it gets the agency's next CLM-<year>-<nnnn>, in the year of its reported date; without \`reported_date\`, today in the agency's time zone. Another agency's policy is \`400\` on \`policy_id\`. An incident outside the policy's term answers \`409\` with \`code: "${INCIDENT_OUTSIDE_TERM}"\` and the term, until the request is sent again with \`confirm_outside_term: true\`.`,
          security: bearerAuth,
          body: claimBody,
          response: { 201: claimDetail, 409: incidentOutsideTermResponse, ...errors },
        },
      },
      async (request, reply) => {
        const author = await authorOf(ctx, request);
        const created = await withModule(ctx, request, MODULE, async (tx, { tenantId, userId }) => {
          const values = {
            ...request.body,
            assigned_to: await newAssignee(tx, request.body.assigned_to, userId),
          };
          checkRecordedAmounts(NOTHING_RECORDED, values);
          await checkAgainstPolicy(tx, tenantId, values);
          const claimNumber = blank(values.claim_number)
            ? // Numbered across the agency, also by an agent who sees only their own book.
              await withWholeBook(tx, () => nextClaimNumber(tx, tenantId, values.reported_date))
            : (values.claim_number as string);
          const id = await createClaim(tx, tenantId, { ...values, claim_number: claimNumber }, author);
          await auditTrail(tx, request).created('claim', id);
          return requireClaim(tx, tenantId, id);
        }).catch(numberTaken);
        return reply.code(201).send(created);
      },
    );

    app.get(
      '/claims/stats/',
      {
        schema: {
          tags,
          summary: "The agency's claims counted and summed",
          description:
            'The claims counted are those the list would show for the same `search` and filters, whatever their status (the figures are counted by status); with none, every claim of the agency. `open_count` counts the claims not closed (still being worked on, whatever their status). The amounts sum every claim: `amount_approved` the approved amounts where one is recorded. `average_days_to_close` averages, over the claims closed now, the days from their reported date to the agency day they were (last) closed, to one decimal; null when none is closed.',
          security: bearerAuth,
          querystring: claimStatsQuery,
          response: { 200: claimStats, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, (tx, { tenantId }) => summarizeClaims(tx, tenantId, request.query)),
    );

    app.get(
      '/claims/:id/',
      {
        schema: {
          tags,
          summary: 'One claim with its timeline',
          security: bearerAuth,
          params: idParams,
          response: { 200: claimDetail, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, (tx, { tenantId }) => requireClaim(tx, tenantId, request.params.id)),
    );

    app.put(
      '/claims/:id/',
      {
        schema: {
          tags,
          summary: 'Change a claim',
          description: `Every field but the status, which moves through the transition call. The approved and paid amounts are recorded by approving the claim and marking it paid: an edit may correct them once recorded, and neither records nor removes one (400 on the field). A blank \`claim_number\` or a missing \`reported_date\` keeps the stored one (a number stays when the reported date moves to another year). Each amount the edit changes (claimed, approved, paid) is written to the timeline as an \`amount\` entry, from what to what, with who changed it. The incident date is checked against the policy's term as on creation (\`409 ${INCIDENT_OUTSIDE_TERM}\`), unless the policy and the incident date are unchanged.`,
          security: bearerAuth,
          params: idParams,
          body: claimBody,
          response: { 200: claimDetail, 409: incidentOutsideTermResponse, ...errors },
        },
      },
      async (request) => {
        const author = await authorOf(ctx, request);
        const { id } = request.params;
        const values = request.body;
        return withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const stored = await requireClaimForChange(tx, tenantId, id);
          await assertAssignee(tx, values.assigned_to, stored.assignedTo);
          checkRecordedAmounts(stored, values);
          // The dates as they will stand: a kept reported date still comes after the incident.
          const reported = values.reported_date ?? stored.reportedDate;
          if (reported < values.incident_date) {
            throw fieldError('incident_date', 'A claim is reported on or after the day of the incident.');
          }
          await checkAgainstPolicy(tx, tenantId, values, stored);
          await auditTrail(tx, request).changed('claim', id, () =>
            updateClaim(tx, tenantId, id, {
              ...values,
              claim_number: blank(values.claim_number) ? stored.claimNumber : (values.claim_number as string),
              reported_date: reported,
            }),
          );
          await addAmountEvents(
            tx,
            tenantId,
            id,
            author,
            {
              amount_claimed: stored.amountClaimed,
              amount_approved: stored.amountApproved,
              amount_paid: stored.amountPaid,
            },
            values,
          );
          return requireClaim(tx, tenantId, id);
        }).catch(numberTaken);
      },
    );

    app.delete(
      '/claims/:id/',
      {
        schema: {
          tags,
          summary: 'Delete an open claim nothing was paid on',
          description:
            'Only a claim still `open` as reported, never moved and with nothing paid, can be deleted (a claim reported by mistake); any other answers 409, and is closed instead.',
          security: bearerAuth,
          params: idParams,
          response: { 204: z.null(), 409: detailResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        await withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const stored = await requireClaimForChange(tx, tenantId, id);
          if (stored.status !== 'open') {
            throw conflict({
              detail: `Claim ${stored.claimNumber} is ${CLAIM_STATUS_LABELS[stored.status].toLowerCase()}: only an open claim can be deleted. Close it instead.`,
            });
          }
          if (toCents(stored.amountPaid) > 0n) {
            throw conflict({
              detail: `The insurer has paid on claim ${stored.claimNumber}, so it cannot be deleted. Close it instead.`,
            });
          }
          if (await claimHasMoved(tx, tenantId, id)) {
            throw conflict({
              detail: `Claim ${stored.claimNumber} has been worked on (reopened since): its history is kept. Close it instead.`,
            });
          }
          await auditTrail(tx, request).changed('claim', id, () => deleteClaim(tx, tenantId, id));
        });
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/claims/:id/transition/',
      {
        schema: {
          tags,
          summary: 'Move a claim to another status',
          description: `The allowed moves: ${TRANSITIONS_DOC}. Any other answers 409 naming the allowed ones. Reopening a closed claim needs a \`note\` (the reason). Moving to \`approved\` records \`amount_approved\` (required unless already recorded); moving to \`paid\` records \`amount_paid\` (more than zero, and not above the approved amount). Amounts sent with other moves are ignored. Closing dates the claim (\`closed_on\`, the agency's day); reopening clears it. The move and its note are written to the timeline.`,
          security: bearerAuth,
          params: idParams,
          body: claimTransitionBody,
          response: { 200: claimDetail, 409: detailResponse, ...errors },
        },
      },
      async (request) => {
        const author = await authorOf(ctx, request);
        const { id } = request.params;
        const { status: to, note, amount_approved, amount_paid } = request.body;
        return withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const stored = await requireClaimForChange(tx, tenantId, id);
          const from = stored.status;
          const allowed = CLAIM_TRANSITIONS[from];
          if (!allowed.includes(to)) {
            const state = CLAIM_STATUS_LABELS[from].toLowerCase();
            throw conflict({
              detail:
                from === to
                  ? `This claim is already ${state}.`
                  : `A claim that is ${state} cannot move to ${CLAIM_STATUS_LABELS[to].toLowerCase()}; it can move to ${listStatuses(allowed)}.`,
            });
          }
          if (from === 'closed' && !note) {
            throw fieldError('note', 'Give the reason for reopening this claim.');
          }
          const amounts = {
            amountApproved:
              to === 'approved' ? (amount_approved ?? stored.amountApproved) : stored.amountApproved,
            amountPaid: to === 'paid' ? (amount_paid ?? stored.amountPaid) : stored.amountPaid,
          };
          if (to === 'approved' && amounts.amountApproved === null) {
            throw fieldError('amount_approved', 'Enter the amount the insurer approved.');
          }
          if (to === 'paid' && Number(amounts.amountPaid) <= 0) {
            throw fieldError('amount_paid', 'Enter what the insurer paid.');
          }
          const problems = claimAmountProblems({
            amount_approved: amounts.amountApproved,
            amount_paid: amounts.amountPaid,
          });
          if (problems.length > 0) {
            throw new HttpError(
              400,
              Object.fromEntries(problems.map(({ field, message }) => [field, [message]])),
            );
          }
          await auditTrail(tx, request).changed('claim', id, () => moveClaim(tx, tenantId, id, to, amounts));
          await addClaimEvent(tx, tenantId, id, author, { kind: 'status', from, to, note });
          return requireClaim(tx, tenantId, id);
        });
      },
    );

    app.post(
      '/claims/:id/notes/',
      {
        schema: {
          tags,
          summary: "Add a note to a claim's timeline",
          description:
            'The note is kept with who wrote it and when; the claim is answered with its timeline.',
          security: bearerAuth,
          params: idParams,
          body: claimNoteBody,
          response: { 201: claimDetail, ...errors },
        },
      },
      async (request, reply) => {
        const author = await authorOf(ctx, request);
        const { id } = request.params;
        const updated = await withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          await requireClaimForChange(tx, tenantId, id);
          await addClaimEvent(tx, tenantId, id, author, { kind: 'note', note: request.body.note });
          await touchClaim(tx, tenantId, id);
          return requireClaim(tx, tenantId, id);
        });
        return reply.code(201).send(updated);
      },
    );
  };
