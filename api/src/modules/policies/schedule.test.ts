import {
  addMonths,
  buildSchedule,
  fromCents,
  renewalTerm,
  scheduleProblems,
  termEnd,
  termMonths,
  toCents,
} from '@coverdesk/contract';
import { describe, expect, it } from 'vitest';

const sum = (amounts: string[]) => fromCents(amounts.reduce((total, amount) => total + toCents(amount), 0n));

describe('instalment schedule', () => {
  it('splits a year quarterly from the start date, the remainder on the first', () => {
    const schedule = buildSchedule({
      total_premium: '1000.00',
      payment_frequency: 'quarterly',
      start_date: '2026-01-31',
      end_date: '2027-01-30',
    });
    expect(schedule).toEqual([
      { sequence: 1, due_date: '2026-01-31', amount_due: '250.00' },
      { sequence: 2, due_date: '2026-04-30', amount_due: '250.00' },
      { sequence: 3, due_date: '2026-07-31', amount_due: '250.00' },
      { sequence: 4, due_date: '2026-10-31', amount_due: '250.00' },
    ]);
    const monthly = buildSchedule({
      total_premium: '100.00',
      payment_frequency: 'monthly',
      start_date: '2026-01-01',
      end_date: '2026-12-31',
    });
    expect(monthly.map((row) => row.amount_due)).toEqual(['8.37', ...Array(11).fill('8.33')]);
  });

  it('always sums exactly to the premium, whatever the premium and the count', () => {
    // A deterministic pseudo-random walk, so a failure can be reproduced.
    let seed = 20261122;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let run = 0; run < 2000; run++) {
      const cents = BigInt(next() % 100_000_000) + 1n;
      const count = (next() % 120) + 1;
      const premium = fromCents(cents);
      const schedule = buildSchedule({
        total_premium: premium,
        payment_frequency: 'custom',
        custom_installments: count,
        start_date: '2026-03-15',
        end_date: '2027-03-14',
      });
      expect(schedule).toHaveLength(count);
      expect(sum(schedule.map((row) => row.amount_due))).toBe(premium);
      const [first, ...rest] = schedule.map((row) => toCents(row.amount_due));
      for (const amount of rest) {
        expect(amount).toBe(rest[0]);
        expect((first ?? 0n) - amount).toBeGreaterThanOrEqual(0n);
        expect((first ?? 0n) - amount).toBeLessThan(BigInt(count));
      }
    }
  });

  it('names what keeps a term from being scheduled, and never builds more than 120 instalments', () => {
    expect(scheduleProblems('2026-01-01', '2035-12-31', 'monthly')).toEqual([]);
    expect(scheduleProblems('2026-01-31', '2036-01-31', 'single')).toEqual([
      { field: 'end_date', message: 'A policy runs at most 10 years: from this start, until 2036-01-30.' },
    ]);
    expect(scheduleProblems('2026-01-01', '2026-12-31', 'custom', 121)).toEqual([
      { field: 'custom_installments', message: 'At most 120 instalments.' },
    ]);
    const widest = {
      total_premium: '100.00',
      payment_frequency: 'semi_annual',
      start_date: '1900-01-01',
      end_date: '2200-12-31',
    } as const;
    expect(scheduleProblems(widest.start_date, widest.end_date, widest.payment_frequency)).toContainEqual({
      field: 'payment_frequency',
      message: 'A semi-annual schedule over this term would have 602 instalments; at most 120.',
    });
    expect(() => buildSchedule(widest)).toThrow(RangeError);
  });

  it('counts whole months of a term and moves dates to the month end when needed', () => {
    expect(termMonths('2026-01-01', '2026-12-31')).toBe(12);
    expect(termMonths('2026-01-15', '2026-07-14')).toBe(6);
    expect(termMonths('2026-01-15', '2026-01-20')).toBe(1);
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2027-12-31', 2)).toBe('2028-02-29');
    expect(
      buildSchedule({
        total_premium: '99.99',
        payment_frequency: 'single',
        start_date: '2026-05-01',
        end_date: '2027-04-30',
      }),
    ).toEqual([{ sequence: 1, due_date: '2026-05-01', amount_due: '99.99' }]);
  });

  it('ends a term of whole months on its last day, the month end when the date is missing', () => {
    expect(termEnd('2026-01-01', 12)).toBe('2026-12-31');
    expect(termEnd('2026-03-01', 1)).toBe('2026-03-31');
    expect(termEnd('2026-01-15', 6)).toBe('2026-07-14');
    expect(termEnd('2027-01-31', 1)).toBe('2027-02-28');
    expect(termEnd('2027-01-30', 1)).toBe('2027-02-28');
    expect(termEnd('2027-03-31', 1)).toBe('2027-04-30');
    expect(termEnd('2028-02-29', 12)).toBe('2029-02-28');
    expect(termEnd('2027-02-28', 1)).toBe('2027-03-27');
  });

  it('renews a term for as long, without drifting from month ends', () => {
    // A month from 31 January, then the month of March.
    expect(renewalTerm({ start_date: '2027-01-31', end_date: '2027-02-28' })).toEqual({
      start_date: '2027-03-01',
      end_date: '2027-03-31',
    });
    // A quarter ending on the last day of April is followed by May to July.
    expect(renewalTerm({ start_date: '2027-01-31', end_date: '2027-04-30' })).toEqual({
      start_date: '2027-05-01',
      end_date: '2027-07-31',
    });
    // A year across a leap day is a year again.
    expect(renewalTerm({ start_date: '2027-03-01', end_date: '2028-02-29' })).toEqual({
      start_date: '2028-03-01',
      end_date: '2029-02-28',
    });
    // A trip's ten days are ten days again, from the date the broker picks.
    expect(renewalTerm({ start_date: '2027-06-01', end_date: '2027-06-10' }, '2027-08-05')).toEqual({
      start_date: '2027-08-05',
      end_date: '2027-08-14',
    });
  });
});
