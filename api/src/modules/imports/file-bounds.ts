import {
  MAX_IMPORT_CELL_CHARS,
  MAX_IMPORT_COLUMNS,
  MAX_IMPORT_EXPANDED_BYTES,
  MAX_IMPORT_ROW_BYTES,
  MAX_IMPORT_SHARED_STRING_CHARS,
  MAX_IMPORT_SHARED_STRINGS,
} from '@coverdesk/contract';
import { HttpError } from '../../http/errors.js';

// What an upload is told when reading it would pass one of an import's bounds: what was too much,
// and what the broker can do about it. None of these echoes the file's own content.

const MB = 1024 * 1024;
const count = (value: number) => value.toLocaleString('en-US');
const where = (row: number | undefined) => (row === undefined ? 'The file' : `Row ${count(row)}`);

export const expandsTooFar = () =>
  new HttpError(413, {
    detail: `This file expands to more than ${MAX_IMPORT_EXPANDED_BYTES / MB} MB of data; split it or save it as CSV.`,
  });

export const tooManyColumns = (row: number, columns: number) =>
  new HttpError(422, {
    detail: `Row ${count(row)} has ${count(columns)} columns; an import reads at most ${MAX_IMPORT_COLUMNS}. Remove the columns you do not need, or split the file.`,
  });

/** A column as a spreadsheet names it: 0 -> "A", 26 -> "AA". */
export function columnName(index: number): string {
  let name = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) {
    name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  }
  return name;
}

/** `column` counts from 0; a text cut off before its cell was known names the row alone. */
export const cellTooLong = (row?: number, column?: number) =>
  new HttpError(422, {
    detail:
      row !== undefined && column !== undefined
        ? `Row ${count(row)}, column ${columnName(column)}, holds a cell of more than ${count(MAX_IMPORT_CELL_CHARS)} characters, more than a spreadsheet cell takes. Shorten it or delete that column from the file, then upload it again.`
        : `${where(row)} holds a cell of more than ${count(MAX_IMPORT_CELL_CHARS)} characters, more than a spreadsheet cell takes. Shorten it, then upload the file again.`,
  });

export const rowTooLong = (row?: number) =>
  new HttpError(422, {
    detail: `${where(row)} holds a row of more than ${MAX_IMPORT_ROW_BYTES / MB} MB of text. Check that its quotes are closed, or split it.`,
  });

export const tooMuchText = () =>
  new HttpError(422, {
    detail: `This spreadsheet holds more text than an import reads (at most ${count(MAX_IMPORT_SHARED_STRINGS)} different texts, of ${MAX_IMPORT_SHARED_STRING_CHARS / 1_000_000} million characters in all); split it or save it as CSV.`,
  });

export const tooManyRows = (most: number) =>
  new HttpError(422, {
    detail: `The file has more than ${count(most)} rows, the most an import takes. Split it into smaller files.`,
  });
