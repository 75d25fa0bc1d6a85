import { z } from 'zod';

// Dates as a spreadsheet writes them with slashes, dots or dashes ("05/01/2026") put the day and the
// month in an order the cell cannot tell: an import reads the order from the file's values, or asks.

/** Day first ("31/12/2026", most of the world) or month first ("12/31/2026", the United States). */
export const DATE_ORDERS = ['day_first', 'month_first'] as const;
export type DateOrder = (typeof DATE_ORDERS)[number];
export const dateOrder = z.enum(DATE_ORDERS, { error: 'Choose day first or month first.' });

/** Day and month in either order, then a four-digit year: "1/3/2026", "01.03.2026", "12-31-2026". */
export const NUMERIC_DATE = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/;

/**
 * What one column's dates say of their order: a first number over 12 settles day first, a second one
 * over 12 month first; `either` when every date fits both (a day and month that are equal fit both
 * alike and count for nothing), `mixed` when the column has dates of both orders. `example` is a date
 * of the column that fits both orders, else its first numeric date.
 */
export const dateHint = z.object({
  reads: z.enum(['day_first', 'month_first', 'either', 'mixed']),
  example: z.string(),
});
export type DateHint = z.infer<typeof dateHint>;

/** What one column's numeric dates have shown so far. */
class ColumnDates {
  dayFirst = false;
  monthFirst = false;
  either: string | undefined;
  first: string | undefined;

  read(cell: string) {
    const text = cell.trim();
    const match = NUMERIC_DATE.exec(text);
    if (!match) return;
    const [first, second] = [Number(match[1]), Number(match[2])];
    this.first ??= text;
    if (first > 12) this.dayFirst = true;
    else if (second > 12) this.monthFirst = true;
    else if (first !== second) this.either ??= text;
  }

  hint(): DateHint | null {
    const example = this.either ?? this.first ?? '';
    if (this.dayFirst && this.monthFirst) return { reads: 'mixed', example };
    if (this.dayFirst) return { reads: 'day_first', example };
    if (this.monthFirst) return { reads: 'month_first', example };
    return this.either ? { reads: 'either', example } : null;
  }
}

/** Gathers each column's numeric dates, a row at a time, into the columns' hints. */
export class DateHintReader {
  private readonly columns: ColumnDates[];

  constructor(columnCount: number) {
    this.columns = Array.from({ length: columnCount }, () => new ColumnDates());
  }

  read(cells: string[]) {
    for (const [index, cell] of cells.entries()) this.columns[index]?.read(cell);
  }

  hints(): (DateHint | null)[] {
    return this.columns.map((column) => column.hint());
  }
}

/** What a file's date columns say of the order its dates are written in. */
export interface FileDateOrder {
  /** The columns (by position) whose dates depend on the order: none when no question arises. */
  columns: number[];
  /** The order their values settle, or null when every date fits both or they disagree. */
  order: DateOrder | null;
}

/** The order the hints of the date columns (`dateColumns`, by position) settle together. */
export function fileDateOrder(hints: (DateHint | null)[], dateColumns: number[]): FileDateOrder {
  const columns = dateColumns.filter((index) => hints[index]);
  const reads = new Set(columns.map((index) => hints[index]?.reads));
  const settled = (['day_first', 'month_first'] as const).filter((order) => reads.has(order));
  const order = !reads.has('mixed') && settled.length === 1 ? (settled[0] ?? null) : null;
  return { columns, order };
}

/**
 * The sentence that refuses a file whose dates could be read either way while no order was chosen;
 * `where` says where to choose it (" on the Columns step").
 */
export function unsettledDatesDetail(
  headers: string[],
  hints: (DateHint | null)[],
  found: FileDateOrder,
  where: string,
) {
  const named = found.columns.map((index) => `"${headers[index] || `Column ${index + 1}`}"`);
  const example = hints[found.columns[0] ?? -1]?.example ?? '';
  const mixed = found.columns.some((index) => hints[index]?.reads === 'mixed');
  const columnWord = named.length > 1 ? 'columns' : 'column';
  return mixed
    ? `The dates in the ${columnWord} ${named.join(' and ')} are written both day first and month first: choose the order most of them follow${where}.`
    : `The dates in the ${columnWord} ${named.join(' and ')} could be day first or month first (${example} fits both): choose the date order${where}.`;
}

/** Zones of the United States, whose agencies write dates month first. */
const US_ZONE =
  /^(US\/|America\/(New_York|Detroit|Kentucky\/|Indiana\/|Chicago|Menominee|North_Dakota\/|Denver|Boise|Phoenix|Los_Angeles|Anchorage|Juneau|Sitka|Metlakatla|Yakutat|Nome|Adak)|Pacific\/Honolulu)/;

/**
 * The order an agency writes dates in, offered when its file cannot tell: month first for an agency in
 * US dollars whose time zone is a US one (or not yet chosen), and in Philippine pesos; day first
 * elsewhere.
 */
export function agencyDateOrder(agency: { currency: string; time_zone: string }): DateOrder {
  if (agency.currency === 'PHP') return 'month_first';
  const usZone = agency.time_zone === 'UTC' || US_ZONE.test(agency.time_zone);
  return agency.currency === 'USD' && usZone ? 'month_first' : 'day_first';
}
