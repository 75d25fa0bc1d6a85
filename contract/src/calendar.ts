import { z } from 'zod';
import { money } from './billing.js';
import {
  EVEN_WHEN_FIELDS_FAIL,
  isoDate,
  optionalText,
  optionalUrl,
  REQUIRED,
  requiredText,
  text,
  uuid,
  validField,
} from './fields.js';
import { isoDateTime, optionalChoice } from './leads.js';
import type { ModuleName } from './modules.js';
import { addDays } from './schedule.js';

/**
 * What the calendar shows. Every kind but meetings is read from its record when asked for (a
 * policy's end date, an instalment's due date, a lead's next follow-up, a claim's dates), never
 * copied into a calendar of its own.
 */
export const CALENDAR_EVENT_KINDS = [
  'renewal',
  'installment',
  'follow_up',
  'claim_incident',
  'claim_reported',
  'meeting',
] as const;
export type CalendarEventKind = (typeof CALENDAR_EVENT_KINDS)[number];

export const CALENDAR_KIND_LABELS: Record<CalendarEventKind, string> = {
  renewal: 'Renewals',
  installment: 'Instalments due',
  follow_up: 'Lead follow-ups',
  claim_incident: 'Claim incidents',
  claim_reported: 'Claims reported',
  meeting: 'Meetings',
};

/** One event of each kind, as a row's badge names it. */
export const CALENDAR_KIND_NAMES: Record<CalendarEventKind, string> = {
  renewal: 'Renewal',
  installment: 'Instalment due',
  follow_up: 'Follow-up',
  claim_incident: 'Claim incident',
  claim_reported: 'Claim reported',
  meeting: 'Meeting',
};

/** The module whose records each kind comes from: a plan without it shows none of that kind. */
export const CALENDAR_KIND_MODULES: Record<CalendarEventKind, ModuleName> = {
  renewal: 'module_policies',
  installment: 'module_payments',
  follow_up: 'module_leads',
  claim_incident: 'module_claims',
  claim_reported: 'module_claims',
  meeting: 'module_calendar',
};

/** The kinds a plan's modules allow, of those asked for (all by default). */
export const calendarKindsFor = (
  modules: readonly ModuleName[],
  requested: readonly CalendarEventKind[] = CALENDAR_EVENT_KINDS,
): CalendarEventKind[] => requested.filter((kind) => modules.includes(CALENDAR_KIND_MODULES[kind]));

/** The longest window one request may ask for, in days. */
export const MAX_CALENDAR_RANGE_DAYS = 400;

/**
 * Past this many records of one kind on one day, the day shows one summary event ("37 instalments
 * due") linking to the list filtered to that day: a large book would otherwise send thousands of
 * events that no calendar cell can show.
 */
export const CALENDAR_DAY_DETAIL_LIMIT = 20;

/** The longest meeting, so that a window's meetings are found from their start. */
export const MAX_MEETING_DAYS = 31;

export const calendarEventKind = z.enum(CALENDAR_EVENT_KINDS, { error: 'Choose a kind of event.' });

const kindList = text()
  .transform((value) => value.split(',').map((kind) => kind.trim()))
  .pipe(z.array(calendarEventKind))
  .transform((kinds) => [...new Set(kinds)]);

const isAfterRange = (start: string, end: string) => end > addDays(start, MAX_CALENDAR_RANGE_DAYS - 1);

export const calendarEventsQuery = z
  .object({
    start: isoDate.describe("The window's first day, in the agency's time zone."),
    end: isoDate.describe(
      `The window's last day (included); at most ${MAX_CALENDAR_RANGE_DAYS} days in all.`,
    ),
    kinds: kindList
      .optional()
      .describe(
        `Comma-separated kinds (${CALENDAR_EVENT_KINDS.join(', ')}); every kind the plan allows by default.`,
      ),
    company: uuid.optional().describe('Only events of this insurer (renewals, instalments, claims).'),
    assignee: uuid
      .optional()
      .describe("Only this user's events (lead follow-ups assigned to them, meetings they own)."),
  })
  .superRefine((query, context) => {
    const start = validField(isoDate, query.start);
    const end = validField(isoDate, query.end);
    if (!start || !end) return;
    if (end < start) {
      context.addIssue({
        code: 'custom',
        path: ['end'],
        message: 'The window must end on or after its first day.',
      });
    } else if (isAfterRange(start, end)) {
      context.addIssue({
        code: 'custom',
        path: ['end'],
        message: `Ask for at most ${MAX_CALENDAR_RANGE_DAYS} days at a time.`,
      });
    }
  }, EVEN_WHEN_FIELDS_FAIL);
export type CalendarEventsQuery = z.input<typeof calendarEventsQuery>;
export type CalendarEventsFilter = z.output<typeof calendarEventsQuery>;

/**
 * One event of the calendar. All-day events (renewals, instalments, claim dates, all-day meetings)
 * carry dates; timed ones (follow-ups, meetings) moments.
 */
