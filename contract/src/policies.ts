import { z } from 'zod';
import { money } from './billing.js';
import {
  INSTALLMENT_STATUSES,
  MAX_INSTALLMENTS,
  PAYMENT_FREQUENCIES,
  PAYMENT_METHODS,
  POLICY_STATUSES,
} from './constants.js';
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
  optionalText,
  percentage,
  positiveMoney,
  REQUIRED,
  requiredText,
  text,
  uuid,
  validField,
} from './fields.js';
import { ordering, paged, pageQuery } from './pagination.js';
import { scheduleProblems, termMonths, toCents } from './schedule.js';

export const paymentFrequency = z.enum(PAYMENT_FREQUENCIES, { error: 'Choose how the premium is paid.' });
export const policyStatus = z.enum(POLICY_STATUSES);
export const installmentStatus = z.enum(INSTALLMENT_STATUSES);
export const paymentMethod = z.enum(PAYMENT_METHODS, { error: 'Choose how it was paid.' });

/**
 * A policy as created and edited. The net premium is the commission base and cannot exceed the
 * total; without a commission percentage the insurer's rate for the type applies.
 */
const customInstallments = z.coerce
  .number({ error: 'Enter a whole number of instalments.' })
  .int('Enter a whole number of instalments.')
  .min(1, 'At least one instalment.')
  .max(MAX_INSTALLMENTS, `At most ${MAX_INSTALLMENTS} instalments.`);

/**
 * The rules across a policy's fields, for a policy as created or edited and for what a renewal
 * changes. Each reads its fields only once they are valid on their own, and only those present.
 */
function checkAcrossFields(policy: Partial<Record<string, unknown>>, context: z.RefinementCtx) {
  // When no field failed, each already holds its valid value: an import checks thousands of rows.
  const valid: typeof validField =
    context.issues.length === 0 ? (_schema, value) => value as never : validField;
  const start = valid(isoDate, policy.start_date);
  const end = valid(isoDate, policy.end_date);
  const total = valid(moneyInput, policy.total_premium);
  const net = valid(moneyInput, policy.net_premium);
  const frequency = valid(paymentFrequency, policy.payment_frequency);
  const instalments = valid(customInstallments, policy.custom_installments);
  if (start && end && end <= start) {
    context.addIssue({
      code: 'custom',
      path: ['end_date'],
      message: 'The policy must end after it starts.',
    });
  }
  if (total && net && toCents(net) > toCents(total)) {
    context.addIssue({
      code: 'custom',
      path: ['net_premium'],
      message: 'The net premium cannot be more than the total premium.',
    });
  }
  if (frequency === 'custom' && policy.custom_installments === undefined) {
    context.addIssue({ code: 'custom', path: ['custom_installments'], message: 'How many instalments?' });
  }
  // At most one a month, so that every instalment falls due within the term.
  if (start && end && end > start && frequency === 'custom' && instalments !== undefined) {
    const months = termMonths(start, end);
    if (instalments > months) {
      context.addIssue({
        code: 'custom',
        path: ['custom_installments'],
        message: `A ${months}-month term has at most ${months} instalments.`,
      });
    }
  }
  if (start && end && end > start && frequency) {
    for (const { field, message } of scheduleProblems(start, end, frequency, instalments)) {
      context.addIssue({ code: 'custom', path: [field], message });
    }
  }
}

export const policyBody = z
  .object({
    policy_number: requiredText(50),
    customer_id: choiceOf('Choose a customer.'),
    company_id: choiceOf('Choose an insurer.'),
    policy_type_id: choiceOf('Choose a policy type.'),
    start_date: isoDate,
    end_date: isoDate,
    total_premium: positiveMoney('The premium must be more than zero.'),
    net_premium: moneyInput.optional(),
    commission_percentage: percentage.optional(),
    payment_frequency: paymentFrequency.default('single'),
    custom_installments: customInstallments.optional(),
    insured_item: optionalText(500),
    sum_insured: moneyInput.nullable().optional(),
    deductible: moneyInput.nullable().optional(),
    notes: optionalText(5000),
    assigned_to: assigneeInput,
    /**
     * The assignee's share of this policy's commission, in percent, instead of their default; null
     * for the default. Left out, it stays as it is. Setting it takes the `team` action.
     */
    producer_split_percentage: percentage.nullable().optional(),
  })
  .superRefine(checkAcrossFields, EVEN_WHEN_FIELDS_FAIL);
export type PolicyBody = z.input<typeof policyBody>;
export type PolicyValues = z.output<typeof policyBody>;

