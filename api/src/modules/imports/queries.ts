import { createHash } from 'node:crypto';
import {
  guessColumns,
  IMPORT_FIELDS,
  IMPORT_PREVIEW_ROWS,
  type ImportKind,
  type ImportPreview,
  type ImportRecord,
  type importSettingsBody,
  normalizedHeader,
  type UsageMetric,
} from '@coverdesk/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Transaction } from '../../db/client.js';
import { one } from '../../db/query-helpers.js';
import { BYTE_ORDER_MARK, csvCell } from '../../http/csv.js';
import { conflict, HttpError, notFound } from '../../http/errors.js';
import { assertBelowLimit, fitting, type LimitRoom, limitRoom, overLimitDetail } from '../billing/usage.js';
import { echoed, readImportFile, type surveyImportFile } from './parse.js';
import { dryRun, type ImportPlanner, type RowOutcome, type StoredSettings, startPlan } from './plan.js';
import { type ImportFailure, importMappings, imports } from './tables.js';

type Settings = z.output<typeof importSettingsBody>;

const NOT_FOUND = 'Import not found.';

type Row = typeof imports.$inferSelect;

export const toRecord = (row: Omit<Row, 'file' | 'failures' | 'tenantId'>): ImportRecord => ({
  id: row.id,
  kind: row.kind,
  file_name: row.fileName,
  status: row.status,
  headers: row.headers,
  columns: row.columns,
  sample: row.sample,
  duplicates: row.duplicates,
  all_or_nothing: row.allOrNothing,
  past_instalments: row.pastInstalments,
  expired_unpaid: row.expiredUnpaid,
  date_order: row.dateOrder,
  date_hints: row.dateHints,
  total_rows: row.totalRows,
  processed_rows: row.status === 'done' || row.status === 'failed' ? row.totalRows : 0,
  created: row.created,
  updated: row.updated,
  skipped: row.skipped,
  failed: row.failed,
  detail: row.detail,
  created_at: row.createdAt.toISOString(),
  finished_at: row.finishedAt?.toISOString() ?? null,
});

/** The import without its file, or undefined when the agency has no such import. */
export async function findImport(tx: Transaction, tenantId: string, id: string) {
  const [row] = await tx
    .select({
      id: imports.id,
      kind: imports.kind,
      fileName: imports.fileName,
      fileHash: imports.fileHash,
      status: imports.status,
      headers: imports.headers,
      columns: imports.columns,
      sample: imports.sample,
      duplicates: imports.duplicates,
      allOrNothing: imports.allOrNothing,
      pastInstalments: imports.pastInstalments,
      expiredUnpaid: imports.expiredUnpaid,
      dateOrder: imports.dateOrder,
      dateHints: imports.dateHints,
      totalRows: imports.totalRows,
      created: imports.created,
      updated: imports.updated,
      skipped: imports.skipped,
      failed: imports.failed,
      detail: imports.detail,
      startedBy: imports.startedBy,
      finishedAt: imports.finishedAt,
      createdAt: imports.createdAt,
      updatedAt: imports.updatedAt,
    })
    .from(imports)
    .where(and(eq(imports.tenantId, tenantId), eq(imports.id, id)));
  return row;
}

export async function requireImport(tx: Transaction, tenantId: string, id: string) {
  const found = await findImport(tx, tenantId, id);
  if (!found) throw notFound(NOT_FOUND);
  return found;
}

/** The file as it was uploaded: a restarted server or another instance reads it the same way. */
export async function storedFile(tx: Transaction, tenantId: string, id: string): Promise<Buffer> {
  const [row] = await tx
    .select({ file: imports.file })
    .from(imports)
    .where(and(eq(imports.tenantId, tenantId), eq(imports.id, id)));
  if (!row) throw notFound(NOT_FOUND);
  return row.file;
}

async function savedMapping(tx: Transaction, tenantId: string, kind: ImportKind) {
  const [row] = await tx
    .select({ mapping: importMappings.mapping })
    .from(importMappings)
    .where(and(eq(importMappings.tenantId, tenantId), eq(importMappings.kind, kind)));
  return row?.mapping ?? {};
}

/**
 * Keeps an uploaded file as an import of the agency. The same file uploaded again answers the import
 * it already made (which may be done: a file is imported once); one whose import failed starts over
 * as a draft, so the broker can fix the mapping and run it again.
 */
