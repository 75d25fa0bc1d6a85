import { z } from 'zod';
import { money } from './billing.js';
import { exportQueryOf } from './export.js';
import {
  assignedToFilter,
  assigneeFields,
  assigneeInput,
  boundedText,
  choiceOf,
  EVEN_WHEN_FIELDS_FAIL,
  isoDate,
  moneyInput,
  optionalEmail,
  optionalPhone,
  optionalText,
  requiredText,
  uuid,
  validField,
} from './fields.js';
import { ordering, paged, pageQuery } from './pagination.js';
import { toCents } from './schedule.js';

/** Where a claim stands, from the day it is reported to the day it is settled. */
export const CLAIM_STATUSES = ['open', 'in_review', 'approved', 'rejected', 'paid', 'closed'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];
export const CLAIM_STATUS_LABELS: Record<ClaimStatus, string> = {
  open: 'Open',
  in_review: 'In review',
  approved: 'Approved',
  rejected: 'Rejected',
  paid: 'Paid',
  closed: 'Closed',
};

/**
 * The moves a claim may make, enforced by the server. A claim is reported (open), the insurer looks
 * at it (in review) and approves or rejects it; an approved claim is paid, and every claim ends
 * closed. A review can send a claim back to open (missing documents), a rejection can be appealed
 * (back to review), an approved claim the customer withdrew is closed unpaid, and a closed claim can
 * be reopened with a reason.
 */
export const CLAIM_TRANSITIONS: Record<ClaimStatus, readonly ClaimStatus[]> = {
  open: ['in_review', 'rejected', 'closed'],
  in_review: ['approved', 'rejected', 'open'],
  approved: ['paid', 'closed'],
  rejected: ['closed', 'in_review'],
  paid: ['closed'],
  closed: ['open'],
};

/** What a claim is about. */
export const CLAIM_TYPES = [
  'accident',
  'theft',
  'fire',
  'water_damage',
  'liability',
  'medical',
  'travel',
  'other',
] as const;
export type ClaimType = (typeof CLAIM_TYPES)[number];
export const CLAIM_TYPE_LABELS: Record<ClaimType, string> = {
  accident: 'Accident',
  theft: 'Theft',
  fire: 'Fire',
  water_damage: 'Water damage',
  liability: 'Liability',
  medical: 'Medical',
  travel: 'Travel',
  other: 'Other',
};

/** What the timeline records: the claim reported, a move between statuses, an amount edited, a note. */
export const CLAIM_EVENT_KINDS = ['created', 'status', 'amount', 'note'] as const;

/** The amounts of a claim whose edits the timeline records. */
export const CLAIM_AMOUNT_FIELDS = ['amount_claimed', 'amount_approved', 'amount_paid'] as const;
export type ClaimAmountField = (typeof CLAIM_AMOUNT_FIELDS)[number];
export const CLAIM_AMOUNT_LABELS: Record<ClaimAmountField, string> = {
  amount_claimed: 'Amount claimed',
  amount_approved: 'Amount approved',
  amount_paid: 'Amount paid',
};

/** The error code of a claim whose incident falls outside its policy's term, until confirmed. */
export const INCIDENT_OUTSIDE_TERM = 'incident_outside_term';

export const claimStatus = z.enum(CLAIM_STATUSES, { error: 'Choose a status.' });
export const claimType = z.enum(CLAIM_TYPES, { error: 'Choose what happened.' });

/** "in review, approved or rejected": the moves open to a claim, as a message reads them. */
export function listStatuses(statuses: readonly ClaimStatus[]): string {
  const labels = statuses.map((status) => CLAIM_STATUS_LABELS[status].toLowerCase());
  if (labels.length <= 1) return labels.join('');
  return `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`;
}

export interface ClaimAmounts {
  amount_claimed?: string | null;
  amount_approved?: string | null;
  amount_paid?: string | null;
}

const cents = (amount: string | null | undefined) => (amount ? toCents(amount) : 0n);

/**
 * The rule between a claim's amounts: the insurer cannot have paid more than it approved, nor paid
 * anything before approving an amount. Read by the body's rules and by the server for a transition.
 */
export function claimAmountProblems(amounts: ClaimAmounts): { field: 'amount_paid'; message: string }[] {
  const paid = cents(amounts.amount_paid);
  if (paid === 0n) return [];
  if (amounts.amount_approved === null || amounts.amount_approved === undefined) {
    return [{ field: 'amount_paid', message: 'Enter the approved amount before what the insurer paid.' }];
  }
  if (paid > cents(amounts.amount_approved)) {
    return [{ field: 'amount_paid', message: 'The insurer cannot pay more than the approved amount.' }];
  }
  return [];
}

/** An approved amount above the amount claimed is allowed, but a broker should look twice. */
export function approvedAboveClaimed(amounts: ClaimAmounts): boolean {
  if (!amounts.amount_approved || !amounts.amount_claimed) return false;
  return toCents(amounts.amount_approved) > toCents(amounts.amount_claimed);
}

