import { PassThrough } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { detailResponse, type ExportFormat, fieldErrorsResponse, type ModuleName } from '@coverdesk/contract';
import { type AnyColumn, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppContext } from '../context.js';
import type { Transaction } from '../db/client.js';
import { jsonObject } from '../db/query-helpers.js';
import { agencyToday } from '../db/tenant.js';
import { bearerAuth } from './authenticate.js';
import { type ChoiceLabels, type CsvValue, csvLayout, labelled } from './csv.js';
import { streamFile } from './stream-file.js';

/**
 * How a column's values read. Every value arrives as the API writes it (money as an exact numeric
 * string, a date as YYYY-MM-DD, a time as YYYY-MM-DD HH:MM in the agency's time zone); CSV writes
 * it as it is, XLSX types it so a spreadsheet sums money and sorts dates.
 */
export type ColumnKind = 'text' | 'number' | 'money' | 'date' | 'time';

/** One column of an exported list: the row's field, its heading, and how its values read. */
export interface FileColumn<Row> {
  field: keyof Row & string;
  heading: string;
  kind?: ColumnKind;
  /** For a column of stored choices, the label the screens show for each. */
  labels?: ChoiceLabels;
}

/** What every export route says about its file, for the API's documentation. */
export const EXPORT_DOC =
  "`format=csv` (the default) answers `text/csv`: UTF-8 with a byte order mark, a heading row, comma-separated, CRLF line ends; text starting with = + - or @ is prefixed with an apostrophe so spreadsheets never run it. `format=xlsx` answers an Excel workbook of one sheet: a bold, frozen heading row, money as numbers with two decimals, dates as dates. Streamed as it is read, so a list of any size downloads in constant memory; named after the list and the agency's day.";

/** A list's rows as they come out of the database, a batch at a time. */
export type Batches<Row> = AsyncIterable<Row[]>;

const MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Excel's formats: money with two decimals and thousands separators, ISO dates. */
const NUMBER_FORMATS: Partial<Record<ColumnKind, string>> = {
  money: '#,##0.00',
  date: 'yyyy-mm-dd',
  time: 'yyyy-mm-dd hh:mm',
};

/** Wide enough for the values each kind holds, so the file opens readable. */
const WIDTHS: Record<ColumnKind, number> = { text: 22, number: 10, money: 14, date: 12, time: 17 };

/**
 * A value as a typed cell. Money becomes a number only for display: `Number` of a two-decimal
 * string is the nearest double, which a spreadsheet shows exactly as written; nothing here adds or
 * multiplies it. Dates and times are the agency's calendar day and clock, written as UTC so Excel,
 * which has no time zones, shows them as they are.
 */
function xlsxValue(value: CsvValue, kind: ColumnKind): string | number | Date | null {
  if (value === null || value === '') return null;
  if (kind === 'money' || kind === 'number') return Number(value);
  if (kind === 'date') return new Date(`${value}T00:00:00Z`);
  if (kind === 'time') return new Date(`${String(value).replace(' ', 'T')}:00Z`);
  return value;
}

async function* csvChunks<Row>(columns: FileColumn<Row>[], batches: Batches<Row>) {
  const layout = csvLayout<Row>(columns.map((column) => [column.field, column.heading, column.labels]));
  yield layout.header();
  for await (const batch of batches) yield layout.rows(batch);
}

/**
 * An XLSX workbook of one sheet, written by exceljs's streaming writer: each batch's rows are
 * committed, so only the zip's pending bytes are held, and those are handed on after every batch.
 * Strings are written as strings, never as formulas, so a name like "=HYPERLINK(...)" stays a name.
 */
