import { z } from 'zod';
import { money } from './billing.js';
import { COMMISSION_PAYMENT_METHODS, COMMISSION_TYPES, POLICY_STATUSES } from './constants.js';
import { EVEN_WHEN_FIELDS_FAIL, isoDate, uuid, validField } from './fields.js';
import { ordering, pageQuery } from './pagination.js';

// The commission report: what each insurer owes the agency on the policies of a period, what has
// come in, and what is still outstanding. Every figure is a sum of what the policy pages show.

/**
 * Where a policy's premium stands with the customer, from its instalments. Paid: every instalment
 * paid. Overdue: an unpaid instalment is past its due date (the agency's today). Partial: something
 * paid, nothing overdue. Pending: nothing paid, nothing overdue.
 */
export const COMMISSION_PAYMENT_STATUSES = ['Pending', 'Partial', 'Paid', 'Overdue'] as const;
export type CommissionPaymentStatus = (typeof COMMISSION_PAYMENT_STATUSES)[number];
export const COMMISSION_PAYMENT_STATUS_LABELS: Record<CommissionPaymentStatus, string> = {
  Paid: 'Paid',
  Partial: 'Partially paid',
  Overdue: 'Overdue',
  Pending: 'Nothing paid yet',
};
export const commissionPaymentStatus = z.enum(COMMISSION_PAYMENT_STATUSES, {
  error: 'Choose Pending, Partial, Paid or Overdue.',
});

/** What the rows can be sorted by; `-` before a field sorts descending. */
export const COMMISSION_REPORT_ORDERINGS = [
  'policy_number',
  'customer_name',
  'company_name',
  'policy_type_name',
  'start_date',
  'end_date',
  'total_premium',
  'amount_paid',
  'expected_commission',
  'received_commission',
  'outstanding_commission',
  'created_at',
] as const;
export type CommissionReportOrdering =
  | (typeof COMMISSION_REPORT_ORDERINGS)[number]
  | `-${(typeof COMMISSION_REPORT_ORDERINGS)[number]}`;

/**
 * `commission_data` (the default) answers the rows of the page with the totals; `summary` answers
 * the totals alone, with `commission_data` empty.
 */
export const COMMISSION_REPORT_INCLUDES = ['commission_data', 'summary'] as const;

/** A blank value (`?start_date=`) filters nothing, as if it were not sent. */
const blankAsAbsent = <Schema extends z.ZodType>(schema: Schema) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** The filters shared by the report and its exports. */
const reportFilters = {
  start_date: blankAsAbsent(isoDate),
  end_date: blankAsAbsent(isoDate),
  company_id: blankAsAbsent(uuid),
  policy_type_id: blankAsAbsent(uuid),
  payment_status: blankAsAbsent(commissionPaymentStatus),
  ordering: ordering(COMMISSION_REPORT_ORDERINGS, '-start_date'),
};

/** A period whose end comes before its start is refused on its end; either bound may be absent. */
const periodInOrderOf =
  (startField: string, endField: string) =>
  (query: Partial<Record<string, unknown>>, context: z.RefinementCtx) => {
    const start = validField(isoDate, query[startField]);
    const end = validField(isoDate, query[endField]);
    if (start && end && end < start) {
      context.addIssue({
        code: 'custom',
        path: [endField],
        message: 'The end of the period cannot be before its start.',
      });
    }
  };
const periodInOrder = periodInOrderOf('start_date', 'end_date');

/**
 * `GET /policies/commission_batch/`. The period keeps the policies whose term overlaps it (either
 * bound may be left out); `search` matches the policy number and the customer's name.
 */
export const commissionReportQuery = pageQuery
  .extend({
    include: z.enum(COMMISSION_REPORT_INCLUDES).default('commission_data'),
    ...reportFilters,
  })
  .superRefine(periodInOrder, EVEN_WHEN_FIELDS_FAIL);
export type CommissionReportQuery = z.input<typeof commissionReportQuery>;

/** `GET /policies/commission_csv/` and `/commission_pdf/`: the report's filters, every row. */
export const commissionExportQuery = pageQuery
  .omit({ page: true, page_size: true })
  .extend(reportFilters)
  .superRefine(periodInOrder, EVEN_WHEN_FIELDS_FAIL);
export type CommissionExportQuery = z.input<typeof commissionExportQuery>;

