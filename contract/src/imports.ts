import { z } from 'zod';
import { type DateHint, dateHint, dateOrder, fileDateOrder } from './date-order.js';
import { text, uuid } from './fields.js';

/** What a spreadsheet can bring into the agency. */
export const IMPORT_KINDS = ['customers', 'policies', 'leads'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];
export const importKind = z.enum(IMPORT_KINDS, { error: 'Choose customers, policies or leads.' });

/** The module whose plan feature an import of each kind needs. */
export const IMPORT_KIND_MODULES = {
  customers: 'module_customers',
  policies: 'module_policies',
  leads: 'module_leads',
} as const;

export const IMPORT_STATUSES = ['draft', 'queued', 'running', 'done', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** A row already in the agency: leave it as it is, or overwrite it with the file's values. */
export const IMPORT_DUPLICATE_CHOICES = ['skip', 'update'] as const;

/** Files past these are refused before anything is read. */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 200_000;
/**
 * What reading a file may come to, so that a small file cannot expand into more than a server can
 * hold: a spreadsheet's parts once unzipped, the columns of a row, the characters of one cell (Excel's
 * own limit), the bytes of one CSV row, and a workbook's shared strings (how many, and their characters
 * in all).
 */
export const MAX_IMPORT_EXPANDED_BYTES = 200 * 1024 * 1024;
export const MAX_IMPORT_COLUMNS = 200;
export const MAX_IMPORT_CELL_CHARS = 32_767;
export const MAX_IMPORT_ROW_BYTES = 1024 * 1024;
export const MAX_IMPORT_SHARED_STRINGS = 1_000_000;
export const MAX_IMPORT_SHARED_STRING_CHARS = 64_000_000;
/** The shared demo agency takes small files only: every visitor shares its database and its server. */
export const MAX_DEMO_IMPORT_BYTES = 2 * 1024 * 1024;
export const MAX_DEMO_IMPORT_ROWS = 1_000;
/** A cell echoed back (examples, preview) is cut to this many characters. */
export const IMPORT_ECHO_CHARS = 200;
/** Rows the preview shows with their problems. */
export const IMPORT_PREVIEW_ROWS = 20;
/** Rows the column mapping shows as examples. */
export const IMPORT_SAMPLE_ROWS = 3;

export interface ImportField {
  /** The body field it fills, or a customer/insurer/type field of a policy row. */
  key: string;
  label: string;
  /** Header names that mean this field, compared without case, spaces or punctuation. */
  synonyms: readonly string[];
  required?: boolean;
  /** A date: its column's numeric dates are read in the file's date order. */
  date?: boolean;
}

const customerFields: ImportField[] = [
  { key: 'first_name', label: 'First name', synonyms: ['first', 'firstname', 'given name', 'forename'] },
  { key: 'last_name', label: 'Last name', synonyms: ['last', 'lastname', 'surname', 'family name'] },
  {
    key: 'full_name',
    label: 'Full name',
    synonyms: [
      'name',
      'customer',
      'customer name',
      'client',
      'client name',
      'insured',
      'insured name',
      'policyholder',
      'policy holder',
    ],
  },
  {
    key: 'customer_type',
    label: 'Type (individual / business)',
    synonyms: ['type', 'customer type', 'client type'],
  },
  {
    key: 'business_name',
    label: 'Business name',
    synonyms: ['business', 'company name', 'organisation', 'organization'],
  },
  {
    key: 'email',
    label: 'Email',
    synonyms: ['e-mail', 'email address', 'e-mail address', 'mail', 'contact email', 'email id'],
  },
  {
    key: 'phone',
    label: 'Phone',
    synonyms: [
      'telephone',
      'tel',
      'tel no',
      'mobile',
      'mobile phone',
      'cell',
      'cell phone',
      'cellphone',
      'phone number',
      'telephone number',
      'mobile number',
      'contact phone',
      'contact number',
    ],
  },
  {
    key: 'date_of_birth',
    label: 'Date of birth',
    date: true,
    synonyms: ['dob', 'birth date', 'birthdate', 'birthday', 'born'],
  },
  {
    key: 'national_id',
    label: 'ID number',
    synonyms: ['id', 'id number', 'national id', 'ssn', 'identity number', 'tax id', 'passport'],
  },
  {
    key: 'address_line',
    label: 'Address',
    synonyms: ['address', 'street', 'address line', 'street address'],
  },
  { key: 'city', label: 'City', synonyms: ['town'] },
  { key: 'postal_code', label: 'Postal code', synonyms: ['zip', 'zip code', 'postcode', 'postal'] },
  { key: 'country', label: 'Country', synonyms: [] },
  { key: 'notes', label: 'Notes', synonyms: ['note', 'comments', 'comment', 'remarks'] },
  { key: 'tags', label: 'Tags', synonyms: ['tag', 'labels'] },
];

/** A policy row names its customer by these, prefixed so they cannot clash with the policy's own. */
const policyCustomerFields: ImportField[] = customerFields
  .filter((field) =>
    [
      'first_name',
      'last_name',
      'full_name',
      'email',
      'phone',
      'date_of_birth',
      'national_id',
      'business_name',
    ].includes(field.key),
  )
  .map((field) => ({
    ...field,
    key: `customer_${field.key}`,
    label: `Customer ${field.label.toLowerCase()}`,
    // The bare header ("Email", "Phone") means the customer's too: a policy has none of its own.
    synonyms: [
      field.key,
      field.label,
      ...field.synonyms,
      ...field.synonyms.map((synonym) => `customer ${synonym}`),
      `customer ${field.key}`,
    ],
  }));

const policyFields: ImportField[] = [
  {
    key: 'policy_number',
    label: 'Policy number',
    required: true,
    synonyms: ['policy no', 'policy #', 'policy', 'policy num', 'number', 'no', 'contract number'],
  },
  {
    key: 'company',
    label: 'Insurer',
    required: true,
    synonyms: ['insurer', 'carrier', 'company', 'insurance company', 'underwriter', 'provider'],
  },
  {
    key: 'policy_type',
    label: 'Policy type',
    required: true,
    synonyms: ['type', 'product', 'line', 'line of business', 'coverage', 'cover', 'class'],
  },
  ...policyCustomerFields,
  {
    key: 'start_date',
    label: 'Start date',
    required: true,
    date: true,
    synonyms: ['start', 'effective', 'effective date', 'inception', 'inception date', 'from', 'valid from'],
  },
  {
    key: 'end_date',
    label: 'End date',
    required: true,
    date: true,
    synonyms: [
      'end',
      'expiry',
      'expiry date',
      'expiration',
      'expiration date',
      'to',
      'valid to',
      'renewal date',
    ],
  },
  {
    key: 'total_premium',
    label: 'Premium',
    required: true,
    synonyms: [
      'premium',
      'total premium',
      'gross premium',
      'written premium',
      'gross written premium',
      'gross',
      'amount',
      'annual premium',
    ],
  },
  { key: 'net_premium', label: 'Net premium', synonyms: ['net', 'net amount'] },
  {
    key: 'commission_percentage',
    label: 'Commission %',
    synonyms: ['commission', 'commission rate', 'rate', 'comm %', 'comm rate', 'comm', 'commission percent'],
  },
  {
    key: 'payment_frequency',
    label: 'Payment frequency',
    synonyms: [
      'frequency',
      'payment',
      'payment type',
      'payment terms',
      'payment schedule',
      'payment plan',
      'pay plan',
      'billing frequency',
      'billing',
      'payments',
      'instalments plan',
      'installments plan',
    ],
  },
  {
    key: 'custom_installments',
    label: 'Instalments',
    synonyms: ['installments', 'number of instalments', 'number of installments'],
  },
  {
    key: 'paid_up_to',
    label: 'Paid up to',
    date: true,
    synonyms: ['paid until', 'paid to', 'paid through', 'paid thru', 'paid up until', 'paid up to date'],
  },
  {
    key: 'amount_paid',
    label: 'Paid amount',
    synonyms: ['paid', 'amount paid', 'total paid', 'premium paid', 'received', 'amount received'],
  },
  {
    key: 'insured_item',
    label: 'Insured item',
    synonyms: ['item', 'vehicle', 'property', 'insured object', 'risk'],
  },
  {
    key: 'sum_insured',
    label: 'Sum insured',
    synonyms: ['sum assured', 'insured value', 'coverage amount', 'limit'],
  },
  { key: 'deductible', label: 'Deductible', synonyms: ['excess'] },
  { key: 'notes', label: 'Notes', synonyms: ['note', 'comments', 'comment', 'remarks'] },
];

const leadFields: ImportField[] = [
  ...customerFields.filter((field) =>
    ['first_name', 'last_name', 'full_name', 'business_name', 'email', 'phone', 'notes'].includes(field.key),
  ),
  { key: 'source', label: 'Source', synonyms: ['lead source', 'channel', 'origin'] },
  { key: 'status', label: 'Status', synonyms: ['stage', 'lead status'] },
  { key: 'lost_reason', label: 'Lost reason', synonyms: ['reason lost', 'why lost'] },
  {
    key: 'policy_type',
    label: 'Policy type of interest',
    synonyms: ['interest', 'policy type', 'product', 'type'],
  },
  {
    key: 'estimated_premium',
    label: 'Estimated premium',
    synonyms: ['premium', 'estimate', 'expected premium', 'value'],
  },
];

export const IMPORT_FIELDS: Record<ImportKind, ImportField[]> = {
  customers: customerFields,
  policies: policyFields,
  leads: leadFields,
};

/**
 * A header as compared with the synonyms: "Policy No." and "policy_no" read alike; "Comm %" is a
 * rate, never the "Comm" amount beside it.
 */
export const normalizedHeader = (header: string) =>
  header
    .toLowerCase()
    .replace(/#/g, ' number ')
    .replace(/%/g, ' percent ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .replace(/\bno\b/g, 'number')
    .trim();

/**
 * The field each column fills, guessed from its header: the agency's saved choice for that header
 * first, then the field's own key and label, then its synonyms. A field goes to one column only.
 */
export function guessColumns(
  kind: ImportKind,
  headers: string[],
  saved: Record<string, string | null> = {},
): (string | null)[] {
  return guessColumnsOf(IMPORT_FIELDS[kind], headers, saved);
}

/** The same guess for any set of fields (an insurer's commission statement has its own). */
export function guessColumnsOf(
  fields: ImportField[],
  headers: string[],
  saved: Record<string, string | null> = {},
): (string | null)[] {
  const known = new Set(fields.map((field) => field.key));
  const taken = new Set<string>();
  const names = new Map<string, string>();
  for (const field of fields) {
    for (const name of [field.key, field.label, ...field.synonyms]) {
      const normal = normalizedHeader(name);
      if (!names.has(normal)) names.set(normal, field.key);
    }
  }
  const columns = headers.map((header) => {
    const normal = normalizedHeader(header);
    const choice = normal in saved ? saved[normal] : names.get(normal);
    if (!choice || !known.has(choice) || taken.has(choice)) return null;
    taken.add(choice);
    return choice;
  });
  return columns;
}

/** The positions of the columns chosen for a date field. */
export function dateColumns(fields: ImportField[], columns: (string | null)[]): number[] {
  const dates = new Set(fields.filter((field) => field.date).map((field) => field.key));
  return columns.flatMap((field, index) => (field && dates.has(field) ? [index] : []));
}

/** What the date columns an import's columns choose say of their order. */
export const importDateOrder = (kind: ImportKind, columns: (string | null)[], hints: (DateHint | null)[]) =>
  fileDateOrder(hints, dateColumns(IMPORT_FIELDS[kind], columns));

export const importDuplicates = z.enum(IMPORT_DUPLICATE_CHOICES, { error: 'Choose skip or update.' });

export const importUploadQuery = z.object({
  kind: importKind,
  file_name: text().trim().min(1).max(255).default('import.csv'),
});

/**
 * What becomes of a new policy's instalments due before the import's day when its row says nothing
 * of what was paid (no paid-up date, no paid amount): a book brought in is mostly paid up to date.
 */
export const IMPORT_PAST_INSTALMENT_CHOICES = ['paid', 'unpaid'] as const;
export type ImportPastInstalments = (typeof IMPORT_PAST_INSTALMENT_CHOICES)[number];
export const importPastInstalments = z.enum(IMPORT_PAST_INSTALMENT_CHOICES, {
  error: 'Choose paid or unpaid.',
});

/** What the broker decides before running: the field of each column, duplicates, all or nothing. */
export const importSettingsBody = z.object({
  columns: z.array(text().nullable()).max(500),
  duplicates: importDuplicates.default('skip'),
  all_or_nothing: z.boolean().default(true),
  past_instalments: importPastInstalments
    .default('paid')
    .describe(
      "Policies: the instalments due before the import's day, of rows that give no paid-up date or paid amount, are recorded as paid (by the import, each dated its due date) or left unpaid.",
    ),
  expired_unpaid: z
    .boolean()
    .default(false)
    .describe(
      'Policies: with past_instalments "unpaid", leave the instalments of policies that have already ended unpaid too (they would be overdue at once). Without it an ended policy is taken as paid.',
    ),
  date_order: dateOrder
    .nullable()
    .default(null)
    .describe(
      'How dates written "05/01/2026" are read, as the broker chose. Null: as the file\'s own values settle it (a first number over 12 is a day, a second one a month); a file whose dates all fit both orders is refused until one is chosen.',
    ),
});
export type ImportSettingsBody = z.input<typeof importSettingsBody>;

export const importIdParams = z.object({ id: uuid });

export const importRecord = z.object({
  id: z.string(),
  kind: importKind,
  file_name: z.string(),
  status: z.enum(IMPORT_STATUSES),
  headers: z.array(z.string()),
  columns: z.array(z.string().nullable()),
  sample: z.array(z.array(z.string())).describe('The first rows of the file, to recognise the columns by.'),
  duplicates: importDuplicates,
  all_or_nothing: z.boolean(),
  past_instalments: importPastInstalments,
  expired_unpaid: z.boolean(),
  date_order: dateOrder.nullable().describe('The date order the broker chose; null while none was.'),
  date_hints: z
    .array(dateHint.nullable())
    .describe(
      'For each column, what its dates written with slashes or dots say of their order; null for a column with none that depend on it.',
    ),
  total_rows: z.number().int(),
  processed_rows: z.number().int().describe('Rows worked through so far while the import runs.'),
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  detail: z.string().describe('Why the import committed nothing, when it failed; otherwise "".'),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type ImportRecord = z.infer<typeof importRecord>;

export const IMPORT_ROW_ACTIONS = ['create', 'update', 'skip', 'fail'] as const;
export type ImportRowAction = (typeof IMPORT_ROW_ACTIONS)[number];

export const importPreviewRow = z.object({
  row: z.number().int().describe('The line in the file, the header being line 1.'),
  values: z.array(z.string()),
  action: z.enum(IMPORT_ROW_ACTIONS),
  /** Problems by field key; `row` for one that belongs to no single cell. */
  errors: z.record(z.string(), z.array(z.string())),
  note: z.string().describe('Why a row is skipped or updated: the record it matches.'),
});
export type ImportPreviewRow = z.infer<typeof importPreviewRow>;

/** The new policies' instalments due before the import's day whose rows say nothing of what was paid. */
export const importPastDue = z.object({
  policies: z.number().int(),
  instalments: z.number().int(),
  amount: z.string().describe('What those instalments come to.'),
  expired_policies: z.number().int().describe('Of those policies, the ones that have already ended.'),
});
export type ImportPastDue = z.infer<typeof importPastDue>;

/** An insurer the import would create whose policies, having no commission rate, would earn nothing. */
export const importNewInsurer = z.object({
  name: z.string(),
  policies: z.number().int().describe('Its new policies without a commission rate, which would earn 0.00.'),
});
export type ImportNewInsurer = z.infer<typeof importNewInsurer>;

/** A plan limit the import's new records would pass. */
export const importLimit = z.object({
  metric: z.string(),
  adding: z.number().int(),
  fit: z.number().int().describe('How many of the new records fit under the limit.'),
  detail: z.string(),
});

export const importPreview = z.object({
  total_rows: z.number().int(),
  create: z.number().int(),
  update: z.number().int(),
  skip: z.number().int(),
  fail: z.number().int(),
  rows: z.array(importPreviewRow),
  /** First rows with problems, so a broker sees them even when they are far down the file. */
  failed_rows: z.array(importPreviewRow),
  past_due: importPastDue,
  new_insurers: z.array(importNewInsurer),
  over_limit: z.array(importLimit).describe('Empty when the new records fit the plan.'),
});
export type ImportPreview = z.infer<typeof importPreview>;
