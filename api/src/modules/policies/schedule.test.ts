import { addMonths, buildSchedule, fromCents, termMonths, toCents } from '@coverdesk/contract';
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
});
