import {
  LEAD_FOLLOW_UP_LABELS,
  LEAD_FOLLOW_UPS,
  LEAD_SOURCE_LABELS,
  LEAD_SOURCES,
  LEAD_STATUS_LABELS,
  LEAD_STATUSES,
  type Lead,
} from '@coverdesk/contract';

export const LEAD_STATUS_OPTIONS = LEAD_STATUSES.map((value) => ({
  value,
  label: LEAD_STATUS_LABELS[value],
}));
export const LEAD_SOURCE_OPTIONS = LEAD_SOURCES.map((value) => ({ value, label: LEAD_SOURCE_LABELS[value] }));
export const LEAD_FOLLOW_UP_OPTIONS = LEAD_FOLLOW_UPS.map((value) => ({
  value,
  label: LEAD_FOLLOW_UP_LABELS[value],
}));

const momentFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * A follow-up's day and time on the broker's clock, e.g. "4 Mar 2030, 09:30": the form takes it on
 * the same clock (a date-and-time input has no time zone).
 */
export const formatMoment = (iso: string) => momentFormat.format(new Date(iso));

/** Whether an open lead's follow-up time has passed. */
export const isOverdue = (lead: Pick<Lead, 'status' | 'next_follow_up_at'>, now = Date.now()) =>
  lead.next_follow_up_at !== null &&
  lead.status !== 'won' &&
  lead.status !== 'lost' &&
  Date.parse(lead.next_follow_up_at) < now;
