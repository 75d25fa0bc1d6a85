// Spreadsheet cells as the API's bodies take them. A value that cannot be read is passed on as it is,
// so the contract's own rule refuses it with the same message a form shows. Amounts and percentages
// need nothing here: the contract's money and percentage fields read them (amount-text.ts).
import {
  type DateHint,
  type DateOrder,
  fileDateOrder,
  NUMERIC_DATE,
  unsettledDatesDetail,
} from '@coverdesk/contract';
import { HttpError } from '../../http/errors.js';

/**
 * The order a file's dates are read in: the broker's (`chosen`), else the one its date columns'
 * `hints` settle. A file whose dates could be read either way, with none chosen, is refused (400)
 * with the sentence that names its columns, and `where` to choose: dates are never guessed.
 */
export function settledDateOrder(
  headers: string[],
  hints: (DateHint | null)[],
  dateColumns: number[],
  chosen: DateOrder | null | undefined,
  where: string,
): DateOrder {
  if (chosen) return chosen;
  const found = fileDateOrder(hints, dateColumns);
  // No date of the file depends on the order.
  if (found.columns.length === 0) return 'day_first';
  if (found.order) return found.order;
  throw new HttpError(400, { date_order: [unsettledDatesDetail(headers, hints, found, where)] });
}

/**
 * "2026-03-01", "2026/3/1", or day and month in `order`: "1/3/2026" is 1 March day first and
 * 3 January month first (the file's order, read by `DateHintReader`, or the broker's).
 */
export function dateCell(text: string, order: DateOrder): string {
  const pad = (value: string) => value.padStart(2, '0');
  const iso = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ].*)?$/.exec(text);
  if (iso) return `${iso[1]}-${pad(iso[2] ?? '')}-${pad(iso[3] ?? '')}`;
  const numeric = NUMERIC_DATE.exec(text.trim());
  if (!numeric) return text;
  const [, first = '', second = '', year] = numeric;
  const [day, month] = order === 'day_first' ? [first, second] : [second, first];
  return `${year}-${pad(month)}-${pad(day)}`;
}

const choiceWord = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_|_$/g, '');

/**
 * A choice as a file writes it: its value ("semi_annual"), the label the app's forms show for it
 * ("Semi-annual", "Single payment"), in any case, or one of `aliases` ("half_yearly"). Anything else
 * is passed on as written, for the contract to refuse with the form's message.
 */
export function choiceCell(
  text: string,
  labels: Record<string, string>,
  aliases: Record<string, string> = {},
): string {
  const word = choiceWord(text);
  if (Object.hasOwn(labels, word)) return word;
  for (const [value, label] of Object.entries(labels)) if (choiceWord(label) === word) return value;
  return aliases[word] ?? word;
}

export const FREQUENCY_ALIASES: Record<string, string> = {
  annual: 'single',
  annually: 'single',
  yearly: 'single',
  once: 'single',
  one_payment: 'single',
  full: 'single',
  semiannual: 'semi_annual',
  semi_annually: 'semi_annual',
  half_yearly: 'semi_annual',
  biannual: 'semi_annual',
  quarter: 'quarterly',
  month: 'monthly',
};

/** Tags in one cell, separated by commas, semicolons or bars. */
export const tagsCell = (text: string) =>
  text
    .split(/[,;|]/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');

/** "Maya Golan" -> first "Maya", last "Golan"; the last word is the last name. */
export function splitName(full: string): { first_name: string; last_name: string } {
  const words = full.trim().split(/\s+/);
  if (words.length < 2) return { first_name: words[0] ?? '', last_name: '' };
  return { first_name: words.slice(0, -1).join(' '), last_name: words.at(-1) ?? '' };
}