/** A rate or share as "12.50": two decimals, half-up; 0.00 when its base is zero. */
const rate = z.string().regex(/^\d+\.\d{2}$/);

/** One policy of the report. */
export const commissionReportRow = z.object({
  policy_id: z.string(),
  policy_number: z.string(),
  customer_id: z.string(),
  customer_name: z.string(),
  company_id: z.string(),
  company_name: z.string(),
  company_commission_type: z.enum(COMMISSION_TYPES),
  commission_payment_method: z.enum(COMMISSION_PAYMENT_METHODS),
  policy_type_id: z.string(),
  policy_type_name: z.string(),
  status: z.enum(POLICY_STATUSES),
  start_date: z.string(),
  end_date: z.string(),
  total_premium: money,
  net_premium: money,
  commission_percentage: rate,
  expected_commission: money,
  received_commission: money,
  outstanding_commission: money,
  /** Received as a share of expected. */
  received_commission_percentage: rate,
  payment_status: commissionPaymentStatus,
  installments_paid: z.number().int(),
  total_installments: z.number().int(),
  amount_paid: money,
  /** What the insurer paid on the policy by the agency's accepted commission statements. */
  insurer_paid_commission: money,
  /** What the insurer owes on the policy today less what it paid; negative when it paid more. */
  owed_by_insurer: money,
  created_at: z.string(),
});
export type CommissionReportRow = z.infer<typeof commissionReportRow>;

/** The totals over every policy that matches the filters, not only the page. */
export const commissionSummary = z.object({
  total_policies: z.number().int(),
  /** Sum of the policies' total premiums. */
  total_premium: money,
  /** Same as total_expected_commission. */
  total_commission: money,
  total_expected_commission: money,
  total_received_commission: money,
  /** What customers have paid on these policies. */
  total_paid: money,
  /** Premium customers still have to pay: total_premium - total_paid. */
  total_pending: money,
  /** Same as total_received_commission. */
  total_earned: money,
  /** total_expected_commission - total_received_commission. */
  outstanding_commission: money,
  /** total_received_commission / total_expected_commission x 100. */
  commission_received_percentage: rate,
  /** total_expected_commission / sum of net premiums x 100: the book's effective rate. */
  average_commission_percentage: rate,
});
export type CommissionSummary = z.infer<typeof commissionSummary>;

/** The totals of one insurer's matching policies. */
export const commissionCompanySummary = z.object({
  company_id: z.string(),
  company_name: z.string(),
  company_commission_type: z.enum(COMMISSION_TYPES),
  commission_payment_method: z.enum(COMMISSION_PAYMENT_METHODS),
  total_policies: z.number().int(),
  total_premium: money,
  total_expected_commission: money,
  total_received_commission: money,
  outstanding_commission: money,
  commission_received_percentage: rate,
});
export type CommissionCompanySummary = z.infer<typeof commissionCompanySummary>;

/**
 * What one insurer owes the agency today, by how long each part has been owed: a full-policy
 * insurer's commission from the term's start, a pro-rata insurer's from each instalment's due date;
 * what its statements paid settles the oldest first. Overpaid is what it paid beyond what it owes
 * (zero or negative); `owed_by_insurer` is the sum of the ages and the overpaid, as the report's
 * rows add it up.
 */
export const insurerOwedAges = z.object({
  company_id: z.string(),
  company_name: z.string(),
  commission_payment_method: z.enum(COMMISSION_PAYMENT_METHODS),
  reconciled: z
    .boolean()
    .describe(
      'It has an accepted commission statement. Until it has, Coverdesk knows nothing it paid, and all it ever owed reads as owed.',
    ),
  insurer_paid: money,
  days_0_30: money,
  days_31_60: money,
  days_61_90: money,
  days_over_90: money,
  overpaid: money,
  owed_by_insurer: money,
});
export type InsurerOwedAges = z.infer<typeof insurerOwedAges>;

export const insurersOwedQuery = z.object({ company_id: blankAsAbsent(uuid) });

/**
 * The aged list of what insurers owe: a row per insurer with anything paid or owed, reconciled
 * through an accepted statement or not, and the total.
 */
export const insurersOwed = z.object({
  /** The agency's today, the day the ages count from. */
  as_of: isoDate,
  results: z.array(insurerOwedAges),
  totals: insurerOwedAges.omit({
    company_id: true,
    company_name: true,
    commission_payment_method: true,
    reconciled: true,
  }),
});
export type InsurersOwed = z.infer<typeof insurersOwed>;

