import { fromCents, toCents } from '@coverdesk/contract';
import type { MantineColor } from '@mantine/core';
import { formatMoney } from '../../lib/format.js';
import { useSession } from '../../lib/session-context.js';

/**
 * Colours of a breakdown's slices and bars, in order. Each is paired with its name in the figures
 * beside the chart, so colour is never the only way to tell them apart.
 */
export const SERIES_COLORS: MantineColor[] = [
  'indigo.6',
  'teal.6',
  'orange.6',
  'grape.6',
  'cyan.7',
  'yellow.7',
  'pink.6',
  'lime.8',
];

/** A chart shows this many slices; the rest are one "Others" slice (the table lists them all). */
export const MOST_SLICES = SERIES_COLORS.length;

/** Everything after the first few rows as one row of their summed money, for a chart that stays readable. */
export function withOthers<Row>(
  rows: readonly Row[],
  amount: (row: Row) => string,
  name: (row: Row) => string,
): { name: string; amount: string }[] {
  const shown = rows.length > MOST_SLICES ? rows.slice(0, MOST_SLICES - 1) : rows;
  const slices = shown.map((row) => ({ name: name(row), amount: amount(row) }));
  if (shown.length === rows.length) return slices;
  const rest = rows.slice(shown.length).reduce((sum, row) => sum + toCents(amount(row)), 0n);
  return [...slices, { name: 'Others', amount: fromCents(rest) }];
}

/** Money summed to the cent ("12.50" + "0.75"), for totals over months the API sends one by one. */
export const sumMoney = (amounts: readonly string[]): string =>
  fromCents(amounts.reduce((sum, amount) => sum + toCents(amount), 0n));

/** A share as the API sends it ("69.23") for reading. */
export const formatShare = (share: string): string => `${share}%`;

const monthFormat = new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric', timeZone: 'UTC' });
const shortMonthFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  year: '2-digit',
  timeZone: 'UTC',
});

/** "2026-11" as "Nov 2026", or "Nov 26" under a chart where room is short. */
export function formatMonth(month: string, short = false): string {
  const date = new Date(`${month}-01T00:00:00Z`);
  return (short ? shortMonthFormat : monthFormat).format(date);
}

const countFormat = new Intl.NumberFormat();

/** A count with the reader's thousands separator. */
export const formatCount = (count: number): string => countFormat.format(count);

/**
 * Money on a chart: whole amounts in the tooltip as the tables show them, and short ones on an axis
 * ("$12K"), where the cents would only crowd the ticks.
 */
export function chartMoney(currency: string): {
  tooltip: (value: number) => string;
  axis: (value: number) => string;
} {
  const compact = new Intl.NumberFormat(undefined, {
    style: 'currency',
    currency,
    notation: 'compact',
    maximumFractionDigits: 1,
  });
  return {
    tooltip: (value) => formatMoney(value.toFixed(2), currency),
    axis: (value) => compact.format(value),
  };
}

/** `chartMoney` in the signed-in agency's currency. */
export function useChartMoney(): ReturnType<typeof chartMoney> {
  const { state } = useSession();
  return chartMoney(state.user?.currency ?? 'USD');
}
