import { setImmediate } from 'node:timers/promises';
import {
  addDays,
  buildSchedule,
  CUSTOMER_TYPE_LABELS,
  type CustomerValues,
  companyBody,
  customerBody,
  dueBy,
  fromCents,
  type ImportKind,
  type ImportNewInsurer,
  type ImportPastDue,
  type ImportPastInstalments,
  type ImportRowAction,
  isoDate,
  LEAD_SOURCE_LABELS,
  LEAD_STATUS_LABELS,
  type LeadValues,
  leadBody,
  moneyInput,
  PAYMENT_FREQUENCY_LABELS,
  type PolicyValues,
  policyBody,
  policyTypeBody,
  toCents,
  type UsageMetric,
} from '@coverdesk/contract';
import { eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { Transaction } from '../../db/client.js';
import { uuidv7Source } from '../../db/columns.js';
import { createCompany } from '../companies/queries.js';
import { upsertRates } from '../companies/rates.js';
import { companies, companyPolicyTypes } from '../companies/tables.js';
import { createCustomers, duplicateKeys, findCustomer, updateCustomer } from '../customers/queries.js';
import { customers } from '../customers/tables.js';
import { createLeads, findLead, updateLead } from '../leads/queries.js';
import { leads } from '../leads/tables.js';
import { findPolicyForChange } from '../policies/queries.js';
import { policies } from '../policies/tables.js';
import {
  catchUpKeptTotals,
  changedSchedule,
  type NewPolicy,
  policyInput,
  policyInsertsDeferringTotals,
  runInOrder,
  updatePolicy,
} from '../policies/writes.js';
import { createPolicyType } from '../policy-types/queries.js';
import { policyTypes } from '../policy-types/tables.js';
import { choiceCell, dateCell, FREQUENCY_ALIASES, splitName, tagsCell } from './cells.js';
import type { FileRow } from './parse.js';

/** What becomes of one row: the problems by field key (`row` for the row as a whole). */
export interface RowOutcome {
  row: number;
  action: ImportRowAction;
  errors: Record<string, string[]>;
  note: string;
}

export interface ImportSettings {
  columns: (string | null)[];
  duplicates: 'skip' | 'update';
  /** Policies: the instalments due before today of rows that say nothing of what was paid. */
  pastInstalments: ImportPastInstalments;
  /** Policies: with past instalments left unpaid, those of policies already ended too. */
  expiredUnpaid: boolean;
  fileName: string;
}

/** What a policy file's check step asks and warns about besides its rows. */
export interface PlanFindings {
  pastDue: ImportPastDue;
  newInsurers: ImportNewInsurer[];
}

/** The fate of a batch of rows and, for rows that write, the work deferred until it is carried out. */
export interface BatchPlan {
  outcomes: RowOutcome[];
  /** New records per plan limit. */
  adds: Partial<Record<UsageMetric, number>>;
  /**
   * Builds the batch's statements and answers what writes them in the caller's transaction, so the
   * building can happen while the batch before is still being written. Rows that turn out impossible
   * only while writing (a policy whose schedule cannot change once paid) are answered as failed; the
   * rest are written.
   */
  prepare(): (tx: Transaction) => Promise<RowOutcome[]>;
}

/**
 * Plans a file batch by batch, remembering what earlier batches found and created, so a file is never
 * held whole: a row matches the agency's records and the file's earlier rows alike. Batches are
 * written in the order they were planned.
 */
export interface ImportPlanner {
  /** Reads nothing from the database: what it knows of the agency was read when it started. */
  plan(rows: FileRow[]): Promise<BatchPlan>;
  /** Once every batch is written: brings up to date what the writes left for the end. */
  finish(tx: Transaction): Promise<void>;
  /** What the batches planned so far found to ask and warn about. */
  findings(): PlanFindings;
}

const NO_FINDINGS = (): PlanFindings => ({
  pastDue: { policies: 0, instalments: 0, amount: '0.00', expired_policies: 0 },
  newInsurers: [],
});

/** A row's non-blank cells by the field the broker gave their column. */
function fieldsOf(cells: string[], columns: (string | null)[]): Record<string, string> {
  const values: Record<string, string> = {};
  columns.forEach((field, index) => {
    const value = cells[index]?.trim();
    if (field && value) values[field] = value;
  });
  return values;
}

type Issues = z.core.$ZodIssue[];

/** Field problems keyed by import field; `rename` turns a body field into the column's field. */
function errorsOf(issues: Issues, rename: (field: string) => string = (field) => field) {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.path.length > 0 ? rename(String(issue.path[0])) : 'row';
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  return errors;
}

const failed = (row: number, errors: Record<string, string[]>): RowOutcome => ({
  row,
  action: 'fail',
  errors,
  note: '',
});

/** The fields a customer body takes from a row; `prefix` is `customer_` in a policy row. */
function customerFields(values: Record<string, string>, prefix: string) {
  const get = (key: string) => values[`${prefix}${key}`];
  const fullName = get('full_name');
  const named = fullName && !get('first_name') && !get('last_name') ? splitName(fullName) : {};
  const body: Record<string, unknown> = { ...named };
  for (const key of [
    'first_name',
    'last_name',
    'business_name',
    'email',
    'phone',
    'national_id',
    'address_line',
    'city',
    'postal_code',
    'country',
    'notes',
  ]) {
    const value = get(key);
    if (value !== undefined) body[key] = value;
  }
  const type = get('customer_type');
  if (type)
    body.customer_type = choiceCell(type, CUSTOMER_TYPE_LABELS, {
      person: 'individual',
      company: 'business',
    });
  else if (get('business_name')) body.customer_type = 'business';
  const born = get('date_of_birth');
  if (born) body.date_of_birth = dateCell(born);
  const tags = get('tags');
  if (tags) body.tags = tagsCell(tags);
  // A name written in one column is reported on that column.
  const rename = (field: string) =>
    fullName && (field === 'first_name' || field === 'last_name')
      ? `${prefix}full_name`
      : `${prefix}${field}`;
  return { body, rename };
}

/** Keys under which a person is found again: national id, email, phone, then the name. */
function personKeys(values: { email?: string; phone?: string; national_id?: string }, name?: string) {
  const keys = duplicateKeys(values);
  return [
    keys.national_id && `n:${keys.national_id}`,
    keys.email && `e:${keys.email}`,
    keys.phone && `p:${keys.phone}`,
    name && `m:${name.trim().toLowerCase().replace(/\s+/g, ' ')}`,
  ].filter((key): key is string => Boolean(key));
}

/** Records found by any of their keys; the first key that matches wins. */
class KeyIndex<T> {
  private readonly map = new Map<string, T>();
  find(keys: string[]): T | undefined {
    for (const key of keys) {
      const found = this.map.get(key);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  add(keys: string[], value: T) {
    for (const key of keys) if (!this.map.has(key)) this.map.set(key, value);
  }
}

/** An existing record, or one that an earlier row of the file creates. */
type Match = { id: string; label: string; fromRow?: number };

function duplicateOutcome(row: number, match: Match, duplicates: ImportSettings['duplicates']): RowOutcome {
  if (match.fromRow !== undefined) {
    return { row, action: 'skip', errors: {}, note: `Same as row ${match.fromRow}.` };
  }
  return {
    row,
    action: duplicates === 'update' ? 'update' : 'skip',
    errors: {},
    note: `Matches ${match.label}.`,
  };
}

/** Overwrites the stored values with those the row gives; the others stay as stored. */
function overlay<T extends Record<string, unknown>>(stored: T, parsed: T, given: Set<string>): T {
  const merged: Record<string, unknown> = { ...stored };
  for (const key of given) if (key in parsed) merged[key] = parsed[key];
  return merged as T;
}

/** The records a customer or lead file creates and updates, row by row, taken batch by batch. */
class PersonRows<Values extends { email?: string; phone?: string; national_id?: string }> {
  private creates: { id: string; values: Values }[] = [];
  private updates: { row: number; id: string; values: Values; given: Set<string> }[] = [];
  private outcomes: RowOutcome[] = [];
  private readonly newId = uuidv7Source();

  constructor(
    private readonly index: KeyIndex<Match>,
    private readonly duplicates: ImportSettings['duplicates'],
  ) {}

  /** A valid row: an update or a skip when it matches a record or an earlier row, else a creation. */
  place(row: number, values: Values, given: Set<string>) {
    const keys = personKeys(values);
    const match = this.index.find(keys);
    if (match) {
      const outcome = duplicateOutcome(row, match, this.duplicates);
      this.outcomes.push(outcome);
      if (outcome.action === 'update') this.updates.push({ row, id: match.id, values, given });
      return;
    }
    const id = this.newId();
    this.index.add(keys, { id, label: '', fromRow: row });
    this.creates.push({ id, values });
    this.outcomes.push({ row, action: 'create', errors: {}, note: '' });
  }

  fail(row: number, errors: Record<string, string[]>) {
    this.outcomes.push(failed(row, errors));
  }

  /** The rows placed since the last batch was taken. */
  takeBatch() {
    const batch = { creates: this.creates, updates: this.updates, outcomes: this.outcomes };
    this.creates = [];
    this.updates = [];
    this.outcomes = [];
    return batch;
  }
}

const finishNothing = async () => {};

/**
 * Planning gives way at least this often, so that the answer to a statement of the batch being
 * written is taken up at once and the next statement sent: the database is never left waiting for a
 * stretch of planning to end. Other requests get their turn in the same pauses.
 */
const PLANNING_STRETCH_MS = 3;
let stretchStarted = performance.now();

async function giveWay() {
  if (performance.now() - stretchStarted < PLANNING_STRETCH_MS) return;
  await setImmediate();
  stretchStarted = performance.now();
}

// ---------------------------------------------------------------- customers

async function existingCustomers(tx: Transaction, tenantId: string) {
  const index = new KeyIndex<Match>();
  const rows = await tx
    .select({
      id: customers.id,
      name: customers.displayName,
      email: customers.email,
      phone: customers.phone,
      nationalId: customers.nationalId,
    })
    .from(customers)
    .where(eq(customers.tenantId, tenantId));
  for (const row of rows) {
    index.add(personKeys({ email: row.email, phone: row.phone, national_id: row.nationalId }), {
      id: row.id,
      label: `customer ${row.name}`,
    });
  }
  return { index, rows };
}

async function planCustomers(
  tx: Transaction,
  tenantId: string,
  settings: ImportSettings,
): Promise<ImportPlanner> {
  const { index } = await existingCustomers(tx, tenantId);
  const people = new PersonRows<CustomerValues>(index, settings.duplicates);
  return {
    async plan(rows) {
      for (const { row, cells } of rows) {
        await giveWay();
        const { body, rename } = customerFields(fieldsOf(cells, settings.columns), '');
        const parsed = customerBody.safeParse(body);
        if (parsed.success) people.place(row, parsed.data, new Set(Object.keys(body)));
        else people.fail(row, errorsOf(parsed.error.issues, rename));
      }
      const { creates, updates, outcomes } = people.takeBatch();
      return {
        outcomes,
        adds: { customers: creates.length },
        prepare: () => async (tx) => {
          await createCustomers(tx, tenantId, creates);
          for (const update of updates) {
            const stored = await findCustomer(tx, tenantId, update.id, { lock: true });
            if (stored)
              await updateCustomer(tx, tenantId, update.id, overlay(stored, update.values, update.given));
          }
          return [];
        },
      };
    },
    finish: finishNothing,
    findings: NO_FINDINGS,
  };
}

// ---------------------------------------------------------------- leads

async function planLeads(
  tx: Transaction,
  tenantId: string,
  settings: ImportSettings,
): Promise<ImportPlanner> {
  const index = new KeyIndex<Match>();
  const stored = await tx
    .select({
      id: leads.id,
      email: leads.email,
      phone: leads.phone,
      first: leads.firstName,
      last: leads.lastName,
      business: leads.businessName,
    })
    .from(leads)
    .where(eq(leads.tenantId, tenantId));
  for (const lead of stored) {
    const name = lead.business || `${lead.first} ${lead.last}`;
    index.add(personKeys({ email: lead.email, phone: lead.phone }), { id: lead.id, label: `lead ${name}` });
  }
  const typeIds = await policyTypeIdsByName(tx, tenantId);
  const people = new PersonRows<LeadValues>(index, settings.duplicates);
  return {
    async plan(rows) {
      for (const { row, cells } of rows) {
        await giveWay();
        const values = fieldsOf(cells, settings.columns);
        const { body, rename } = customerFields(values, '');
        const errors: Record<string, string[]> = {};
        if (values.source)
          body.source = choiceCell(values.source, LEAD_SOURCE_LABELS, { web: 'website', walkin: 'walk_in' });
        if (values.status) body.status = choiceCell(values.status, LEAD_STATUS_LABELS);
        if (values.lost_reason) body.lost_reason = values.lost_reason;
        if (values.estimated_premium) body.estimated_premium = values.estimated_premium;
        if (values.policy_type) {
          const typeId = typeIds.get(values.policy_type.toLowerCase());
          if (typeId) body.policy_type_id = typeId;
          else errors.policy_type = [`The agency has no policy type named "${values.policy_type}".`];
        }
        const parsed = leadBody.safeParse(body);
        if (parsed.success && Object.keys(errors).length === 0) {
          people.place(row, parsed.data, new Set(Object.keys(body)));
          continue;
        }
        const problems = parsed.success ? {} : errorsOf(parsed.error.issues, rename);
        people.fail(row, { ...problems, ...errors });
      }
      const { creates, updates, outcomes } = people.takeBatch();
      return {
        outcomes,
        adds: { leads: creates.length },
        prepare: () => async (tx) => {
          await createLeads(tx, tenantId, creates);
          for (const update of updates) {
            const lead = await findLead(tx, tenantId, update.id, { lock: true });
            if (!lead) continue;
            const merged = overlay(
              { ...lead, estimated_premium: lead.estimated_premium } as unknown as LeadValues,
              update.values,
              update.given,
            );
            await updateLead(tx, tenantId, update.id, merged);
          }
          return [];
        },
      };
    },
    finish: finishNothing,
    findings: NO_FINDINGS,
  };
}

async function policyTypeIdsByName(tx: Transaction, tenantId: string) {
  const rows = await tx
    .select({ id: policyTypes.id, name: policyTypes.name })
    .from(policyTypes)
    .where(eq(policyTypes.tenantId, tenantId));
  return new Map(rows.map((row) => [row.name.toLowerCase(), row.id]));
}

// ---------------------------------------------------------------- policies

/** Stands in for the customer, insurer and type while the row's own fields are checked. */
const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';

const POLICY_FIELDS = [
  'policy_number',
  'start_date',
  'end_date',
  'total_premium',
  'net_premium',
  'commission_percentage',
  'payment_frequency',
  'custom_installments',
  'insured_item',
  'sum_insured',
  'deductible',
  'notes',
] as const;

function policyFields(values: Record<string, string>) {
  const body: Record<string, unknown> = {
    customer_id: PLACEHOLDER_ID,
    company_id: PLACEHOLDER_ID,
    policy_type_id: PLACEHOLDER_ID,
  };
  for (const key of POLICY_FIELDS) {
    const value = values[key];
    if (value === undefined) continue;
    if (key === 'start_date' || key === 'end_date') body[key] = dateCell(value);
    else if (key === 'payment_frequency')
      body[key] = choiceCell(value, PAYMENT_FREQUENCY_LABELS, FREQUENCY_ALIASES);
    else body[key] = value;
  }
  return body;
}

/** An insurer or type by its name, existing or first named by a row of the file. */
interface Named {
  id: string;
  name: string;
  isNew: boolean;
}

/** An insurer's rate for a type, as stored or as first given by a row of the file. */
type RateLink = { rate: string; isNew: boolean };

async function namedRecords(tx: Transaction, tenantId: string, table: typeof companies | typeof policyTypes) {
  const rows = await tx
    .select({ id: table.id, name: table.name })
    .from(table)
    .where(eq(table.tenantId, tenantId));
  return new Map<string, Named>(rows.map((row) => [row.name.toLowerCase(), { ...row, isNew: false }]));
}

/** Checks a name once however many rows repeat it: a book names a handful of insurers and types. */
function nameChecker(schema: z.ZodType) {
  const seen = new Map<string, string[] | undefined>();
  return (name: string) => {
    if (!seen.has(name)) {
      const parsed = schema.safeParse(name);
      seen.set(name, parsed.success ? undefined : parsed.error.issues.map((issue) => issue.message));
    }
    return seen.get(name);
  };
}

type PaidSchedule = ReturnType<typeof buildSchedule>;

/** The import's own payments say so in their reference, cut to what a reference holds. */
const importReference = (fileName: string) => `Recorded by the import of ${fileName}`.slice(0, 100);

/**
 * What a row says was paid on its policy: a paid amount (at most the premium), or a paid-up date
 * (the instalments due by then); undefined when it says neither. Problems are keyed by field.
 */
function statedPayment(
  values: Record<string, string>,
  policy: PolicyValues,
  schedule: PaidSchedule,
): { amount?: string; errors: Record<string, string[]> } {
  const amountText = values.amount_paid;
  const upToText = values.paid_up_to;
  if (amountText !== undefined && upToText !== undefined) {
    return { errors: { row: ['Give a paid-up date or a paid amount, not both.'] } };
  }
  if (amountText !== undefined) {
    const amount = moneyInput.safeParse(amountText);
    if (!amount.success)
      return { errors: { amount_paid: amount.error.issues.map((issue) => issue.message) } };
    if (toCents(amount.data) > toCents(policy.total_premium)) {
      return { errors: { amount_paid: [`More than the premium of ${policy.total_premium}.`] } };
    }
    return { amount: amount.data, errors: {} };
  }
  if (upToText !== undefined) {
    const upTo = isoDate.safeParse(dateCell(upToText));
    if (!upTo.success) return { errors: { paid_up_to: upTo.error.issues.map((issue) => issue.message) } };
    return { amount: dueBy(schedule, upTo.data), errors: {} };
  }
  return { errors: {} };
}

async function planPolicies(
  tx: Transaction,
  tenantId: string,
  settings: ImportSettings,
): Promise<ImportPlanner> {
  const { index: people } = await existingCustomers(tx, tenantId);
  const insurers = await namedRecords(tx, tenantId, companies);
  const types = await namedRecords(tx, tenantId, policyTypes);
  const rates = new Map<string, RateLink>();
  for (const link of await tx
    .select({
      companyId: companyPolicyTypes.companyId,
      typeId: companyPolicyTypes.policyTypeId,
      rate: companyPolicyTypes.commissionPercentage,
    })
    .from(companyPolicyTypes)
    .where(eq(companyPolicyTypes.tenantId, tenantId))) {
    rates.set(`${link.companyId}|${link.typeId}`, { rate: link.rate, isNew: false });
  }
  const policyKeys = new Map<string, Match>();
  for (const policy of await tx
    .select({
      id: policies.id,
      companyId: policies.companyId,
      number: policies.policyNumber,
      start: policies.startDate,
    })
    .from(policies)
    .where(eq(policies.tenantId, tenantId))) {
    policyKeys.set(`${policy.companyId}|${policy.number}|${policy.start}`, {
      id: policy.id,
      label: `policy ${policy.number}`,
    });
  }

  const insurerNameProblem = nameChecker(companyBody.shape.name);
  const typeNameProblem = nameChecker(policyTypeBody.shape.name);
  const newId = uuidv7Source();
  // The import's day as the database has it: the day its overdue instalments are counted from.
  const [{ today = '' } = {}] = (await tx.execute<{ today: string }>(sql`select current_date::text as today`))
    .rows;
  const yesterday = addDays(today, -1);
  const reference = importReference(settings.fileName);
  const pastDue = { policies: 0, instalments: 0, cents: 0n, expired_policies: 0 };
  // The insurers the file names that the agency lacks, with their new policies that earn nothing.
  const newInsurers = new Map<string, ImportNewInsurer>();
  // Policies inserted with the kept totals deferred, brought up to date by `finish`.
  const inserted: string[] = [];

  /**
   * What a row that says nothing of its payments has paid: the instalments due before today, unless
   * the broker leaves them unpaid; a policy already ended is taken as paid unless the broker says so
   * too, so that it cannot turn into overdue debt. Counted for the check step's question either way.
   */
  const pastPayment = (endDate: string, schedule: PaidSchedule): string => {
    const past = schedule.filter((instalment) => instalment.due_date < today);
    if (past.length === 0) return '0.00';
    const expired = endDate < today;
    pastDue.policies += 1;
    pastDue.instalments += past.length;
    pastDue.cents += toCents(dueBy(past, yesterday));
    if (expired) pastDue.expired_policies += 1;
    const leftUnpaid = settings.pastInstalments === 'unpaid' && (!expired || settings.expiredUnpaid);
    return leftUnpaid ? '0.00' : dueBy(schedule, yesterday);
  };

  const plan = async (rows: FileRow[]): Promise<BatchPlan> => {
    const newCustomers: { id: string; values: CustomerValues }[] = [];
    const creates: NewPolicy[] = [];
    const updates: { row: number; id: string; values: PolicyValues; rate: string }[] = [];
    const outcomes: RowOutcome[] = [];
    for (const { row, cells } of rows) {
      await giveWay();
      const values = fieldsOf(cells, settings.columns);
      const errors: Record<string, string[]> = {};

      const insurerName = values.company?.trim() ?? '';
      const typeNameText = values.policy_type?.trim() ?? '';
      const insurerProblem = insurerNameProblem(insurerName);
      if (insurerProblem) errors.company = insurerProblem;
      const typeProblem = typeNameProblem(typeNameText);
      if (typeProblem) errors.policy_type = typeProblem;

      // The customer: found by id number, email, phone or name, or created from the row.
      const { body: customer, rename } = customerFields(values, 'customer_');
      const displayName =
        (customer.business_name as string | undefined) ||
        [customer.first_name, customer.last_name].filter(Boolean).join(' ');
      const keys = personKeys(customer as Record<string, string>, displayName);
      let customerMatch = people.find(keys);
      let newCustomer: CustomerValues | undefined;
      if (!customerMatch) {
        const parsed = customerBody.safeParse(customer);
        if (parsed.success) newCustomer = parsed.data;
        else Object.assign(errors, errorsOf(parsed.error.issues, rename));
      }

      const parsed = policyBody.safeParse(policyFields(values));
      if (!parsed.success) Object.assign(errors, errorsOf(parsed.error.issues));
      const schedule = parsed.success ? buildSchedule(parsed.data) : [];
      const stated = parsed.success ? statedPayment(values, parsed.data, schedule) : { errors: {} };
      Object.assign(errors, stated.errors);
      if (!parsed.success || Object.keys(errors).length > 0) {
        outcomes.push(failed(row, errors));
        continue;
      }

      // The row is good: whatever it names that the agency lacks is created with it.
      let insurer = insurers.get(insurerName.toLowerCase());
      if (!insurer) {
        insurer = { id: uuidv7(), name: insurerName, isNew: true };
        newInsurers.set(insurer.id, { name: insurerName, policies: 0 });
      }
      insurers.set(insurerName.toLowerCase(), insurer);
      const type = types.get(typeNameText.toLowerCase()) ?? { id: uuidv7(), name: typeNameText, isNew: true };
      types.set(typeNameText.toLowerCase(), type);
      const linkKey = `${insurer.id}|${type.id}`;
      const link = rates.get(linkKey) ?? { rate: parsed.data.commission_percentage ?? '0.00', isNew: true };
      rates.set(linkKey, link);
      if (!customerMatch && newCustomer) {
        customerMatch = { id: newId(), label: '', fromRow: row };
        people.add(keys, customerMatch);
        newCustomers.push({ id: customerMatch.id, values: newCustomer });
      }
      const policyValues: PolicyValues = {
        ...parsed.data,
        customer_id: customerMatch?.id ?? '',
        company_id: insurer.id,
        policy_type_id: type.id,
      };
      const policyKey = `${insurer.id}|${policyValues.policy_number}|${policyValues.start_date}`;
      const existing = policyKeys.get(policyKey);
      if (existing) {
        const outcome = duplicateOutcome(row, existing, settings.duplicates);
        outcomes.push(outcome);
        if (outcome.action === 'update') {
          updates.push({ row, id: existing.id, values: policyValues, rate: link.rate });
        }
        continue;
      }
      const id = newId();
      policyKeys.set(policyKey, { id, label: '', fromRow: row });
      const input = policyInput(policyValues, link.rate);
      const unrated = newInsurers.get(insurer.id);
      if (unrated && toCents(input.commission_percentage) === 0n) unrated.policies += 1;
      const paid = stated.amount ?? pastPayment(input.end_date, schedule);
      creates.push({
        id,
        ...input,
        paid: toCents(paid) > 0n ? { amount: paid, until: today, reference } : undefined,
      });
      outcomes.push({ row, action: 'create', errors: {}, note: '' });
    }

    return {
      outcomes,
      adds: { customers: newCustomers.length, policies: creates.length },
      prepare() {
        const parties = claimNewParties({ insurers, types, rates });
        const inserts = policyInsertsDeferringTotals(tenantId, creates);
        return async (tx) => {
          // New insurers and types first: the rows that name them follow.
          await createParties(tx, tenantId, parties);
          await createCustomers(tx, tenantId, newCustomers);
          await runInOrder(tx, inserts);
          for (const input of creates) inserted.push(input.id);
          return updatePolicies(tx, tenantId, updates);
        };
      },
    };
  };

  return {
    plan,
    async finish(tx) {
      await catchUpKeptTotals(tx, inserted);
    },
    findings: () => ({
      pastDue: {
        policies: pastDue.policies,
        instalments: pastDue.instalments,
        amount: fromCents(pastDue.cents),
        expired_policies: pastDue.expired_policies,
      },
      newInsurers: [...newInsurers.values()].filter((insurer) => insurer.policies > 0),
    }),
  };
}

/** Rows that update policies, unless payments on a policy keep its schedule as it is. */
async function updatePolicies(
  tx: Transaction,
  tenantId: string,
  updates: { row: number; id: string; values: PolicyValues; rate: string }[],
): Promise<RowOutcome[]> {
  const refused: RowOutcome[] = [];
  for (const update of updates) {
    const stored = await findPolicyForChange(tx, tenantId, update.id);
    if (!stored) continue;
    const input = policyInput(update.values, update.rate);
    const schedule = await changedSchedule(tx, tenantId, update.id, input);
    if (schedule && stored.hasPayments) {
      refused.push(
        failed(update.row, {
          row: [
            'Payments are recorded on this policy, so its premium and schedule cannot change. Undo those payments first.',
          ],
        }),
      );
      continue;
    }
    await updatePolicy(tx, tenantId, update.id, input, schedule);
  }
  return refused;
}

/** The records a batch creates beside its customers and policies. */
interface NewParties {
  insurers: Named[];
  types: Named[];
  rates: [key: string, link: RateLink][];
}

/** The entries not yet claimed by a batch, claimed now. */
function claimNew<T>(entries: Iterable<T>, mark: (entry: T) => { isNew: boolean }): T[] {
  const claimed = [...entries].filter((entry) => mark(entry).isNew);
  for (const entry of claimed) mark(entry).isNew = false;
  return claimed;
}

/**
 * The insurers, types and rates linking them that the file named since the last batch was prepared,
 * each claimed by the batch being prepared. Claimed at once, before anything is written, so that
 * planning the next batch while this one is written cannot add to what this one creates.
 */
function claimNewParties(parties: {
  insurers: Map<string, Named>;
  types: Map<string, Named>;
  rates: Map<string, RateLink>;
}): NewParties {
  return {
    insurers: claimNew(parties.insurers.values(), (insurer) => insurer),
    types: claimNew(parties.types.values(), (type) => type),
    rates: claimNew(parties.rates.entries(), ([, link]) => link),
  };
}

/** Creates a batch's new insurers, types and rates with the ids the plan gave them. */
async function createParties(tx: Transaction, tenantId: string, parties: NewParties) {
  for (const insurer of parties.insurers) {
    await createCompany(tx, tenantId, companyBody.parse({ name: insurer.name }), insurer.id);
  }
  for (const type of parties.types) {
    await createPolicyType(
      tx,
      tenantId,
      policyTypeBody.parse({ name: type.name, category: 'other' }),
      type.id,
    );
  }
  for (const [key, link] of parties.rates) {
    const [companyId = '', typeId = ''] = key.split('|');
    await upsertRates(tx, tenantId, companyId, [
      { policy_type_id: typeId, custom_name: '', commission_percentage: link.rate },
    ]);
  }
}

const PLANNERS = { customers: planCustomers, policies: planPolicies, leads: planLeads } as const;

/** A planner for a file of `kind`, knowing the agency's records as the caller's transaction reads them. */
export function startPlan(
  tx: Transaction,
  tenantId: string,
  kind: ImportKind,
  settings: ImportSettings,
): Promise<ImportPlanner> {
  return PLANNERS[kind](tx, tenantId, settings);
}

/** Rows planned at a time: each batch's records are written, and dropped, before the next is read. */
export const ROWS_PER_BATCH = 2_000;

/** Groups rows into batches as they are read. */
export async function* batchesOf(rows: AsyncIterable<FileRow>) {
  let batch: FileRow[] = [];
  for await (const row of rows) {
    batch.push(row);
    if (batch.length === ROWS_PER_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * What importing `rows` would do, as `planner` knows the agency's records: the new records per plan
 * limit, and each batch's outcomes handed to `seen` as they are planned. Planning reads nothing from
 * the database, so it needs no transaction of its own (nor, on PGlite, the only connection).
 */
export async function dryRun(
  planner: ImportPlanner,
  rows: AsyncIterable<FileRow>,
  seen: (outcomes: RowOutcome[], batch: FileRow[]) => void = () => {},
): Promise<Partial<Record<UsageMetric, number>>> {
  const adds: Partial<Record<UsageMetric, number>> = {};
  for await (const batch of batchesOf(rows)) {
    const plan = await planner.plan(batch);
    seen(plan.outcomes, batch);
    for (const [metric, count] of Object.entries(plan.adds) as [UsageMetric, number][]) {
      adds[metric] = (adds[metric] ?? 0) + count;
    }
  }
  return adds;
}
