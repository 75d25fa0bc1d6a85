import { describe, expect, it } from 'vitest';
import { formatTime } from '../../lib/format.js';
import { dateTime, newNotifications, pathByWording, relativeTime } from './wording.js';

describe('notification wording', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it('reads times as Just now, minutes, hours, then a date', () => {
    expect(relativeTime(ago(20_000), now)).toBe('Just now');
    expect(relativeTime(ago(5 * 60_000), now)).toBe('5m ago');
    expect(relativeTime(ago(3 * 3_600_000), now)).toBe('3h ago');
    // Older ones read as the date and the time of day, as the history writes them.
    const older = ago(3 * 86_400_000);
    expect(relativeTime(older, now)).toBe(dateTime(older));
    expect(dateTime(older)).toContain(formatTime(older));
  });

  it('leads to the screen its wording names', () => {
    expect(pathByWording({ title: 'Payment reminder: P-1', message: 'Policy P-1 owes' })).toBe('/payments');
    expect(pathByWording({ title: 'Policy renewal: P-1', message: '' })).toBe('/policies');
    expect(pathByWording({ title: 'New lead assigned', message: '' })).toBe('/leads');
    expect(pathByWording({ title: 'Meeting at 14:30', message: 'Renewal review with Dana' })).toBe(
      '/dashboard',
    );
    expect(pathByWording({ title: 'Welcome', message: 'Hello' })).toBe('/dashboard');
  });

  it('counts new notifications in words', () => {
    expect(newNotifications(1)).toBe('You have 1 new notification');
    expect(newNotifications(4)).toBe('You have 4 new notifications');
  });
});
