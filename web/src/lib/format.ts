const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
/** A calendar day ("2026-11-22") is no moment in time: read and shown as UTC, it never moves a day. */
const calendarDayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** Dates in the reader's locale, e.g. "22 Nov 2026"; both moments and calendar days. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const calendarDay = /^\d{4}-\d{2}-\d{2}$/.test(iso);
  return (calendarDay ? calendarDayFormat : dateFormat).format(new Date(iso));
}

const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/** The time of day of a moment, in the reader's locale and time zone ("09:30"). */
export function formatTime(iso: string): string {
  return timeFormat.format(new Date(iso));
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * Money as the API sends it ("79.99") in a currency (`useFormatMoney` gives the agency's). Amounts
 * are kept to the cent, so the cents are shown even in a currency written without them (¥1,234.5),
 * and the string is never rounded.
 */
export function formatMoney(amount: string, currency: string): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    const usual = new Intl.NumberFormat(undefined, { style: 'currency', currency }).resolvedOptions();
    format = new Intl.NumberFormat(undefined, {
      style: 'currency',
      currency,
      minimumFractionDigits: Math.min(usual.minimumFractionDigits ?? 2, 2),
      maximumFractionDigits: 2,
    });
    moneyFormats.set(currency, format);
  }
  return format.format(Number(amount));
}

/**
 * Today in a time zone, as the API writes a calendar day ("2026-11-22"): in the agency's, it is the
 * day the API counts from (its `current_date`).
 */
export function todayIn(timeZone: string, now = new Date()): string {
  // Canadian English writes dates year-month-day.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** Figures that line up in columns (money, counts). */
export const TABULAR_FIGURES = { fontVariantNumeric: 'tabular-nums' } as const;

const countFormat = new Intl.NumberFormat(undefined);

/** A count and what it counts, singular for one: "1 user", "2,000 users", "3 policies". */
export function formatCounted(count: number, one: string, many = `${one}s`): string {
  return `${countFormat.format(count)} ${count === 1 ? one : many}`;
}
