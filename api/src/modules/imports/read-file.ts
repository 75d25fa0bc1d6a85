import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { MAX_IMPORT_CELL_CHARS, MAX_IMPORT_COLUMNS, MAX_IMPORT_ROW_BYTES } from '@coverdesk/contract';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';
import { HttpError } from '../../http/errors.js';
import { cellTooLong, rowTooLong, tooManyColumns, tooManyRows } from './file-bounds.js';
import { readWorkbookRows, type SheetRow } from './xlsx.js';

// Reading an uploaded file into its header and rows, with every bound of an import checked as the rows
// come. This is the part of an import that costs time and memory in proportion to what a file holds,
// so it runs in a worker thread of its own (see file-worker.ts), never on the server's event loop.

/** One data row: its number as a spreadsheet shows it (the header is row 1) and its cells. */
export interface FileRow {
  row: number;
  cells: string[];
}

const badFile = (detail: string) => new HttpError(400, { detail });

/** XLSX is a zip archive; everything else is read as delimited text. */
const isZip = (bytes: Buffer) => bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;

/** A row within the bounds of an import: no more columns, and no longer cells, than it reads. */
function checked(record: SheetRow): SheetRow {
  if (record.cells.length > MAX_IMPORT_COLUMNS) throw tooManyColumns(record.row, record.cells.length);
  const long = record.cells.findIndex((cell) => cell.length > MAX_IMPORT_CELL_CHARS);
  if (long !== -1) throw cellTooLong(record.row, long);
  return record;
}

/**
 * The file's header and its non-blank rows as they are read. A file without a header is refused at
 * once, one with more than `maxRows` rows at the row past them, one without rows at its end.
 */
export async function readFile(bytes: Buffer, maxRows: number) {
  const records = (isZip(bytes) ? readSpreadsheet(bytes) : readDelimited(bytes))[Symbol.asyncIterator]();
  const first = await records.next();
  const header = first.done || first.value.row !== 1 ? [] : checked(first.value).cells;
  const headers = header.map((cell) => cell.trim());
  if (headers.every((cell) => cell === '')) {
    throw badFile('The file has no header row. Its first row must name the columns.');
  }
  async function* rows(): AsyncGenerator<FileRow> {
    let count = 0;
    for (let record = await records.next(); !record.done; record = await records.next()) {
      const { row, cells } = checked(record.value);
      if (!cells.some((cell) => cell.trim() !== '')) continue;
      count += 1;
      if (count > maxRows) throw tooManyRows(maxRows);
      yield { row, cells };
    }
    if (count === 0) throw badFile('The file has a header row but no rows to import.');
  }
  return { headers, rows: rows() };
}

/**
 * Text from a spreadsheet program: UTF-8 when the bytes are valid UTF-8, otherwise Windows-1252 (what
 * Excel on Windows saves as "CSV"). The delimiter is the one the header row uses most. UTF-8 bytes go
 * to the parser as they are, slice by slice, so a large file is never also held as one long string.
 */
async function* readDelimited(bytes: Buffer): AsyncGenerator<SheetRow> {
  if (bytes.includes(0)) throw badFile('This file is neither a CSV nor an XLSX spreadsheet.');
  const utf8 = isUtf8(bytes) ? bytes : Buffer.from(iconv.decode(bytes, 'win1252'), 'utf8');
  const lineEnd = utf8.indexOf(0x0a);
  const firstLine = utf8.subarray(0, Math.min(lineEnd === -1 ? utf8.length : lineEnd, MAX_IMPORT_ROW_BYTES));
  const delimiter = [',', ';', '\t', '|'].reduce((best, candidate) =>
    occurrences(firstLine, candidate) > occurrences(firstLine, best) ? candidate : best,
  );
  // Fed in slices, so the parser holds a slice's records at a time rather than the whole file's. It
  // reads bytes, so a character cut in two by a slice's end is joined again.
  const parser = Readable.from(slices(utf8)).pipe(
    parse({
      delimiter,
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: MAX_IMPORT_ROW_BYTES,
    }),
  );
  let row = 0;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      row += 1;
      yield { row, cells };
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    // The parser may have read rows past the last one taken when it stops; it counts them.
    throw csvProblem(error, ((error as { records?: number }).records ?? row) + 1);
  } finally {
    parser.destroy();
  }
}

const occurrences = (bytes: Uint8Array, char: string) => {
  const code = char.charCodeAt(0);
  let count = 0;
  for (const byte of bytes) if (byte === code) count += 1;
  return count;
};

/** The parser's complaint in the broker's words; its own message may quote the cell, so it stays out. */
function csvProblem(error: unknown, row: number) {
  switch ((error as { code?: string }).code) {
    case 'CSV_MAX_RECORD_SIZE':
      return rowTooLong(row);
    case 'CSV_QUOTE_NOT_CLOSED':
      return badFile(`The file could not be read as CSV: a quote opened on row ${row} is never closed.`);
    case 'CSV_INVALID_OPENING_QUOTE':
    case 'CSV_INVALID_CLOSING_QUOTE':
      return badFile(
        `The file could not be read as CSV: row ${row} has a quote inside a cell. Put quotes around the whole cell, or remove them.`,
      );
    default:
      return badFile(`The file could not be read as CSV: row ${row} is not written as CSV.`);
  }
}

const SLICE_BYTES = 64 * 1024;

function* slices(bytes: Buffer) {
  for (let start = 0; start < bytes.length; start += SLICE_BYTES) {
    yield bytes.subarray(start, start + SLICE_BYTES);
  }
}

async function* readSpreadsheet(bytes: Buffer): AsyncGenerator<SheetRow> {
  try {
    yield* readWorkbookRows(bytes);
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw badFile(
      'The spreadsheet could not be read. Open it in Excel and save it again as an .xlsx workbook, or save it as CSV.',
    );
  }
}
