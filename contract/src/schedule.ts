// The instalment schedule is shared: the API writes it, the policy form previews it with the same code.
import {
  MAX_INSTALLMENTS,
  MAX_TERM_YEARS,
  PAYMENT_FREQUENCY_LABELS,
  type PaymentFrequency,
} from './constants.js';

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

/**
 * The net premium of a renewal whose total premium changed: in the same proportion to the total as
 * before, rounded half-up to the cent (2,200.00 of 2,400.00, renewed at 2,520.00, is 2,310.00).
 */
export function scaledNetPremium(net: string, total: string, newTotal: string): string {
  const totalCents = toCents(total);
  if (totalCents === 0n) return newTotal;
  return fromCents((2n * toCents(net) * toCents(newTotal) + totalCents) / (2n * totalCents));
}

const parseDate = (iso: string) => iso.split('-').map(Number) as [number, number, number];

const DAY_MS = 86_400_000;

/** The date `days` after `iso` (before it when negative). */
export const addDays = (iso: string, days: number): string =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Whole months from the start to the day after the end (a year from 1 Jan to 31 Dec is 12). */
function wholeMonths(start: string, end: string): number {
  const [sy, sm, sd] = parseDate(start);
  const [ey, em, ed] = parseDate(addDays(end, 1));
  return (ey - sy) * 12 + (em - sm) - (ed < sd ? 1 : 0);
}

/** Whole months of a term, at least 1: what the instalments are spread over. */
export const termMonths = (start: string, end: string): number => Math.max(1, wholeMonths(start, end));

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

const twoDigits = (value: number) => String(value).padStart(2, '0');

/**
 * The date `months` after `iso`, on the same day or the month's last day (31 Jan + 1 = 28 Feb).
 * Worked out from the calendar's rules rather than through Date: an import's schedules call it for
 * every instalment.
 */
export function addMonths(iso: string, months: number): string {
  const [y, m, d] = parseDate(iso);
  const monthIndex = m - 1 + months;
  const year = y + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const lastDay = month === 1 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month] as number);
  return `${String(year).padStart(4, '0')}-${twoDigits(month + 1)}-${twoDigits(Math.min(d, lastDay))}`;
}

/**
 * The last day of `months` whole months from `start`: the day before the same date, or the month's
 * last day when it has no such date (from 31 January, one month ends on 28 February).
 */
export function termEnd(start: string, months: number): string {
  const sameDate = addMonths(start, months);
  return parseDate(sameDate)[2] < parseDate(start)[2] ? sameDate : addDays(sameDate, -1);
}

interface Term {
  start_date: string;
  end_date: string;
}

/**
 * The term that renews `term`: from the day after it ends (or from `start`), as long. A term of a
 * month or more runs as many whole months, so a year from 1 March is a year again across a leap day
 * and a month from 31 January ends on 28 February; a shorter one (a trip's cover) runs as many days.
 */
export function renewalTerm(term: Term, start = addDays(term.end_date, 1)): Term {
  const months = wholeMonths(term.start_date, term.end_date);
  const days = (Date.parse(term.end_date) - Date.parse(term.start_date)) / DAY_MS;
  return {
    start_date: start,
    end_date: months > 0 ? termEnd(start, months) : addDays(start, days),
  };
}

/** How many instalments a term is split into and how many months apart they fall due. */
function instalmentSpread(terms: Omit<ScheduleTerms, 'total_premium'>): { count: number; interval: number } {
  const months = termMonths(terms.start_date, terms.end_date);
  if (terms.payment_frequency === 'custom') {
    const count = Math.max(1, terms.custom_installments ?? 1);
    return { count, interval: Math.max(1, Math.floor(months / count)) };
  }
  if (terms.payment_frequency === 'single') return { count: 1, interval: 0 };
  const interval = INTERVAL_MONTHS[terms.payment_frequency];
  return { count: Math.max(1, Math.ceil(months / interval)), interval };
}

export interface ScheduleProblem {
  field: 'end_date' | 'payment_frequency' | 'custom_installments';
  message: string;
}

/**
 * Why a term and frequency cannot be scheduled: a term longer than MAX_TERM_YEARS, or more than
 * MAX_INSTALLMENTS instalments. The policy form and the API both check this before a schedule is
 * built, so no request makes the server write thousands of instalments. Dates must be valid.
 */
export function scheduleProblems(
  start: string,
  end: string,
  frequency: PaymentFrequency,
  customInstallments?: number | null,
): ScheduleProblem[] {
  const problems: ScheduleProblem[] = [];
  const latestEnd = termEnd(start, MAX_TERM_YEARS * 12);
  if (end > latestEnd) {
    problems.push({
      field: 'end_date',
      message: `A policy runs at most ${MAX_TERM_YEARS} years: from this start, until ${latestEnd}.`,
    });
  }
  const { count } = instalmentSpread({
    start_date: start,
    end_date: end,
    payment_frequency: frequency,
    custom_installments: customInstallments,
  });
  if (count > MAX_INSTALLMENTS) {
    problems.push(
      frequency === 'custom'
        ? { field: 'custom_installments', message: `At most ${MAX_INSTALLMENTS} instalments.` }
        : {
            field: 'payment_frequency',
            message: `A ${PAYMENT_FREQUENCY_LABELS[frequency].toLowerCase()} schedule over this term would have ${count} instalments; at most ${MAX_INSTALLMENTS}.`,
          },
    );
  }
  return problems;
}

/**
 * The instalments of a premium: the first due on the start date, each next one interval later;
 * equal to the cent, the remainder on the first, summing exactly to the total. More than
 * MAX_INSTALLMENTS is refused here too, so that no caller can make it loop over thousands of dates.
 */
export function buildSchedule(terms: ScheduleTerms): ScheduledInstallment[] {
  const { count, interval } = instalmentSpread(terms);
  if (count > MAX_INSTALLMENTS) {
    throw new RangeError(`A schedule of ${count} instalments; check scheduleProblems first.`);
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

/** What a payment made before Coverdesk knew the policy left on one of its instalments. */
export interface InstalmentPaid {
  amount_paid: string;
  /** The instalment's due date, or `until` when it fell due later (paid in advance). */
  paid_date: string | null;
}

/**
 * An amount paid on a schedule, instalment by instalment in due order: each is paid in full before
 * the next takes anything, so the last one reached may be part paid. Dated each instalment's due
 * date, never after `until`. More than the schedule comes to pays it all and no more.
 */
export function payInOrder(
  schedule: ScheduledInstallment[],
  amount: string,
  until: string,
): InstalmentPaid[] {
  let left = toCents(amount);
  return schedule.map((row) => {
    const due = toCents(row.amount_due);
    // biome-ignore lint/complexity/useMathMinMax: bigint has no Math.min
    const paid = left > due ? due : left;
    left -= paid;
    if (paid <= 0n) return { amount_paid: '0.00', paid_date: null };
    return { amount_paid: fromCents(paid), paid_date: row.due_date < until ? row.due_date : until };
  });
}

/** What the instalments due on or before `day` come to. */
export const dueBy = (schedule: ScheduledInstallment[], day: string): string =>
  fromCents(
    schedule.filter((row) => row.due_date <= day).reduce((sum, row) => sum + toCents(row.amount_due), 0n),
  );