async function* xlsxChunks<Row>(columns: FileColumn<Row>[], batches: Batches<Row>, sheetName: string) {
  const out = new PassThrough();
  const pending: Buffer[] = [];
  out.on('data', (chunk: Buffer) => pending.push(chunk));
  const taken = () => Buffer.concat(pending.splice(0));

  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = book.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((column) => {
    const kind = column.kind ?? 'text';
    const numFmt = NUMBER_FORMATS[kind];
    return {
      header: column.heading,
      key: column.field,
      width: Math.max(WIDTHS[kind], column.heading.length + 2),
      ...(numFmt ? { style: { numFmt } } : {}),
    };
  });
  const headings = sheet.getRow(1);
  headings.font = { bold: true };
  headings.commit();

  for await (const batch of batches) {
    for (const row of batch) {
      sheet
        .addRow(
          columns.map((column) =>
            xlsxValue(labelled(row[column.field] as CsvValue, column.labels), column.kind ?? 'text'),
          ),
        )
        .commit();
    }
    // The zip compresses on its own turns of the event loop; give it one before reading on, so
    // bytes leave with each batch even when the rows come in faster than the database sends them.
    await setImmediate();
    if (pending.length > 0) yield taken();
  }
  sheet.commit();
  await book.commit();
  if (pending.length > 0) yield taken();
}

/** The rows in the columns, as the chunks of a CSV or XLSX file. */
export function tableFile<Row>(
  format: ExportFormat,
  columns: FileColumn<Row>[],
  batches: Batches<Row>,
  sheetName: string,
): AsyncIterable<string | Buffer> {
  return format === 'xlsx' ? xlsxChunks(columns, batches, sheetName) : csvChunks(columns, batches);
}

/** A row of a list's file as the database writes it. */
export type FileRow = Record<string, CsvValue>;

/** A moment as the agency's calendar day, YYYY-MM-DD (the tenant transaction's time zone). */
export const agencyDay = (moment: SQLWrapper) => sql`to_char(${moment}, 'YYYY-MM-DD')`;
/** A moment as the agency's day and clock, YYYY-MM-DD HH:MM. */
export const agencyTime = (moment: SQLWrapper) => sql`to_char(${moment}, 'YYYY-MM-DD HH24:MI')`;

/**
 * A list's file columns, each with what the database writes in it: the columns for the file, and
 * the JSON `row` to select, so a column's heading and its value are written in one place.
 */
export function fileLayout(columns: (FileColumn<FileRow> & { value: AnyColumn | SQL })[]) {
  return {
    columns: columns.map(({ value: _value, ...column }) => column),
    row: sql<FileRow>`${jsonObject(Object.fromEntries(columns.map((column) => [column.field, column.value])))}`,
  };
}

/** A list's export route, its file named after the list and the agency's day: `customers-2026-11-25.xlsx`. */
export interface ExportRoute<Query extends z.ZodType<{ format: ExportFormat }>, Row> {
  path: string;
  module: ModuleName;
  tags: string[];
  summary: string;
  /** Which rows, in which order, for the documentation. */
  description: string;
  querystring: Query;
  /** The file's name before the day, and the sheet's name. */
  list: string;
  sheet: string;
  columns: FileColumn<Row>[];
  /** The rows, read in the tenant transaction. */
  rows: (tx: Transaction, tenantId: string, query: z.output<Query>) => Batches<Row>;
}

/**
 * Adds `GET <path>?format=csv|xlsx&<the list's filters>`: the file streams as it is read, in the
 * tenant transaction, behind the module's plan gate like the list.
 */
export const exportRoute =
  <Query extends z.ZodType<{ format: ExportFormat }>, Row>(
    ctx: Pick<AppContext, 'db'>,
    route: ExportRoute<Query, Row>,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      route.path,
      {
        schema: {
          tags: route.tags,
          summary: route.summary,
          description: `${route.description}\n\n${EXPORT_DOC}`,
          security: bearerAuth,
          querystring: route.querystring,
          response: { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse },
        },
      },
      async (request, reply) => {
        const query = request.query as z.output<Query>;
        return streamFile(
          ctx,
          request,
          reply,
          route.module,
          {
            type: MEDIA_TYPES[query.format],
            name: async (tx) => `${route.list}-${await agencyToday(tx)}.${query.format}`,
          },
          (tx, tenantId) =>
            tableFile(query.format, route.columns, route.rows(tx, tenantId, query), route.sheet),
        );
      },
    );
  };
