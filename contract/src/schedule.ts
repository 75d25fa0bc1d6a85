// The instalment schedule is shared: the API writes it, the policy form previews it with the same code.
import type { PaymentFrequency } from './constants.js';

/** Months between instalments for each frequency; a custom count spreads over the term. */
const INTERVAL_MONTHS: Record<Exclude<PaymentFrequency, 'custom'>, number> = {
  single: 0,
  semi_annual: 6,
  quarterly: 3,
  monthly: 1,
};

export interface ScheduleTerms {
  total_premium: string;
  payment_frequency: PaymentFrequency;
  custom_installments?: number | null;
  start_date: string;
  end_date: string;
}

export interface ScheduledInstallment {
  sequence: number;
  due_date: string;
  amount_due: string;
}

// Money as whole cents in bigint: exact, unlike floating point.
export const toCents = (amount: string): bigint => {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
};
export const fromCents = (cents: bigint): string =>
  `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;

const parseDate = (iso: string) => iso.split('-').map(Number) as [number, number, number];

/** Whole months from the start to the day after the end (a year from 1 Jan to 31 Dec is 12), at least 1. */
export function termMonths(start: string, end: string): number {
  const [sy, sm, sd] = parseDate(start);
  const after = new Date(`${end}T00:00:00Z`);
  after.setUTCDate(after.getUTCDate() + 1);
  const [ey, em, ed] = [after.getUTCFullYear(), after.getUTCMonth() + 1, after.getUTCDate()];
  return Math.max(1, (ey - sy) * 12 + (em - sm) - (ed < sd ? 1 : 0));
}

/** The date `months` after `iso`, on the same day or the month's last day (31 Jan + 1 = 28 Feb). */
export function addMonths(iso: string, months: number): string {
  const [y, m, d] = parseDate(iso);
  const monthIndex = m - 1 + months;
  const year = y + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(d, lastDay))).toISOString().slice(0, 10);
}

/**
 * The instalments of a premium: the first due on the start date, each next one interval later;
 * equal to the cent, the remainder on the first, summing exactly to the total.
 */
export function buildSchedule(terms: ScheduleTerms): ScheduledInstallment[] {
  const months = termMonths(terms.start_date, terms.end_date);
  let count: number;
  let interval: number;
  if (terms.payment_frequency === 'custom') {
    count = Math.max(1, terms.custom_installments ?? 1);
    interval = Math.max(1, Math.floor(months / count));
  } else if (terms.payment_frequency === 'single') {
    count = 1;
    interval = 0;
  } else {
    interval = INTERVAL_MONTHS[terms.payment_frequency];
    count = Math.max(1, Math.ceil(months / interval));
  }
  const total = toCents(terms.total_premium);
  const share = total / BigInt(count);
  const remainder = total - share * BigInt(count);
  return Array.from({ length: count }, (_, index) => ({
    sequence: index + 1,
    due_date: addMonths(terms.start_date, index * interval),
    amount_due: fromCents(index === 0 ? share + remainder : share),
  }));
}