export const policy = z.object({
  id: z.string(),
  policy_number: z.string(),
  customer: z.object({ id: z.string(), first_name: z.string(), last_name: z.string() }),
  customer_name: z.string(),
  company_id: z.string(),
  company_name: z.string(),
  commission_payment_method: z.string(),
  policy_type_id: z.string(),
  policy_type_name: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  status: policyStatus,
  total_premium: money,
  net_premium: money,
  commission_percentage: z.string(),
  payment_frequency: paymentFrequency,
  custom_installments: z.number().int().nullable(),
  insured_item: z.string(),
  sum_insured: money.nullable(),
  deductible: money.nullable(),
  notes: z.string(),
  cancelled_at: z.string().nullable(),
  cancellation_reason: z.string(),
  cancellation_refund: money
    .nullable()
    .describe('What the insurer refunds on cancellation, when the broker entered it; null otherwise.'),
  renewed_from_id: z.string().nullable(),
  renewed_to_id: z.string().nullable(),
  not_renewing_reason: z
    .string()
    .describe('Why the agency will not renew this term; "" unless it is marked as not renewing.'),
  not_renewing_at: z
    .string()
    .nullable()
    .describe(
      'When the term was marked as not renewing; null unless it is. Such a term leaves the expiring-policies list.',
    ),
  earned_premium: money.describe(
    'The premium the term keeps (docs/figures.md, "Earned premium"): all of it unless cancelled; then the premium for the days of cover, or the premium less the refund.',
  ),
  expected_commission: money,
  received_commission: money,
  insurer_paid_commission: money.describe(
    'What the insurer has paid on the policy by its accepted commission statements, chargebacks negative.',
  ),
  amount_paid: money,
  installments_paid: z.number().int(),
  total_installments: z.number().int(),
  ...assigneeFields,
  producer_split_percentage: z
    .string()
    .nullable()
    .describe(
      "The producer's share of this policy's commission, in percent; null when the assigned member's default share applies.",
    ),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Policy = z.infer<typeof policy>;

/** One policy as read alone: with its claims counted, since a policy with claims cannot be deleted. */
export const policyDetail = policy.extend({
  claim_count: z.number().int().describe('Claims on the policy; while any is, the policy cannot be deleted.'),
});
export type PolicyDetail = z.infer<typeof policyDetail>;

export const POLICY_ORDERINGS = [
  'start_date',
  'end_date',
  'policy_number',
  'total_premium',
  'created_at',
] as const;

export const policyListQuery = pageQuery.extend({
  status: policyStatus.optional(),
  company_id: uuid.optional(),
  policy_type_id: uuid.optional(),
  customer_id: uuid.optional(),
  assigned_to: assignedToFilter,
  start_date_from: isoDate.optional(),
  start_date_to: isoDate.optional(),
  end_date_from: isoDate.optional(),
  end_date_to: isoDate.optional(),
  expiring_within_days: z.coerce.number().int().min(0).max(3650).optional(),
  ordering: ordering(POLICY_ORDERINGS, '-start_date'),
});
export type PolicyListQuery = z.input<typeof policyListQuery>;

/** `GET /policies/export/`: every policy the list's search, filters and sort match. */
export const policyExportQuery = exportQueryOf(policyListQuery);
export type PolicyExportQuery = z.input<typeof policyExportQuery>;

export const policyPage = paged(policy);

/** A policy number to check while the broker types it; the policy being edited is left out. */
export const policyNumberQuery = z.object({
  policy_number: boundedText(50),
  exclude_id: uuid.optional(),
});
export type PolicyNumberQuery = z.input<typeof policyNumberQuery>;

/** Another policy of the agency with the same number, whatever its insurer. */
export const policyNumberMatch = z.object({
  id: z.string(),
  policy_number: z.string(),
  customer_name: z.string(),
  company_name: z.string(),
  start_date: z.string(),
  end_date: z.string(),
});
export type PolicyNumberMatch = z.infer<typeof policyNumberMatch>;
export const policyNumberMatches = z.object({ results: z.array(policyNumberMatch) });

export const policyStats = z.object({
  total: z.number().int(),
  by_status: z.record(policyStatus, z.number().int()),
  active_premium: money,
  expected_commission: money,
  received_commission: money,
  expiring_in_30_days: z.number().int(),
});
export type PolicyStats = z.infer<typeof policyStats>;

export const installment = z.object({
  id: z.string(),
  policy_id: z.string(),
  sequence: z.number().int(),
  due_date: z.string(),
  amount_due: money,
  amount_paid: money,
  paid_date: z.string().nullable(),
  payment_method: paymentMethod.nullable(),
  reference: z.string(),
  status: installmentStatus,
  is_overdue: z.boolean(),
});
export type Installment = z.infer<typeof installment>;

/** A policy's schedule, a page at a time; by default one page holds the longest, so it reads whole. */
export const policyInstallmentsQuery = pageQuery.omit({ search: true }).extend({
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_INSTALLMENTS, `At most ${MAX_INSTALLMENTS} rows per page.`)
    .default(MAX_INSTALLMENTS),
});
export const policyInstallmentPage = paged(installment);

export const secureDeleteBody = z.object({
  password: text({ error: REQUIRED }).min(1, 'Enter your password.'),
});

/**
 * Cancelling a policy from a date within its term. Without a refund, the term earns its premium for the
 * days it covered; with one, its premium less the refund. Either way the commission follows in the
 * same proportion, and the instalments due after the date are cancelled.
 */
export const cancelBody = z.object({
  cancelled_at: isoDate.describe('The day the cover ends; from the start to the end of the term.'),
  reason: requiredText(500),
  refund_amount: z
    .union([z.literal(''), z.null(), moneyInput])
    .transform((value) => value || null)
    .default(null)
    .describe("What the insurer refunds the customer, when known; at most the policy's total premium."),
});
export type CancelBody = z.input<typeof cancelBody>;

/** Marking a term as one the agency will not renew: why, for the record and the policy page. */
export const notRenewingBody = z.object({
  reason: requiredText(500),
});
export type NotRenewingBody = z.input<typeof notRenewingBody>;

/** Renewal: every term overridable, defaulting to the next day, the same length, premium and number. */
export const renewBody = z
  .object({
    policy_number: requiredText(50).optional(),
    start_date: isoDate.optional(),
    end_date: isoDate.optional(),
    total_premium: moneyInput.optional(),
    net_premium: moneyInput.optional(),
    commission_percentage: percentage.optional(),
    payment_frequency: paymentFrequency.optional(),
    custom_installments: customInstallments.optional(),
  })
  .superRefine(checkAcrossFields, EVEN_WHEN_FIELDS_FAIL);
export type RenewBody = z.input<typeof renewBody>;

// GET /policies/{id}/renewal-preview/?start_date=
export const renewalPreviewQuery = z.object({
  start_date: isoDate
    .optional()
    .describe("The renewal's first day; left out, the day after the term's end, as renewing defaults to."),
});
export type RenewalPreviewQuery = z.input<typeof renewalPreviewQuery>;

/** What renewing from a day does to the current term: a renewal before its end ends it the day before. */
export const renewalPreview = z.object({
  ends_on: isoDate
    .nullable()
    .describe("The term's last day of cover once renewed; null when the renewal starts after its end."),
  earned_premium: money.describe('The premium the term then earns: all of it, or its days of cover.'),
  expected_commission: money.describe('The commission it then expects, in the same proportion.'),
});
export type RenewalPreview = z.infer<typeof renewalPreview>;

/** An instalment in the agency-wide payments list, with what a broker knows its policy by. */
export const installmentRow = installment.extend({
  policy_number: z.string(),
  customer: z.object({ id: z.string(), first_name: z.string(), last_name: z.string() }),
  customer_name: z.string(),
  company_name: z.string(),
});
export type InstallmentRow = z.infer<typeof installmentRow>;

/** The stored statuses, and two views across them: overdue (unpaid and past its date) and due (unpaid). */
export const INSTALLMENT_FILTERS = [...INSTALLMENT_STATUSES, 'overdue', 'due'] as const;
/** `attention`: what is still owed first, by due date (so the overdue lead), then the paid ones. */
export const INSTALLMENT_ORDERINGS = ['due_date', 'amount_due', 'attention'] as const;

export const installmentListQuery = pageQuery.extend({
  status: z.enum(INSTALLMENT_FILTERS).optional(),
  due_date_from: isoDate.optional(),
  due_date_to: isoDate.optional(),
  company_id: uuid.optional(),
  customer_id: uuid.optional(),
  policy_id: uuid.optional(),
  assigned_to: assignedToFilter.describe('Only the instalments of policies assigned to this member.'),
  ordering: ordering(INSTALLMENT_ORDERINGS, 'due_date'),
});
export type InstallmentListQuery = z.input<typeof installmentListQuery>;

/** `GET /payments/export/`: every instalment the list's search, filters and sort match. */
export const installmentExportQuery = exportQueryOf(installmentListQuery);
export type InstallmentExportQuery = z.input<typeof installmentExportQuery>;

export const installmentPage = paged(installmentRow);

const MORE_THAN_ZERO = 'The amount must be more than zero.';

/** A payment as recorded in two clicks: without an amount it pays what remains, without a date today. */
export const paymentBody = z.object({
  amount: positiveMoney(MORE_THAN_ZERO).optional(),
  paid_date: isoDate.optional(),
  payment_method: paymentMethod,
  reference: optionalText(100),
});
export type PaymentBody = z.input<typeof paymentBody>;

/** The payment on an instalment set as a whole, to correct what was recorded. */
export const paymentCorrectionBody = z.object({
  amount_paid: positiveMoney(MORE_THAN_ZERO),
  paid_date: isoDate,
  payment_method: paymentMethod,
  reference: optionalText(100),
});
export type PaymentCorrectionBody = z.input<typeof paymentCorrectionBody>;
