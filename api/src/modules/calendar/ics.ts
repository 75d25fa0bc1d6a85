import { addDays, CALENDAR_KIND_LABELS, type CalendarEvent } from '@coverdesk/contract';
import type { MeetingDetails } from './queries.js';

// An iCalendar (RFC 5545) feed of the agency's events, for a calendar app to subscribe to.

/**
 * TEXT values escape backslashes, semicolons, commas and line breaks (RFC 5545, 3.3.11). Control
 * characters, which the format forbids, become spaces, so one odd name cannot make a strict calendar
 * app refuse the whole feed; the Unicode line and paragraph separators are line breaks.
 */
export const escapeText = (value: string) =>
  value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|[\r\n\u0085\u2028\u2029]/g, '\\n')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
    .replace(/[\u0000-\u001f\u007f]/g, ' ');

const encoder = new TextEncoder();

/**
 * Lines longer than 75 octets are folded: a line break and a space before each further piece
 * (RFC 5545, 3.1). Counted in UTF-8 octets, and never inside a character.
 */
export function foldLine(line: string): string {
  const pieces: string[] = [];
  let piece = '';
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // The first line holds 75 octets; the others 74 after their leading space.
    if (octets + size > (pieces.length === 0 ? 75 : 74)) {
      pieces.push(piece);
      piece = '';
      octets = 0;
    }
    piece += char;
    octets += size;
  }
  pieces.push(piece);
  return pieces.join('\r\n ');
}

/** "2026-11-22" -> "20261122". */
const dateValue = (day: string) => day.replaceAll('-', '');
/** A moment in UTC: "20261122T093000Z". */
const momentValue = (iso: string) => `${new Date(iso).toISOString().replace(/[-:]/g, '').slice(0, 15)}Z`;

function eventLines(event: CalendarEvent, options: FeedOptions, stamp: string): string[] {
  const timing = event.all_day
    ? [
        `DTSTART;VALUE=DATE:${dateValue(event.start)}`,
        // DTEND of an all-day event is the day after its last.
        `DTEND;VALUE=DATE:${dateValue(addDays(event.end ?? event.start, 1))}`,
      ]
    : [`DTSTART:${momentValue(event.start)}`, ...(event.end ? [`DTEND:${momentValue(event.end)}`] : [])];
  const meeting = options.meetings.get(event.id);
  const place = meeting?.location || meeting?.videoUrl;
  const details = [
    meeting?.location && meeting.videoUrl && `Video call: ${meeting.videoUrl}`,
    meeting?.notes,
    event.company_name && `Insurer: ${event.company_name}`,
    event.assignee_name && `Assigned to: ${event.assignee_name}`,
    event.amount && `Amount: ${event.amount}`,
    event.overdue && 'Overdue',
  ].filter(Boolean) as string[];
  return [
    'BEGIN:VEVENT',
    // Event ids are unique within an agency (a day's summary is "installment:day:2026-01-05").
    `UID:${event.id}.${options.tenantId}@coverdesk`,
    `DTSTAMP:${stamp}`,
    ...timing,
    `SUMMARY:${escapeText(event.title)}`,
    ...(place ? [`LOCATION:${escapeText(place)}`] : []),
    ...(details.length > 0 ? [`DESCRIPTION:${escapeText(details.join('\n'))}`] : []),
    `CATEGORIES:${escapeText(CALENDAR_KIND_LABELS[event.kind])}`,
    `URL:${options.appUrl}${event.url}`,
    `TRANSP:${event.kind === 'meeting' ? 'OPAQUE' : 'TRANSPARENT'}`,
    'END:VEVENT',
  ];
}

interface FeedOptions {
  name: string;
  appUrl: string;
  tenantId: string;
  now: Date;
  /** The location, video link and notes of the feed's meetings, by event id. */
  meetings: Map<string, MeetingDetails>;
}

/** The whole feed, lines ended by CRLF as the format requires. */
export function calendarFeedText(events: CalendarEvent[], options: FeedOptions) {
  const stamp = momentValue(options.now.toISOString());
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Coverdesk//Calendar feed//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(options.name)}`,
    ...events.flatMap((event) => eventLines(event, options, stamp)),
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