const optionalMoney = z
  .union([z.literal(''), z.null(), moneyInput])
  .transform((value) => value || null)
  .default(null);

/** A claim as reported and edited. Its status moves only through transitions. */
export const claimBody = z
  .object({
    policy_id: choiceOf('Choose the policy this claim is on.').describe(
      'The policy the claim is made on; the customer and insurer follow from it.',
    ),
    claim_number: boundedText(50)
      .optional()
      .describe(
        "The agency's own number for the claim, unique in the agency. Left out or blank on creation: the agency's next CLM-<year>-<nnnn>, of the year of the reported date.",
      ),
    insurer_reference: optionalText(100).describe(
      "The insurer's own reference for the claim, once it has one.",
    ),
    incident_date: isoDate.describe(
      "When it happened. Must fall within the policy's term unless `confirm_outside_term` is true.",
    ),
    reported_date: isoDate
      .optional()
      .describe("When the customer reported it; by default today in the agency's time zone."),
    claim_type: claimType.describe('What happened.'),
    description: optionalText(5000).describe('What happened, in the customer’s words or the broker’s.'),
    location: optionalText(300).describe('Where it happened.'),
    amount_claimed: moneyInput.describe('What the customer claims, two decimals, in the agency currency.'),
    amount_approved: optionalMoney.describe(
      'What the insurer approved; null until it decides. May exceed the amount claimed (the screens warn).',
    ),
    amount_paid: moneyInput
      .default('0.00')
      .describe('What the insurer has paid so far; never more than the approved amount.'),
    adjuster_name: optionalText(150).describe("The insurer's loss adjuster handling the claim."),
    adjuster_phone: optionalPhone.describe("The adjuster's phone."),
    adjuster_email: optionalEmail.describe("The adjuster's email."),
    assigned_to: assigneeInput,
    confirm_outside_term: z
      .boolean()
      .default(false)
      .describe(
        "True to save an incident date outside the policy's term after the 409 `incident_outside_term` warning.",
      ),
  })
  .superRefine((claim, context) => {
    const incident = validField(isoDate, claim.incident_date);
    const reported = validField(isoDate, claim.reported_date);
    if (incident && reported && reported < incident) {
      context.addIssue({
        code: 'custom',
        path: ['reported_date'],
        message: 'A claim is reported on or after the day of the incident.',
      });
    }
    const approved = validField(optionalMoney, claim.amount_approved);
    const paid = validField(moneyInput, claim.amount_paid ?? '0');
    if (approved !== undefined && paid !== undefined) {
      for (const { field, message } of claimAmountProblems({
        amount_approved: approved,
        amount_paid: paid,
      })) {
        context.addIssue({ code: 'custom', path: [field], message });
      }
    }
  }, EVEN_WHEN_FIELDS_FAIL);
export type ClaimBody = z.input<typeof claimBody>;
export type ClaimValues = z.output<typeof claimBody>;

/**
 * A claim's dates cannot be after the agency's `today`: nothing happened, nor was reported, tomorrow.
 * The server checks them against its own today (the agency's time zone); the form, before it sends.
 */
export function claimDateProblems(
  claim: { incident_date?: unknown; reported_date?: unknown },
  today: string,
): { field: 'incident_date' | 'reported_date'; message: string }[] {
  const problems: { field: 'incident_date' | 'reported_date'; message: string }[] = [];
  const incident = validField(isoDate, claim.incident_date);
  const reported = validField(isoDate, claim.reported_date);
  if (incident && incident > today) {
    problems.push({ field: 'incident_date', message: 'An incident date cannot be in the future.' });
  }
  if (reported && reported > today) {
    problems.push({ field: 'reported_date', message: 'A claim cannot be reported in the future.' });
  }
  return problems;
}

/** The claim body as a form checks it on the agency's `today`: with the dates not after it. */
export const claimBodyOn = (today: string) =>
  claimBody.superRefine((claim, context) => {
    for (const { field, message } of claimDateProblems(claim, today)) {
      context.addIssue({ code: 'custom', path: [field], message });
    }
  }, EVEN_WHEN_FIELDS_FAIL);

