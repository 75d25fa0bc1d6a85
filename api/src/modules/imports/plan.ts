import {
  type DateHint,
  type DateOrder,
  dateColumns,
  IMPORT_FIELDS,
  type ImportKind,
  type ImportNewInsurer,
  type ImportPastDue,
  type ImportPastInstalments,
  type ImportRowAction,
  type UsageMetric,
} from '@coverdesk/contract';
import type { Transaction } from '../../db/client.js';
import { settledDateOrder } from './cells.js';
import type { FileRow } from './parse.js';
import { planCustomers } from './plan-customers.js';
import { planLeads } from './plan-leads.js';
import { planPolicies } from './plan-policies.js';

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
  /** How dates written "05/01/2026" are read. */
  dateOrder: DateOrder;
}

/** The settings as an import keeps them: the date order as the broker chose it, and what the file said. */
export type StoredSettings = Omit<ImportSettings, 'dateOrder'> & {
  headers: string[];
  dateOrder: DateOrder | null;
  dateHints: (DateHint | null)[];
};

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

const PLANNERS = { customers: planCustomers, policies: planPolicies, leads: planLeads } as const;

/** The order the import reads its dates in; refused (400) while its dates could be read either way. */
export const readingDateOrder = (kind: ImportKind, settings: StoredSettings): DateOrder =>
  settledDateOrder(
    settings.headers,
    settings.dateHints,
    dateColumns(IMPORT_FIELDS[kind], settings.columns),
    settings.dateOrder,
    ' on the Columns step',
  );

/** A planner for a file of `kind`, knowing the agency's records as the caller's transaction reads them. */
export function startPlan(
  tx: Transaction,
  tenantId: string,
  kind: ImportKind,
  settings: StoredSettings,
): Promise<ImportPlanner> {
  return PLANNERS[kind](tx, tenantId, { ...settings, dateOrder: readingDateOrder(kind, settings) });
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
