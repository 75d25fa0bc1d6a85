import { z } from 'zod';
import { readAmount, readingsOfAmbiguous } from './amount-text.js';
import { money } from './billing.js';
import { dateOrder } from './date-order.js';
import { boundedText, fitsMoney, isoDate, text, uuid } from './fields.js';
import type { ImportField } from './imports.js';
import { paged, pageQuery } from './pagination.js';

// An insurer's commission statement: the lines it paid, each matched to a policy of the agency and
// compared, to the cent, with what the insurer owed on it by the statement's date.

/**
 * `processing` while a job reads its file and matches its lines (the upload answers at once);
 * `failed` when that job could not, with the reason in `reading.detail`.
 */
export const STATEMENT_STATUSES = ['processing', 'review', 'accepted', 'failed'] as const;
export type StatementStatus = (typeof STATEMENT_STATUSES)[number];

/** How a line found its policy: by its number, by the insured's name and premium, or by the broker. */
export const STATEMENT_MATCH_METHODS = ['exact', 'fuzzy', 'manual'] as const;
export type StatementMatchMethod = (typeof STATEMENT_MATCH_METHODS)[number];

export const STATEMENT_LINE_OUTCOMES = [
  'matched',
  'short_paid',
  'over_paid',
  'chargeback',
  'unmatched',
] as const;
export type StatementLineOutcome = (typeof STATEMENT_LINE_OUTCOMES)[number];

export const STATEMENT_OUTCOME_LABELS: Record<StatementLineOutcome | 'missing', string> = {
  matched: 'Matched',
  short_paid: 'Short paid',
  over_paid: 'Over paid',
  chargeback: 'Chargeback',
  unmatched: 'Unmatched',
  missing: 'Missing',
};

/**
 * How the broker resolved a line that names no policy of the agency, so the statement can be accepted:
 * another agency's line (`not_ours`), or money kept without a policy (`written_off`, with the reason).
 * Either way its amount stays in the lines' sum, which the typed total must equal, and records no
 * receipt: it was paid on none of the agency's policies.
 */
export const STATEMENT_LINE_RESOLUTIONS = ['not_ours', 'written_off'] as const;
export type StatementLineResolution = (typeof STATEMENT_LINE_RESOLUTIONS)[number];
export const STATEMENT_RESOLUTION_LABELS: Record<StatementLineResolution, string> = {
  not_ours: 'Not ours',
  written_off: 'Written off',
};

/** Files past these are refused; a statement is a month of one insurer's lines. */
export const MAX_STATEMENT_BYTES = 20 * 1024 * 1024;
export const MAX_STATEMENT_LINES = 50_000;

/** A fuzzy match needs the insured's name this alike (trigram similarity) and the premium within 1%. */
export const FUZZY_NAME_SIMILARITY = 0.45;
export const FUZZY_PREMIUM_TOLERANCE = 0.01;

/** The columns a statement's lines are read from: the policy number or the insured, and the commission. */
export const STATEMENT_FIELDS: ImportField[] = [
  {
    key: 'policy_number',
    label: 'Policy number',
    synonyms: [
      'policy',
      'policy number',
      'policy ref',
      'policy reference',
      'contract',
      'contract number',
      'certificate',
    ],
  },
  {
    key: 'insured_name',
    label: 'Insured',
    synonyms: [
      'insured',
      'insured name',
      'name',
      'client',
      'client name',
      'customer',
      'customer name',
      'policyholder',
      'policy holder',
    ],
  },
  {
    key: 'premium',
    label: 'Premium',
    synonyms: ['gross premium', 'written premium', 'total premium', 'premium amount'],
  },
  {
    key: 'commission',
    label: 'Commission',
    synonyms: [
      'commission amount',
      'commission paid',
      'amount',
      'paid',
      'net commission',
      'comm',
      'comm amt',
      'comm amount',
      'commission amt',
      'brokerage',
    ],
  },
  {
    key: 'transaction_date',
    label: 'Transaction date',
    synonyms: ['date', 'effective', 'effective date', 'posting date', 'transaction date', 'entry date'],
    date: true,
  },
  {
    key: 'transaction_type',
    label: 'Transaction type',
    synonyms: ['type', 'transaction', 'trans type', 'description'],
  },
];

/** What a statement needs mapped: the commission, and a policy number or an insured's name. */
export function missingStatementColumns(columns: (string | null)[]): string[] {
  const missing: string[] = [];
  if (!columns.includes('commission')) missing.push('Commission');
  if (!columns.includes('policy_number') && !columns.includes('insured_name')) {
    missing.push('Policy number (or Insured)');
  }
  return missing;
}

/**
 * An amount as a statement writes it, negative ones included: "-12.50", "(12.50)", "1,234.50 CR"
 * read as "-12.50", "-12.50", "-1234.50". Undefined when it is no amount.
 */
