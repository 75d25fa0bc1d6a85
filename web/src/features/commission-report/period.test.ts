import { describe, expect, it } from 'vitest';
import { periodRange } from './period.js';

describe('report periods', () => {
  it('cover whole months around the agency’s today', () => {
    expect(periodRange('this_month', '2026-11-23')).toEqual({ start: '2026-11-01', end: '2026-11-30' });
    expect(periodRange('this_month', '2028-02-10')).toEqual({ start: '2028-02-01', end: '2028-02-29' });
    expect(periodRange('last_month', '2026-03-31')).toEqual({ start: '2026-02-01', end: '2026-02-28' });
    expect(periodRange('last_month', '2026-01-05')).toEqual({ start: '2025-12-01', end: '2025-12-31' });
  });

  it('take the calendar quarter and year that hold today', () => {
    expect(periodRange('this_quarter', '2026-11-23')).toEqual({ start: '2026-10-01', end: '2026-12-31' });
    expect(periodRange('this_quarter', '2026-01-01')).toEqual({ start: '2026-01-01', end: '2026-03-31' });
    expect(periodRange('this_quarter', '2026-06-30')).toEqual({ start: '2026-04-01', end: '2026-06-30' });
    expect(periodRange('this_year', '2026-11-23')).toEqual({ start: '2026-01-01', end: '2026-12-31' });
  });

  it('keep a custom range as typed, open-ended where a date is blank', () => {
    expect(periodRange('custom', '2026-11-23', { start: '2026-05-01' })).toEqual({
      start: '2026-05-01',
      end: '',
    });
    expect(periodRange('custom', '2026-11-23')).toEqual({ start: '', end: '' });
  });
});
