import { z } from 'zod';
import { money } from './billing.js';
import { boundedText, isoDate, moneyInput, uuid, validField } from './fields.js';
import type { ModuleName } from './modules.js';
import { toCents } from './schedule.js';

/** What the global search looks through, as the advanced filter's Search Type offers it. */
export const SEARCH_TYPES = [
  'all',
  'customers',
  'policies',
  'payments',
  'companies',
  'leads',
  'claims',
] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const SEARCH_TYPE_LABELS: Record<SearchType, string> = {
  all: 'All',
  customers: 'Customers',
  policies: 'Policies',
  payments: 'Payments',
  companies: 'Companies',
  leads: 'Leads',
  claims: 'Claims',
};

/** The kind of record one result is. */
export const SEARCH_RESULT_TYPES = ['customer', 'policy', 'payment', 'company', 'lead', 'claim'] as const;
export type SearchResultType = (typeof SEARCH_RESULT_TYPES)[number];

/** The search type that asks for each kind of result only. */
export const SEARCH_TYPE_OF: Record<SearchResultType, Exclude<SearchType, 'all'>> = {
  customer: 'customers',
  policy: 'policies',
  payment: 'payments',
  company: 'companies',
  lead: 'leads',
  claim: 'claims',
};

/** The module each kind of result belongs to: a plan without it finds none of that kind. */
export const SEARCH_RESULT_MODULES: Record<SearchResultType, ModuleName> = {
  customer: 'module_customers',
  policy: 'module_policies',
  payment: 'module_payments',
  company: 'module_companies',
  lead: 'module_leads',
  claim: 'module_claims',
};

/** The kinds a plan's modules allow, of those a search type asks for. */
export const searchResultTypesFor = (modules: readonly ModuleName[], type: SearchType): SearchResultType[] =>
  SEARCH_RESULT_TYPES.filter(
    (kind) =>
      (type === 'all' || SEARCH_TYPE_OF[kind] === type) && modules.includes(SEARCH_RESULT_MODULES[kind]),
  );

/** The advanced filter's Status: a policy's, or that of the policies a customer, payment or claim belongs to. */
export const SEARCH_STATUSES = ['all', 'active', 'expired'] as const;
export type SearchStatus = (typeof SEARCH_STATUSES)[number];

/** Results in one answer: the header's dropdown and the spotlight ask for this many. */
export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 50;
/** The quick search shows the first five. */
export const QUICK_SEARCH_LIMIT = 5;
/** Longer text is no name, number or phone a broker would type. */
export const SEARCH_QUERY_MAX = 200;

/** A filter left empty in a link or a form (`?company=`) is no filter. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

export const searchQuery = z
  .object({
    q: boundedText(SEARCH_QUERY_MAX)
      .default('')
      .describe(
        'Names, emails, phones (in any formatting), policy and claim numbers, insurer names; typos are tolerated.',
      ),
    type: z
      .enum(SEARCH_TYPES, { error: `Choose one of ${SEARCH_TYPES.join(', ')}.` })
      .default('all')
      .describe('Which kind of record to look for; every kind the plan includes by default.'),
    date_from: optional(isoDate).describe(
      "From this day: a policy's start, a payment's due date, a claim's reported date, else the day the record was created.",
    ),
    date_to: optional(isoDate).describe('To this day (included), on the same dates as `date_from`.'),
    company: optional(uuid).describe(
      'Only what belongs to this insurer: its policies, their payments and claims, the customers holding them, the insurer itself.',
    ),
    status: z
      .preprocess(
        (value) => (value === '' ? undefined : value),
        z.enum(SEARCH_STATUSES, { error: 'Choose all, active or expired.' }).default('all'),
      )
      .describe(
        'Active or expired policies, and the customers, payments and claims of such policies; leads and insurers have none.',
      ),
    amount_min: optional(moneyInput).describe(
      "At least this amount: a policy's total premium, a payment's amount due, a claim's amount claimed, a lead's estimated premium.",
    ),
    amount_max: optional(moneyInput).describe('At most this amount, on the same amounts as `amount_min`.'),
    limit: z.coerce
      .number({ error: 'Enter a whole number.' })
      .int('Enter a whole number.')
      .min(1, 'Ask for at least 1 result.')
      .max(SEARCH_MAX_LIMIT, `Ask for at most ${SEARCH_MAX_LIMIT} results.`)
      .default(SEARCH_DEFAULT_LIMIT)
      .describe('How many of the best matches to answer.'),
  })
  .superRefine((query, context) => {
    const from = validField(isoDate, query.date_from);
    const to = validField(isoDate, query.date_to);
    if (from && to && to < from) {
      context.addIssue({
        code: 'custom',
        path: ['date_to'],
        message: 'Date To must be on or after Date From.',
      });
    }
    const min = validField(moneyInput, query.amount_min);
    const max = validField(moneyInput, query.amount_max);
    if (min && max && toCents(max) < toCents(min)) {
      context.addIssue({
        code: 'custom',
        path: ['amount_max'],
        message: 'Max Amount must be at least Min Amount.',
      });
    }
  });
export type SearchQuery = z.input<typeof searchQuery>;
export type SearchFilter = z.output<typeof searchQuery>;

/** Whether a search narrows anything: without text or a filter it answers nothing. */
export const searchHasFilters = (filter: Omit<SearchFilter, 'q' | 'limit'>): boolean =>
  filter.type !== 'all' ||
  filter.status !== 'all' ||
  [filter.date_from, filter.date_to, filter.company, filter.amount_min, filter.amount_max].some(
    (value) => value !== undefined,
  );

export const searchResult = z.object({
  id: z.string().describe("The record's id."),
  title: z.string().describe('What the record is called: a name, or a policy, claim or instalment number.'),
  subtitle: z.string().describe('What tells it apart: the customer, insurer, email or dates.'),
  type: z.enum(SEARCH_RESULT_TYPES),
  status: z.string().nullable().describe("The record's own status; null for an insurer."),
  amount: money
    .nullable()
    .describe('Premium, amount due, amount claimed or estimated premium; null when none.'),
  phone: z.string().nullable().describe('A customer, lead or insurer phone as stored; null when none.'),
  created_at: z.string().describe('When the record was created (ISO 8601).'),
  url: z.string().describe("The app's page that opens the record."),
  icon: z.string().describe('The icon the app shows for its type.'),
});
export type SearchResult = z.infer<typeof searchResult>;

export const searchResponse = z.object({
  results: z.array(searchResult),
  total: z.number().int().describe('How many results this answer holds (the best matches, at most `limit`).'),
  query: z.string().describe('The text searched for, trimmed.'),
  filters: z.object({
    type: z.enum(SEARCH_TYPES),
    date_from: z.string().nullable(),
    date_to: z.string().nullable(),
    company: z.string().nullable(),
    status: z.enum(SEARCH_STATUSES),
    amount_min: money.nullable(),
    amount_max: money.nullable(),
  }),
});
export type SearchResponse = z.infer<typeof searchResponse>;

/** The filters of a search that narrows nothing, as the answer echoes them. */
export const NO_SEARCH_FILTERS: SearchResponse['filters'] = {
  type: 'all',
  date_from: null,
  date_to: null,
  company: null,
  status: 'all',
  amount_min: null,
  amount_max: null,
};