export async function storeUpload(
  tx: Transaction,
  tenantId: string,
  kind: ImportKind,
  fileName: string,
  bytes: Buffer,
  survey: Awaited<ReturnType<typeof surveyImportFile>>,
) {
  const fileHash = createHash('sha256').update(bytes).digest('hex');
  const columns = guessColumns(kind, survey.headers, await savedMapping(tx, tenantId, kind));
  const rows = await tx
    .insert(imports)
    .values({
      tenantId,
      kind,
      fileName,
      fileHash,
      file: bytes,
      headers: survey.headers,
      columns,
      sample: survey.sample,
      dateHints: survey.dateHints,
      totalRows: survey.totalRows,
    })
    .onConflictDoUpdate({
      target: [imports.tenantId, imports.kind, imports.fileHash],
      set: {
        fileName,
        status: sql`case when ${imports.status} = 'failed' then 'draft' else ${imports.status} end`,
        detail: sql`case when ${imports.status} = 'failed' then '' else ${imports.detail} end`,
        updatedAt: sql`now()`,
      },
    })
    .returning({ id: imports.id });
  return one(rows).id;
}

/** The broker's column choices and options; remembered per header for the agency's next file. */
export async function saveSettings(tx: Transaction, tenantId: string, id: string, settings: Settings) {
  const found = await requireImport(tx, tenantId, id);
  // An import that failed committed nothing, so the broker may change its columns and run it again.
  if (found.status !== 'draft' && found.status !== 'failed') {
    throw conflict({ detail: 'This import has started; its settings can no longer change.' });
  }
  if (settings.columns.length !== found.headers.length) {
    throw new HttpError(400, {
      columns: [`Give a field (or null) for each of the file's ${found.headers.length} columns.`],
    });
  }
  const fields = new Map(IMPORT_FIELDS[found.kind].map((field) => [field.key, field.label]));
  const seen = new Set<string>();
  for (const field of settings.columns) {
    if (field === null) continue;
    if (!fields.has(field))
      throw new HttpError(400, { columns: [`"${field}" is not a field of this import.`] });
    if (seen.has(field)) {
      throw new HttpError(400, { columns: [`${fields.get(field)} is chosen for more than one column.`] });
    }
    seen.add(field);
  }
  await tx
    .update(imports)
    .set({
      columns: settings.columns,
      duplicates: settings.duplicates,
      allOrNothing: settings.all_or_nothing,
      pastInstalments: settings.past_instalments,
      expiredUnpaid: settings.expired_unpaid,
      dateOrder: settings.date_order,
      status: 'draft',
      detail: '',
      failed: 0,
      failures: [],
      updatedAt: sql`now()`,
    })
    .where(and(eq(imports.tenantId, tenantId), eq(imports.id, id)));
  const mapping = {
    ...(await savedMapping(tx, tenantId, found.kind)),
    ...Object.fromEntries(
      found.headers.map((header, index) => [normalizedHeader(header), settings.columns[index] ?? null]),
    ),
  };
  await tx
    .insert(importMappings)
    .values({ tenantId, kind: found.kind, mapping })
    .onConflictDoUpdate({
      target: [importMappings.tenantId, importMappings.kind],
      set: { mapping, updatedAt: sql`now()` },
    });
}

/** The fields an import of this kind cannot do without; a file missing one is refused before it runs. */
export function missingFields(kind: ImportKind, columns: (string | null)[]): string[] {
  const chosen = new Set(columns);
  return IMPORT_FIELDS[kind]
    .filter((field) => field.required && !chosen.has(field.key))
    .map((field) => field.label);
}

export function assertMapped(kind: ImportKind, columns: (string | null)[]) {
  const missing = missingFields(kind, columns);
  if (missing.length > 0) {
    throw new HttpError(400, { columns: [`Choose a column for: ${missing.join(', ')}.`] });
  }
}

type StoredImport = Pick<Row, 'id' | 'kind'> & StoredSettings;

const METRICS: UsageMetric[] = ['customers', 'policies', 'leads'];

/** What an import of each kind can add, one of each per row at most. */
const MAY_ADD: Record<ImportKind, UsageMetric[]> = {
  customers: ['customers'],
  policies: ['customers', 'policies'],
  leads: ['leads'],
};

/** Where the agency stands against each plan limit an import of `kind` could add to. */
export async function importRooms(tx: Transaction, tenantId: string, kind: ImportKind) {
  const rooms: Partial<Record<UsageMetric, LimitRoom>> = {};
  for (const metric of MAY_ADD[kind]) {
    const room = await limitRoom(tx, tenantId, metric);
    if (room) rooms[metric] = room;
  }
  return rooms;
}

