import type { Notification, NotificationPriority } from '@coverdesk/contract';
import { formatDate, formatTime } from '../../lib/format.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The spec's relative time: Just now, Nm ago, Nh ago, otherwise the date and time as the app writes them. */
export function relativeTime(iso: string, now = Date.now()): string {
  const elapsed = now - new Date(iso).getTime();
  if (elapsed < MINUTE) return 'Just now';
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)}m ago`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)}h ago`;
  return dateTime(iso);
}

/** A moment as notifications write it whole, in the app's own date and time formats. */
export const dateTime = (iso: string) => `${formatDate(iso)}, ${formatTime(iso)}`;

/** The priority dot's colour, most urgent first. */
export const PRIORITY_COLORS: Record<NotificationPriority, string> = {
  critical: 'red.8',
  high: 'orange.7',
  medium: 'yellow.6',
  low: 'blue.5',
};

export const PRIORITY_LABELS: Record<NotificationPriority, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

/**
 * Where a notification leads, by its wording (the spec's rule): payments, then policies, then leads,
 * else the dashboard. The title is read first, since a message may name a meeting's subject.
 */
export function pathByWording(notification: Pick<Notification, 'title' | 'message'>): string {
  for (const text of [notification.title, notification.message]) {
    const words = text.toLowerCase();
    if (/payment|instal?lment/.test(words)) return '/payments';
    if (/polic(y|ies)|renewal/.test(words)) return '/policies';
    if (/\blead/.test(words)) return '/leads';
    if (text === notification.title && /meeting/.test(words)) return '/dashboard';
  }
  return '/dashboard';
}

/** "You have 1 new notification", "You have 3 new notifications". */
export const newNotifications = (count: number) =>
  `You have ${count} new notification${count === 1 ? '' : 's'}`;