export function readSignedAmount(cell: string): string | undefined {
  let textValue = cell.trim();
  let negative = false;
  const bracketed = /^\((.*)\)$/.exec(textValue);
  if (bracketed) {
    negative = true;
    textValue = bracketed[1] ?? '';
  }
  const credit = /^(.*?)\s*(CR|-)$/i.exec(textValue);
  if (credit && /\d/.test(credit[1] ?? '')) {
    negative = !negative;
    textValue = credit[1] ?? '';
  }
  const read = readAmount(textValue);
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(read);
  if (!match) return undefined;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const isNegative = (sign === '-') !== negative;
  const figure = `${whole.replace(/^0+(?=\d)/, '')}.${fraction.padEnd(2, '0')}`;
  return isNegative && /[1-9]/.test(figure) ? `-${figure}` : figure;
}

/**
 * A statement's total as the broker types it, negative ones included. "1.000" is a thousand in one
 * country and one in another, and Coverdesk knows no agency's way of writing numbers: such a total
 * is refused with both readings, never guessed.
 */
const signedMoneyInput = z
  .union([z.number(), z.string()], { error: 'Enter the statement’s total, like 1250.00.' })
  .transform((value, context) => {
    const readings = typeof value === 'string' ? readingsOfAmbiguous(value) : undefined;
    if (readings) {
      const [thousands, decimal] = readings;
      context.addIssue({
        code: 'custom',
        message: `“${String(value).trim()}” could be ${thousands} or ${decimal}: write the total as one of them.`,
      });
      return z.NEVER;
    }
    const read = readSignedAmount(String(value));
    if (read === undefined || !fitsMoney(read)) {
      context.addIssue({ code: 'custom', message: 'Enter the statement’s total, like 1250.00.' });
      return z.NEVER;
    }
    return read;
  });

/** The form fields sent with the file (multipart). */
export const statementUploadFields = z.object({
  company_id: uuid,
  statement_date: isoDate,
  total_amount: signedMoneyInput,
  /** The broker's choice of field per column, when the headers did not say: JSON `{header: field}`. */
  columns: z.record(z.string(), z.string().nullable()).optional(),
  /**
   * How the file's dates written "05/01/2026" are read, when the broker chose; without it, as the
   * file's own dates settle it, and a file whose dates all fit both orders is refused to ask.
   */
  date_order: dateOrder.optional(),
});
export type StatementUploadFields = z.input<typeof statementUploadFields>;

export const statementCounts = z.object({
  matched: z.number().int(),
  short_paid: z.number().int(),
  over_paid: z.number().int(),
  chargeback: z.number().int(),
  unmatched: z.number().int(),
  missing: z.number().int(),
});

export const commissionStatement = z.object({
  id: z.string(),
  company_id: z.string(),
  company_name: z.string(),
  statement_date: z.string(),
  file_name: z.string(),
  status: z.enum(STATEMENT_STATUSES),
  total_amount: money,
  /** The sum of the lines' commission, which must equal `total_amount` to accept. */
  lines_total: money,
  line_count: z.number().int(),
  /** While the statement is `processing` or `failed`: how far the reading came; null after it. */
  reading: z
    .object({
      line_total: z.number().int(),
      lines_done: z.number().int(),
      /** Why the reading failed, in a sentence for the broker; empty while it runs. */
      detail: z.string(),
    })
    .nullable(),
  created_at: z.string(),
  accepted_at: z.string().nullable(),
});
export type CommissionStatement = z.infer<typeof commissionStatement>;

export const statementLine = z.object({
  line_number: z.number().int(),
  raw_policy_number: z.string(),
  insured_name: z.string(),
  premium: money.nullable(),
  transaction_date: z.string().nullable(),
  transaction_type: z.string(),
  policy_id: z.string().nullable(),
  policy_number: z.string().nullable(),
  customer_id: z.string().nullable(),
  customer_name: z.string().nullable(),
  match_method: z.enum(STATEMENT_MATCH_METHODS).nullable(),
  /** How sure a fuzzy match is, from 0.00 to 1.00; 1.00 for an exact or the broker's match. */
  confidence: z.string().nullable(),
  confirmed: z.boolean(),
  /** What the insurer still owed on the policy when the line was reached; null when unmatched. */
  expected_commission: money.nullable(),
  paid_commission: money,
  /** paid − expected; null when unmatched. */
  difference: money.nullable(),
  outcome: z.enum(STATEMENT_LINE_OUTCOMES),
  note: z.string(),
  /** How an unmatched line was resolved; null while it waits (or once matched). */
  resolution: z.enum(STATEMENT_LINE_RESOLUTIONS).nullable(),
  /** Why, for a write-off (required) or a line not ours (optional); "" otherwise. */
  resolution_reason: z.string(),
});
export type StatementLine = z.infer<typeof statementLine>;

