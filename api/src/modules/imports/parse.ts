import { Readable } from 'node:stream';
import { MAX_IMPORT_ROWS } from '@coverdesk/contract';
import { parse } from 'csv-parse/sync';
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

const badFile = (detail: string) => new HttpError(400, { detail });

/** XLSX is a zip archive; everything else is read as delimited text. */
const isZip = (bytes: Buffer) => bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50;

export async function parseImportFile(bytes: Buffer): Promise<ParsedFile> {
  const records = isZip(bytes) ? await readWorkbook(bytes) : readDelimited(bytes);
  const [header, ...data] = records;
  const headers = (header ?? []).map((cell) => cell.trim());
  if (headers.every((cell) => cell === '')) {
    throw badFile('The file has no header row. Its first row must name the columns.');
  }
  const rows: FileRow[] = [];
  data.forEach((cells, index) => {
    if (cells.some((cell) => cell.trim() !== '')) rows.push({ row: index + 2, cells });
  });
  if (rows.length === 0) throw badFile('The file has a header row but no rows to import.');
  if (rows.length > MAX_IMPORT_ROWS) {
    throw badFile(
      `The file has ${rows.length.toLocaleString('en-US')} rows; an import takes at most ${MAX_IMPORT_ROWS.toLocaleString('en-US')}. Split it into smaller files.`,
    );
  }
  return { headers, rows };
}

/**
 * Text from a spreadsheet program: UTF-8 when the bytes are valid UTF-8, otherwise Windows-1252 (what
 * Excel on Windows saves as "CSV"). The delimiter is the one the header row uses most.
 */
function readDelimited(bytes: Buffer): string[][] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = iconv.decode(bytes, 'win1252');
  }
  if (text.includes('\u0000')) throw badFile('This file is neither a CSV nor an XLSX spreadsheet.');
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const delimiter = [',', ';', '\t', '|'].reduce((best, candidate) =>
    firstLine.split(candidate).length > firstLine.split(best).length ? candidate : best,
  );
  try {
    return parse(text, { delimiter, bom: true, relax_column_count: true, skip_empty_lines: true });
  } catch (error) {
    throw badFile(`The file could not be read as CSV: ${error instanceof Error ? error.message : error}`);
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
async function readWorkbook(bytes: Buffer): Promise<string[][]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  const records: string[][] = [];
  try {
    for await (const worksheet of reader) {
      for await (const row of worksheet) {
        // Row numbers may skip blank rows; keep them so the rows keep their spreadsheet numbers.
        while (records.length < row.number - 1) records.push([]);
        const values = row.values as ExcelJS.CellValue[];
        const cells: string[] = [];
        for (let column = 1; column < values.length; column++) cells.push(cellText(values[column]));
        records.push(cells);
        if (records.length > MAX_IMPORT_ROWS + 1) break;
      }
      break;
    }
  } catch (error) {
    throw badFile(`The spreadsheet could not be read: ${error instanceof Error ? error.message : error}`);
  }
  return records;
}