export const calendarEvent = z.object({
  id: z
    .string()
    .describe(
      'Stable: `<kind>:<record id>` (`renewal:<policy id>`, `meeting:<meeting id>`...), or `<kind>:day:<date>` for a day summary.',
    ),
  kind: calendarEventKind,
  title: z.string(),
  all_day: z.boolean(),
  start: z.string().describe('A date (YYYY-MM-DD) for all-day events, else an ISO 8601 moment.'),
  end: z
    .string()
    .nullable()
    .describe(
      "All day: the last day (included) when it spans several. Timed: the end moment; null for a follow-up's point in time.",
    ),
  url: z.string().describe('Where the record opens in the web app.'),
  company_id: z.string().nullable(),
  company_name: z.string().nullable(),
  assignee_id: z.string().nullable().describe("A lead's assignee, a meeting's owner."),
  assignee_name: z.string().nullable(),
  overdue: z.boolean().describe('An unpaid instalment whose due date has passed.'),
  amount: money.nullable().describe("An instalment's amount still to pay (summed for a day summary)."),
  count: z
    .number()
    .int()
    .describe(
      `How many records the event stands for: 1, or more for a day summary (past ${CALENDAR_DAY_DETAIL_LIMIT} of a kind).`,
    ),
});
export type CalendarEvent = z.infer<typeof calendarEvent>;

export const calendarEventList = z.object({ results: z.array(calendarEvent) });
export type CalendarEventList = z.infer<typeof calendarEventList>;

export const MEETING_END_BEFORE_START = 'The meeting must end after it starts.';

/**
 * A meeting as created and edited. Timed: `start` and `end` are moments (ISO 8601 with offset).
 * All day: dates, `end` being the last day.
 */
export const meetingBody = z
  .object({
    title: requiredText(200),
    all_day: z.boolean({ error: 'Choose whether the meeting lasts all day.' }).default(false),
    start: text({ error: REQUIRED }).describe('A moment (ISO 8601 with offset), or a date when all day.'),
    end: text({ error: REQUIRED }).describe(
      'A moment after `start`, or the last day (on or after `start`) when all day.',
    ),
    customer_id: optionalChoice('Choose a customer.').describe('The customer met, or null.'),
    lead_id: optionalChoice('Choose a lead.').describe('The lead met, or null.'),
    location: optionalText(300),
    video_url: optionalUrl.describe('A video-call link, when the meeting is online.'),
    notes: optionalText(5000),
    reminder_minutes: z
      .number({ error: 'Enter a number of minutes.' })
      .int('Enter a whole number of minutes.')
      .min(0, 'This cannot be negative.')
      .max(40_320, 'Remind at most four weeks before.')
      .nullable()
      .default(null)
      .describe('Minutes before the start to be reminded, or null for no reminder.'),
  })
  .superRefine((meeting, context) => {
    const allDay = meeting.all_day === true;
    const format = allDay ? isoDate : isoDateTime;
    const values: Partial<Record<'start' | 'end', string>> = {};
    for (const field of ['start', 'end'] as const) {
      if (typeof meeting[field] !== 'string') continue;
      const result = format.safeParse(meeting[field]);
      if (result.success) values[field] = result.data;
      else
        context.addIssue({
          code: 'custom',
          path: [field],
          message: result.error.issues[0]?.message ?? REQUIRED,
        });
    }
    const { start, end } = values;
    if (!start || !end) return;
    const days = (Date.parse(end) - Date.parse(start)) / 86_400_000;
    if (allDay ? end < start : days <= 0) {
      context.addIssue({ code: 'custom', path: ['end'], message: MEETING_END_BEFORE_START });
    } else if (allDay ? days + 1 > MAX_MEETING_DAYS : days > MAX_MEETING_DAYS) {
      context.addIssue({
        code: 'custom',
        path: ['end'],
        message: `A meeting can last at most ${MAX_MEETING_DAYS} days.`,
      });
    }
  }, EVEN_WHEN_FIELDS_FAIL);
export type MeetingBody = z.input<typeof meetingBody>;
export type MeetingValues = z.output<typeof meetingBody>;

export const meeting = z.object({
  id: z.string(),
  title: z.string(),
  all_day: z.boolean(),
  start: z.string().describe('A moment, or a date when all day.'),
  end: z.string().describe('A moment, or the last day when all day.'),
  customer_id: z.string().nullable(),
  customer_name: z.string().describe('"" without a customer.'),
  lead_id: z.string().nullable(),
  lead_name: z.string().describe('"" without a lead.'),
  location: z.string(),
  video_url: z.string(),
  notes: z.string(),
  reminder_minutes: z.number().int().nullable(),
  owner_id: z.string().nullable().describe('The user who created it.'),
  owner_name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Meeting = z.infer<typeof meeting>;

export const meetingListQuery = z
  .object({
    start: isoDate.describe("The window's first day, in the agency's time zone."),
    end: isoDate.describe("The window's last day (included)."),
  })
  .superRefine((query, context) => {
    const start = validField(isoDate, query.start);
    const end = validField(isoDate, query.end);
    if (start && end && (end < start || isAfterRange(start, end))) {
      context.addIssue({
        code: 'custom',
        path: ['end'],
        message: `The window must end on or after its first day, within ${MAX_CALENDAR_RANGE_DAYS} days.`,
      });
    }
  }, EVEN_WHEN_FIELDS_FAIL);
export type MeetingListQuery = z.input<typeof meetingListQuery>;

export const meetingList = z.object({ results: z.array(meeting) });

/** The signed-in user's calendar feed; its address is shown once, when it is made. */
export const calendarFeed = z.object({
  active: z.boolean(),
  created_at: z.string().nullable(),
  url: z
    .string()
    .nullable()
    .describe(
      'The feed address: only in the answer that created it, since only a hash of its secret is kept.',
    ),
});
export type CalendarFeed = z.infer<typeof calendarFeed>;