export const commissionPagination = z.object({
  page: z.number().int(),
  page_size: z.number().int(),
  total_items: z.number().int(),
  total_pages: z.number().int(),
  has_next: z.boolean(),
  has_previous: z.boolean(),
});
export type CommissionPagination = z.infer<typeof commissionPagination>;

export const commissionReport = z.object({
  commission_data: z.array(commissionReportRow),
  summary: commissionSummary,
  /** One entry per insurer with matching policies, by name. */
  company_summary: z.array(commissionCompanySummary),
  pagination: commissionPagination,
});
export type CommissionReport = z.infer<typeof commissionReport>;

// Producer shares: the same policies and commission as the report, grouped by the member each
// policy is assigned to (its producer), with the producer's share of that commission.

/** Each field of the producers' view and statements; the period follows the report's own rules. */
const producerFilters = {
  date_from: blankAsAbsent(isoDate),
  date_to: blankAsAbsent(isoDate),
  company_id: blankAsAbsent(uuid),
};

const producerPeriodInOrder = periodInOrderOf('date_from', 'date_to');

/**
 * `GET /commission-report/producers/`. `date_from` and `date_to` (inclusive, either may be left
 * out or blank) keep the policies whose term overlaps the period, as the commission report's
 * `start_date` and `end_date` do; `company_id` keeps one insurer.
 */
export const producerReportQuery = z
  .object(producerFilters)
  .superRefine(producerPeriodInOrder, EVEN_WHEN_FIELDS_FAIL);
export type ProducerReportQuery = z.input<typeof producerReportQuery>;

export const PRODUCER_STATEMENT_FORMATS = ['pdf', 'csv'] as const;
export type ProducerStatementFormat = (typeof PRODUCER_STATEMENT_FORMATS)[number];

/** `GET /commission-report/producers/{user_id}/statement/`: the same filters and the file's format. */
export const producerStatementQuery = z
  .object({
    ...producerFilters,
    format: z.enum(PRODUCER_STATEMENT_FORMATS, { error: 'Choose pdf or csv.' }).default('pdf'),
  })
  .superRefine(producerPeriodInOrder, EVEN_WHEN_FIELDS_FAIL);
export type ProducerStatementQuery = z.input<typeof producerStatementQuery>;

export const producerParams = z.object({ user_id: uuid });

/**
 * One producer's figures. `user_id` is null for the terms credited to nobody ("Unassigned"),
 * whose share is 0.00.
 */
export const producerShare = z.object({
  user_id: z
    .string()
    .nullable()
    .describe('The member credited with the terms (their producer); null for the terms credited to nobody.'),
  name: z.string().describe('The member\'s name, or "Unassigned".'),
  policies: z.number().int(),
  expected_commission: money.describe(
    "The commission report's expected commission, summed over the producer's policies of the period.",
  ),
  producer_share_expected: money.describe(
    "Per policy: expected commission x split % / 100 (the policy's producer_split_percentage, else the producer's share in force the day the term was written, recorded on it), rounded half-up to the cent; then summed. 0.00 for Unassigned.",
  ),
  received_commission: money.describe(
    "The commission report's received commission, summed over the producer's policies of the period.",
  ),
  producer_share_received: money.describe(
    'Per policy: received commission x split % / 100, rounded half-up to the cent; then summed. 0.00 for Unassigned.',
  ),
});
export type ProducerShare = z.infer<typeof producerShare>;

export const producerReport = z.object({
  /** The producers with matching policies, by name; "Unassigned" last. */
  results: z.array(producerShare),
  /** The sums of every row, Unassigned included: its commission equals the commission report's. */
  totals: producerShare.omit({ user_id: true, name: true }),
});
export type ProducerReport = z.infer<typeof producerReport>;

/** One policy of a producer's statement. */
export const producerStatementRow = z.object({
  policy_id: z.string(),
  policy_number: z.string(),
  customer_name: z.string(),
  company_name: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  expected_commission: money,
  received_commission: money,
  /** The policy's own split when it has one, else the producer's default, "40.00". */
  split_percentage: rate,
  producer_share_expected: money,
  producer_share_received: money,
});
export type ProducerStatementRow = z.infer<typeof producerStatementRow>;
