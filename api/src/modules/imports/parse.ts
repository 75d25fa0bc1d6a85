import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { IMPORT_SAMPLE_ROWS, MAX_IMPORT_ROWS } from '@coverdesk/contract';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { HttpError } from '../../http/errors.js';

/** One data row: its number as a spreadsheet shows it (the header is row 1) and its cells. */
export interface FileRow {
  row: number;
  cells: string[];
}

export interface ParsedFile {
  headers: string[];
  rows: FileRow[];
}

/** A file's header and its rows, read as they are needed: a large file is never held as rows. */
export interface ImportRows {
  headers: string[];
  rows: AsyncIterable<FileRow>;
}

const badFile = (detail: string) => new HttpError(400, { detail });

/** XLSX is a zip archive; everything else is read as delimited text. */
const isZip = (bytes: Buffer) => bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;

/**
 * The file's header and its non-blank rows as they are read. A file without a header is refused at
 * once; one without rows, or with more than an import takes, once its rows have been read through.
 */
export async function readImportRows(bytes: Buffer): Promise<ImportRows> {
  const records = (isZip(bytes) ? readWorkbook(bytes) : readDelimited(bytes))[Symbol.asyncIterator]();
  const first = await records.next();
  const headers = (first.done ? [] : first.value).map((cell) => cell.trim());
  if (headers.every((cell) => cell === '')) {
    throw badFile('The file has no header row. Its first row must name the columns.');
  }
  async function* rows(): AsyncGenerator<FileRow> {
    let count = 0;
    let row = 1;
    for (let record = await records.next(); !record.done; record = await records.next()) {
      row += 1;
      if (!record.value.some((cell) => cell.trim() !== '')) continue;
      count += 1;
      if (count <= MAX_IMPORT_ROWS) yield { row, cells: record.value };
    }
    if (count === 0) throw badFile('The file has a header row but no rows to import.');
    if (count > MAX_IMPORT_ROWS) {
      throw badFile(
        `The file has ${count.toLocaleString('en-US')} rows; an import takes at most ${MAX_IMPORT_ROWS.toLocaleString('en-US')}. Split it into smaller files.`,
      );
    }
  }
  return { headers, rows: rows() };
}

/** The whole file as rows, for the few uses that need them all at once (a preview, the failed rows). */
export async function parseImportFile(bytes: Buffer): Promise<ParsedFile> {
  const { headers, rows } = await readImportRows(bytes);
  const all: FileRow[] = [];
  for await (const row of rows) all.push(row);
  return { headers, rows: all };
}

/** What an upload keeps of its file: the header, the first rows to map the columns by, and the count. */
export async function surveyImportFile(bytes: Buffer) {
  const { headers, rows } = await readImportRows(bytes);
  const sample: string[][] = [];
  let totalRows = 0;
  for await (const { cells } of rows) {
    if (sample.length < IMPORT_SAMPLE_ROWS) sample.push(cells);
    totalRows += 1;
  }
  return { headers, sample, totalRows };
}

/**
 * Text from a spreadsheet program: UTF-8 when the bytes are valid UTF-8, otherwise Windows-1252 (what
 * Excel on Windows saves as "CSV"). The delimiter is the one the header row uses most. UTF-8 bytes go
 * to the parser as they are, slice by slice, so a large file is never also held as one long string.
 */
async function* readDelimited(bytes: Buffer): AsyncGenerator<string[]> {
  if (bytes.includes(0)) throw badFile('This file is neither a CSV nor an XLSX spreadsheet.');
  const utf8 = isUtf8(bytes) ? bytes : Buffer.from(iconv.decode(bytes, 'win1252'), 'utf8');
  const lineEnd = utf8.indexOf(0x0a);
  const firstLine = utf8.subarray(0, lineEnd === -1 ? utf8.length : lineEnd).toString('utf8');
  const delimiter = [',', ';', '\t', '|'].reduce((best, candidate) =>
    firstLine.split(candidate).length > firstLine.split(best).length ? candidate : best,
  );
  // Fed in slices, so the parser holds a slice's records at a time rather than the whole file's. It
  // reads bytes, so a character cut in two by a slice's end is joined again.
  const parser = Readable.from(slices(utf8)).pipe(
    parse({ delimiter, bom: true, relax_column_count: true, skip_empty_lines: true }),
  );
  try {
    yield* parser;
  } catch (error) {
    throw badFile(`The file could not be read as CSV: ${error instanceof Error ? error.message : error}`);
  }
}

const SLICE_BYTES = 64 * 1024;

function* slices(bytes: Buffer) {
  for (let start = 0; start < bytes.length; start += SLICE_BYTES) {
    yield bytes.subarray(start, start + SLICE_BYTES);
  }
}

/** A cell as text: dates as ISO dates, formulas as their results, rich text as its plain text. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value !== 'object') return String(value);
  if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('text' in value) return String(value.text);
  if ('error' in value) return '';
  return '';
}

/** The first worksheet, read as a stream so a large workbook is never held whole. */
async function* readWorkbook(bytes: Buffer): AsyncGenerator<string[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  let records = 0;
  try {
    for await (const worksheet of reader) {
      for await (const row of worksheet) {
        // Row numbers may skip blank rows; keep them so the rows keep their spreadsheet numbers.
        for (; records < row.number - 1; records++) yield [];
        const values = row.values as ExcelJS.CellValue[];
        const cells: string[] = [];
        for (let column = 1; column < values.length; column++) cells.push(cellText(values[column]));
        records += 1;
        yield cells;
        if (records > MAX_IMPORT_ROWS + 1) break;
      }
      break;
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw badFile(`The spreadsheet could not be read: ${error instanceof Error ? error.message : error}`);
  }
}
