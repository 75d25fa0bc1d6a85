// Files that spreadsheet programs open as they are: UTF-8 with a byte order mark (without it Excel
// reads accented names as Windows-1252), comma-separated, CRLF lines.

export const BYTE_ORDER_MARK = '\uFEFF';

/** A value as the database wrote it; null is an empty cell. */
export type CsvValue = string | number | null;

/** A number as the API writes it, money included: "-12.50" is a figure, not a formula. */
const FIGURE = /^-?\d+(\.\d+)?$/;

/**
 * One cell. Text a spreadsheet would run as a formula (starting with =, +, -, @, or a tab or
 * carriage return before one) gets a leading apostrophe, so a customer named "=HYPERLINK(...)"
 * stays a name. Numbers are left alone: a file's negative figures are numbers, not text.
 */
export function csvCell(value: CsvValue): string {
  let text = value === null ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !FIGURE.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const line = (cells: CsvValue[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** The words a broker reads for a column's stored choices, as the screens show them ("semi_annual" -> "Semi-annual"). */
export type ChoiceLabels = Readonly<Record<string, string>>;

/** A stored value as its file shows it: a choice by its label, anything else as it is. */
export const labelled = (value: CsvValue, labels?: ChoiceLabels): CsvValue =>
  (typeof value === 'string' && labels?.[value]) || value;

/**
 * A file of rows in the given columns, each with its heading and, for a column of choices, their
 * labels: the first chunk, then a chunk per batch.
 */
export function csvLayout<Row>(columns: [keyof Row, string, ChoiceLabels?][]) {
  return {
    /** The byte order mark and the heading row. */
    header: () => BYTE_ORDER_MARK + line(columns.map(([, heading]) => heading)),
    /** A batch of rows as lines of the file. */
    rows: (rows: Row[]) =>
      rows
        .map((row) => line(columns.map(([field, , labels]) => labelled(row[field] as CsvValue, labels))))
        .join(''),
  };
}