export const statementMissing = z.object({
  policy_id: z.string(),
  policy_number: z.string(),
  customer_name: z.string(),
  expected_commission: money,
  /**
   * When the commission still owed fell due: the term's start (full policy), or the earliest
   * instalment due by the statement's date whose commission is not yet paid (pro rata).
   */
  due_since: z.string(),
});
export type StatementMissing = z.infer<typeof statementMissing>;

/** A line with the policy, amount and transaction date of a line of an accepted statement. */
export const statementDuplicate = z.object({
  line_number: z.number().int(),
  policy_id: z.string(),
  policy_number: z.string(),
  paid_commission: money,
  transaction_date: z.string(),
  accepted_statement_id: z.string(),
  accepted_statement_date: z.string(),
  accepted_file_name: z.string(),
  accepted_line_number: z.number().int(),
});
export type StatementDuplicate = z.infer<typeof statementDuplicate>;

/** The missing policies a statement's read lists at most. */
export const STATEMENT_MISSING_SHOWN = 500;

export const commissionStatementDetail = commissionStatement.extend({
  counts: statementCounts,
  /** Lines matched by name and premium that the broker has not yet confirmed. */
  unconfirmed: z.number().int(),
  /** Unmatched lines not yet resolved (not ours, written off): accepting waits for them. */
  unresolved: z.number().int(),
  /** The statement's lines that repeat a line of an accepted statement: accepting asks first. */
  duplicates: z.array(statementDuplicate),
  /** The lines of the outcome asked for (all without one); `lines` holds a page of them. */
  lines_matching: z.number().int(),
  lines: z.array(statementLine),
  /**
   * The insurer's policies owed commission by the statement's date, whatever month it fell due, that
   * no line names: the oldest first, at most `STATEMENT_MISSING_SHOWN` (`counts.missing` counts all).
   */
  missing: z.array(statementMissing),
});
export type CommissionStatementDetail = z.infer<typeof commissionStatementDetail>;

/** Lines a page of a statement shows at once, and at most. */
export const STATEMENT_LINES_PAGE_SIZE = 100;
export const MAX_STATEMENT_LINES_PAGE_SIZE = 1000;

export const statementDetailQuery = z.object({
  outcome: z.enum([...STATEMENT_LINE_OUTCOMES, 'unconfirmed', 'unresolved']).optional(),
  page: pageQuery.shape.page,
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_STATEMENT_LINES_PAGE_SIZE, `At most ${MAX_STATEMENT_LINES_PAGE_SIZE} lines per page.`)
    .default(STATEMENT_LINES_PAGE_SIZE),
});

export const statementListQuery = pageQuery.omit({ search: true }).extend({
  company_id: uuid.optional(),
  status: z.enum(STATEMENT_STATUSES).optional(),
});
export const commissionStatementList = paged(commissionStatement);

/** Confirms at once the fuzzy matches at least this sure (all of them without `min_confidence`). */
export const confirmMatchesBody = z.object({
  min_confidence: z
    .string()
    .regex(/^(0(\.\d{1,2})?|1(\.0{1,2})?)$/, 'Enter a confidence from 0 to 1, like 0.80.')
    .optional(),
});
export const confirmedMatches = z.object({ confirmed: z.number().int() });

/** Confirm a fuzzy match, match a line to another policy (or none), or note it. */
export const statementLineUpdate = z
  .object({
    policy_id: uuid.nullable().optional(),
    confirmed: z.literal(true).optional(),
    note: text().max(500).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'Send policy_id, confirmed or note.' });
export type StatementLineUpdate = z.input<typeof statementLineUpdate>;

/** The statement's total corrected while in review, as it is typed on upload. */
export const statementTotalUpdate = z.object({ total_amount: signedMoneyInput });
export type StatementTotalUpdate = z.input<typeof statementTotalUpdate>;

/** An unmatched line marked as another agency's, or written off: a write-off says why. */
export const statementLineResolve = z
  .object({
    resolution: z.enum(STATEMENT_LINE_RESOLUTIONS, { error: 'Choose not_ours or written_off.' }),
    reason: boundedText(500).optional(),
  })
  .refine((body) => body.resolution !== 'written_off' || (body.reason ?? '') !== '', {
    path: ['reason'],
    message: 'Say why this line is written off.',
  });
export type StatementLineResolve = z.input<typeof statementLineResolve>;

/** Accepting a statement whose lines repeat an accepted statement's needs the broker's word. */
export const acceptStatementBody = z
  .object({ acknowledge_duplicates: z.boolean().optional() })
  // Sent without a body, as most accepts are.
  .nullish();
export type AcceptStatementBody = z.input<typeof acceptStatementBody>;

/** 409 on accept: the duplicated lines, for the broker to check before accepting anyway. */
export const duplicateLinesResponse = z.object({
  detail: z.string(),
  code: z.literal('duplicate_lines'),
  duplicates: z.array(statementDuplicate),
});