/**
 * What running the import's stored file under its current settings would do, row by row, without
 * writing anything: how many rows of each fate, and the first rows and first failed rows as the file
 * has them (each cell cut to what a screen shows); the past instalments its question is about, the new
 * insurers that would earn nothing, and the plan limits its new records would pass (`rooms`, read
 * beside the planner). `planner` has read the agency's records already, so this runs outside any
 * transaction.
 */
export async function previewImport(
  file: Buffer,
  planner: ImportPlanner,
  rooms: Partial<Record<UsageMetric, LimitRoom>>,
): Promise<ImportPreview> {
  const counts = { create: 0, update: 0, skip: 0, fail: 0 };
  const rows: ImportPreview['rows'] = [];
  const failedRows: ImportPreview['failed_rows'] = [];
  const adds = await readImportFile(file, (read) =>
    dryRun(planner, read.rows, (outcomes, batch) => {
      const cells = new Map(batch.map((row) => [row.row, row.cells]));
      const shown = (outcome: RowOutcome) => ({
        ...outcome,
        values: (cells.get(outcome.row) ?? []).map(echoed),
      });
      for (const outcome of outcomes) {
        counts[outcome.action] += 1;
        if (rows.length < IMPORT_PREVIEW_ROWS) rows.push(shown(outcome));
        if (outcome.action === 'fail' && failedRows.length < IMPORT_PREVIEW_ROWS) {
          failedRows.push(shown(outcome));
        }
      }
    }),
  );
  const total = counts.create + counts.update + counts.skip + counts.fail;
  const findings = planner.findings();
  const overLimit = METRICS.flatMap((metric) => {
    const room = rooms[metric];
    const adding = adds[metric] ?? 0;
    if (!room || room.held + adding <= room.limit) return [];
    return [{ metric, adding, fit: fitting(room, adding), detail: overLimitDetail(room, metric, adding) }];
  });
  return {
    total_rows: total,
    ...counts,
    rows,
    failed_rows: failedRows,
    past_due: findings.pastDue,
    new_insurers: findings.newInsurers,
    over_limit: overLimit,
  };
}

/**
 * Refuses with 402 an import whose new records would pass the plan's limits, holding the
 * subscription's lock to the end of the transaction. A file whose every row could add one of each and
 * still fit needs no counting; only one that might not is planned, to say exactly how many of its new
 * records fit.
 */
export async function assertImportFits(
  tx: Transaction,
  tenantId: string,
  found: StoredImport & Pick<Row, 'totalRows'>,
) {
  try {
    for (const metric of MAY_ADD[found.kind]) await assertBelowLimit(tx, tenantId, metric, found.totalRows);
    return;
  } catch (error) {
    if (!(error instanceof HttpError) || error.statusCode !== 402) throw error;
  }
  const planner = await startPlan(tx, tenantId, found.kind, found);
  const adds = await readImportFile(await storedFile(tx, tenantId, found.id), (file) =>
    dryRun(planner, file.rows),
  );
  for (const metric of METRICS) await assertBelowLimit(tx, tenantId, metric, adds[metric] ?? 0);
}

/** A row's problems in one sentence per field, for the failed-rows file. */
export function describeProblems(kind: ImportKind, errors: Record<string, string[]>): string {
  const labels = new Map(IMPORT_FIELDS[kind].map((field) => [field.key, field.label]));
  return Object.entries(errors)
    .map(([field, messages]) =>
      field === 'row' ? messages.join(' ') : `${labels.get(field) ?? field}: ${messages.join(' ')}`,
    )
    .join('; ');
}

export async function readFailures(tx: Transaction, tenantId: string, id: string): Promise<ImportFailure[]> {
  const [row] = await tx
    .select({ failures: imports.failures })
    .from(imports)
    .where(and(eq(imports.tenantId, tenantId), eq(imports.id, id)));
  return row?.failures ?? [];
}

/** The failed rows as they were in the file, with the row number and the reason in front. */
export function failuresCsv(file: Buffer, failures: ImportFailure[]): Promise<string> {
  const problems = new Map(failures.map((failure) => [failure.row, failure.problems]));
  const line = (cells: (string | number)[]) => `${cells.map(csvCell).join(',')}\r\n`;
  return readImportFile(file, async ({ headers, rows }) => {
    let text = BYTE_ORDER_MARK + line(['Row', 'Problems', ...headers]);
    for await (const { row, cells } of rows) {
      const problem = problems.get(row);
      if (problem !== undefined) text += line([row, problem, ...cells]);
    }
    return text;
  });
}