export const claim = z.object({
  id: z.string(),
  claim_number: z.string().describe('Unique in the agency, e.g. CLM-2026-0001.'),
  insurer_reference: z.string(),
  policy: z
    .object({ id: z.string(), policy_number: z.string(), start_date: z.string(), end_date: z.string() })
    .describe('The policy the claim is on, with its term.'),
  customer: z.object({ id: z.string(), name: z.string() }).describe("The policy's customer."),
  company_id: z.string().describe("The policy's insurer."),
  company_name: z.string(),
  incident_date: z.string(),
  reported_date: z.string(),
  claim_type: claimType,
  description: z.string(),
  location: z.string(),
  status: claimStatus.describe('Moves only through `POST /claims/{id}/transition/`.'),
  allowed_transitions: z
    .array(claimStatus)
    .describe('The statuses this claim may move to now (see the transition call).'),
  amount_claimed: money,
  amount_approved: money.nullable(),
  amount_paid: money,
  adjuster_name: z.string(),
  adjuster_phone: z.string(),
  adjuster_email: z.string(),
  incident_outside_term: z
    .boolean()
    .describe("The incident date lies outside the policy's term (saved after confirmation)."),
  closed_on: z.string().nullable().describe('The agency day the claim was last closed; null unless closed.'),
  ...assigneeFields,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Claim = z.infer<typeof claim>;

export const claimEvent = z.object({
  id: z.string(),
  kind: z
    .enum(CLAIM_EVENT_KINDS)
    .describe(
      'created: reported; status: a transition; amount: an amount edited (see `amount_change`); note: a note added.',
    ),
  from_status: claimStatus.nullable(),
  to_status: claimStatus.nullable(),
  note: z.string(),
  amount_change: z
    .object({
      field: z.enum(CLAIM_AMOUNT_FIELDS).describe('Which amount the edit changed.'),
      from: money.nullable().describe('Before the edit; null when none was recorded (an approved amount).'),
      to: money.nullable().describe('After the edit; null when it was cleared.'),
    })
    .nullable()
    .describe('For an `amount` entry, what changed; null for every other kind.'),
  author_name: z.string().describe('Who did it, as named when they did.'),
  created_at: z.string(),
});
export type ClaimEvent = z.infer<typeof claimEvent>;

/** A claim as answered alone, with its timeline, newest first. */
export const claimDetail = claim.extend({
  timeline: z
    .array(claimEvent)
    .describe('Status changes and amount edits (written by the server) and notes, newest first.'),
});
export type ClaimDetail = z.infer<typeof claimDetail>;

export const CLAIM_ORDERINGS = [
  'incident_date',
  'reported_date',
  'claim_number',
  'amount_claimed',
  'created_at',
] as const;

export const claimListQuery = pageQuery.extend({
  status: claimStatus.optional(),
  claim_type: claimType.optional(),
  company_id: uuid.optional(),
  customer_id: uuid.optional(),
  policy_id: uuid.optional(),
  assigned_to: assignedToFilter,
  incident_date_from: isoDate.optional(),
  incident_date_to: isoDate.optional(),
  ordering: ordering(CLAIM_ORDERINGS, '-reported_date'),
});
export type ClaimListQuery = z.input<typeof claimListQuery>;

/** `GET /claims/export/`: every claim the list's search, filters and sort match. */
export const claimExportQuery = exportQueryOf(claimListQuery);
export type ClaimExportQuery = z.input<typeof claimExportQuery>;

export const claimPage = paged(claim);

/**
 * The stats follow the list's search and filters, all but the status: the figures are counted by
 * status, so a status filter would leave most of them empty.
 */
export const claimStatsQuery = claimListQuery.omit({
  page: true,
  page_size: true,
  ordering: true,
  status: true,
});
export type ClaimStatsQuery = z.input<typeof claimStatsQuery>;

export const claimTransitionBody = z.object({
  status: claimStatus.describe('The status to move to; it must be one of `allowed_transitions`.'),
  note: optionalText(2000).describe('Why, for the timeline. Required when reopening a closed claim.'),
  amount_approved: moneyInput
    .optional()
    .describe('With a move to approved: the amount the insurer approved (needed unless already recorded).'),
  amount_paid: moneyInput
    .optional()
    .describe('With a move to paid: what the insurer paid (needed unless already recorded).'),
});
export type ClaimTransitionBody = z.input<typeof claimTransitionBody>;

export const claimNoteBody = z.object({
  note: requiredText(2000).describe('The note, added to the timeline with its author and time.'),
});
export type ClaimNoteBody = z.input<typeof claimNoteBody>;

export const claimStats = z.object({
  total: z.number().int().describe('Every claim of the agency matching the search and filters.'),
  by_status: z.record(claimStatus, z.number().int()),
  open_count: z.number().int().describe('Claims not closed: still being worked on.'),
  amount_claimed: money.describe('The amounts claimed, summed over every claim counted.'),
  amount_approved: money.describe('The approved amounts, summed over claims that have one.'),
  amount_paid: money.describe('What insurers have paid, summed over every claim counted.'),
  average_days_to_close: z
    .number()
    .nullable()
    .describe(
      'Over closed claims: the days from reported to closed, averaged, to one decimal; null when none is closed.',
    ),
});
export type ClaimStats = z.infer<typeof claimStats>;

/** The 409 answered for an incident outside the policy's term until the broker confirms it. */
export const incidentOutsideTermResponse = z.object({
  detail: z.string(),
  code: z.literal(INCIDENT_OUTSIDE_TERM),
  policy_start: z.string(),
  policy_end: z.string(),
});
