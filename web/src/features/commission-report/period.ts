import { formatDate } from '../../lib/format.js';

/** The report's periods: four the broker picks most, and any range of dates. */
export const PERIODS = ['this_month', 'last_month', 'this_quarter', 'this_year', 'custom'] as const;
export type Period = (typeof PERIODS)[number];

export const PERIOD_LABELS: Record<Period, string> = {
  this_month: 'This month',
  last_month: 'Last month',
  this_quarter: 'This quarter',
  this_year: 'This year',
  custom: 'Custom range',
};

/** The report opens on the month an insurer's statement usually covers. */
export const DEFAULT_PERIOD: Period = 'this_month';

export const isPeriod = (value: string | undefined): value is Period =>
  (PERIODS as readonly string[]).includes(value ?? '');

/** First and last day of a period, as the API writes dates; blank means open-ended. */
export interface DateRange {
  start: string;
  end: string;
}

const day = (year: number, month: number, date: number) =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`;

/** The last day of a month (1-12): day 0 of the next month. */
const lastDate = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The months `first` to `last` (1-12) of a year, whole. */
const months = (year: number, first: number, last: number): DateRange => ({
  start: day(year, first, 1),
  end: day(year, last, lastDate(year, last)),
});

/**
 * The dates of a preset period around `today` ("2026-11-23", the agency's own day, so a broker in
 * Sydney and one in Lisbon each get their own month), or the custom range as the broker typed it.
 */
export function periodRange(period: Period, today: string, custom: Partial<DateRange> = {}): DateRange {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  switch (period) {
    case 'this_month':
      return months(year, month, month);
    case 'last_month':
      return month === 1 ? months(year - 1, 12, 12) : months(year, month - 1, month - 1);
    case 'this_quarter': {
      const first = month - ((month - 1) % 3);
      return months(year, first, first + 2);
    }
    case 'this_year':
      return months(year, 1, 12);
    case 'custom':
      return { start: custom.start ?? '', end: custom.end ?? '' };
  }
}

/** "from 1 Nov 2026 to 30 Nov 2026", "from 1 Nov 2026", "until 30 Nov 2026" or "at any time". */
export function describeRange({ start, end }: DateRange): string {
  if (start && end) return `from ${formatDate(start)} to ${formatDate(end)}`;
  if (start) return `from ${formatDate(start)}`;
  if (end) return `until ${formatDate(end)}`;
  return 'at any time';
}
