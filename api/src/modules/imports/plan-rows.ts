// What every import planner shares: a row's fields and problems, finding people again by their keys,
// and giving way while a long file is planned.
import { setImmediate } from 'node:timers/promises';
import { CUSTOMER_TYPE_LABELS, type DateOrder } from '@coverdesk/contract';
import type { z } from 'zod';
import { uuidv7Source } from '../../db/columns.js';
import { duplicateKeys } from '../customers/queries.js';
import { choiceCell, dateCell, splitName, tagsCell } from './cells.js';
import type { ImportSettings, PlanFindings, RowOutcome } from './plan.js';

export const NO_FINDINGS = (): PlanFindings => ({
  pastDue: { policies: 0, instalments: 0, amount: '0.00', expired_policies: 0 },
  newInsurers: [],
});

/** A row's non-blank cells by the field the broker gave their column. */
export function fieldsOf(cells: string[], columns: (string | null)[]): Record<string, string> {
  const values: Record<string, string> = {};
  columns.forEach((field, index) => {
    const value = cells[index]?.trim();
    if (field && value) values[field] = value;
  });
  return values;
}

type Issues = z.core.$ZodIssue[];

/** Field problems keyed by import field; `rename` turns a body field into the column's field. */
export function errorsOf(issues: Issues, rename: (field: string) => string = (field) => field) {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.path.length > 0 ? rename(String(issue.path[0])) : 'row';
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  return errors;
}

export const failed = (row: number, errors: Record<string, string[]>): RowOutcome => ({
  row,
  action: 'fail',
  errors,
  note: '',
});

/** The fields a customer body takes from a row; `prefix` is `customer_` in a policy row. */
export function customerFields(values: Record<string, string>, prefix: string, dateOrder: DateOrder) {
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
  if (born) body.date_of_birth = dateCell(born, dateOrder);
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
export function personKeys(values: { email?: string; phone?: string; national_id?: string }, name?: string) {
  const keys = duplicateKeys(values);
  return [
    keys.national_id && `n:${keys.national_id}`,
    keys.email && `e:${keys.email}`,
    keys.phone && `p:${keys.phone}`,
    name && `m:${name.trim().toLowerCase().replace(/\s+/g, ' ')}`,
  ].filter((key): key is string => Boolean(key));
}

/** Records found by any of their keys; the first key that matches wins. */
export class KeyIndex<T> {
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
export type Match = { id: string; label: string; fromRow?: number };

export function duplicateOutcome(
  row: number,
  match: Match,
  duplicates: ImportSettings['duplicates'],
): RowOutcome {
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
export function overlay<T extends Record<string, unknown>>(stored: T, parsed: T, given: Set<string>): T {
  const merged: Record<string, unknown> = { ...stored };
  for (const key of given) if (key in parsed) merged[key] = parsed[key];
  return merged as T;
}

/** The records a customer or lead file creates and updates, row by row, taken batch by batch. */
export class PersonRows<Values extends { email?: string; phone?: string; national_id?: string }> {
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

export const finishNothing = async () => {};

/**
 * Planning gives way at least this often, so that the answer to a statement of the batch being
 * written is taken up at once and the next statement sent: the database is never left waiting for a
 * stretch of planning to end. Other requests get their turn in the same pauses.
 */
const PLANNING_STRETCH_MS = 3;
let stretchStarted = performance.now();

export async function giveWay() {
  if (performance.now() - stretchStarted < PLANNING_STRETCH_MS) return;
  await setImmediate();
  stretchStarted = performance.now();
}
