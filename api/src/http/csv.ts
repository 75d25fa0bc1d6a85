// Files that spreadsheet programs open as they are: UTF-8 with a byte order mark (without it Excel
// reads accented names as Windows-1252), comma-separated, CRLF lines.

export const BYTE_ORDER_MARK = '\uFEFF';

/**
 * One cell. Text a spreadsheet would run as a formula (starting with =, +, -, @, or a tab or
 * carriage return before one) gets a leading apostrophe, so a customer named "=HYPERLINK(...)"
 * stays a name. Numbers are left alone: a file's negative figures are numbers, not text.
 */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const line = (cells: (string | number)[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** A file of rows in the given columns, each with its heading: the first chunk, then a chunk per batch. */
export function csvLayout<Row>(columns: [keyof Row, string][]) {
  return {
    /** The byte order mark and the heading row. */
    header: () => BYTE_ORDER_MARK + line(columns.map(([, heading]) => heading)),
    /** A batch of rows as lines of the file. */
    rows: (rows: Row[]) =>
      rows.map((row) => line(columns.map(([field]) => row[field] as string | number))).join(''),
  };
}
