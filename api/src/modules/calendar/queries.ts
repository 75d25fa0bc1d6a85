import {
  addDays,
  CALENDAR_DAY_DETAIL_LIMIT,
  CALENDAR_EVENT_KINDS,
  type CalendarEvent,
  type CalendarEventKind,
  MAX_MEETING_DAYS,
  type Meeting,
  type MeetingValues,
  OPEN_LEAD_STATUSES,
} from '@coverdesk/contract';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { isoMoment, one, withGenericPlans } from '../../db/query-helpers.js';
import { customers } from '../customers/tables.js';
import { leads } from '../leads/tables.js';
import { agencyUsers } from '../tenants/tables.js';
import { meetings } from './tables.js';

/** The window and filters of an events request; `kinds` already cut to what the plan allows. */
export interface CalendarEventsOptions {
  /** First and last day (both included), in the agency's time zone. */
  start: string;
  end: string;
  kinds: readonly CalendarEventKind[];
  /** Only events of this insurer: renewals, instalments and claims. */
  company?: string | undefined;
  /** Only this user's events: follow-ups of the leads assigned to them, meetings they own. */
  assignee?: string | undefined;
}

const LIMIT = sql.raw(String(CALENDAR_DAY_DETAIL_LIMIT));
const userName = sql`nullif(trim(u.first_name || ' ' || u.last_name), '')`;
const OPEN_LEADS = sql.raw(OPEN_LEAD_STATUSES.map((status) => `'${status}'`).join(', '));

/** "<reference> · <party>", leaving out whichever is empty. */
const referenceOf = (reference: SQL, party: SQL) =>
  sql`concat_ws(' · ', nullif(${reference}, ''), nullif(${party}, ''))`;

/** "3 policies", "1 policy": `n` records in words. */
const counted = (n: SQL, one: string, many: string) =>
  sql`${n} || ' ' || case when ${n} = 1 then ${one}::text else ${many}::text end`;

/**
 * One kind of dated record: its table (aliased `r`), the window condition on its dated column, and
 * what an event of it shows. The day counts read only the dated table and its index (or the kept
 * day totals) unless a company filter needs the policy (`p`); records are read only for the days at
 * or under the limit. Every text an event shows is written by the statement, so the events leave
 * the database as the JSON the API sends.
 */
interface DatedSource {
  kind: CalendarEventKind;
  table: SQL;
  where: SQL;
  /** The record's day in the agency's time zone. */
  day: SQL;
  /** For a timed record (a follow-up), its moment: it then shows at that time, not all day. */
  moment?: SQL;
  /** The join to the policy (`p`) that a company filter needs. */
  policyJoin: SQL | undefined;
  /** The policy's insurer, which a company filter reads. */
  companyId: SQL | undefined;
  /** What a day summary sums (an instalment's amount still to pay). */
  summaryAmount?: SQL;
  /** Counted per day in calendar_day_totals, read there unless a company filter narrows the count. */
  keptDays?: true;
  detailJoins: SQL;
  /** The record's number, by which a day's events of a kind are ordered. */
  reference: SQL;
  title: SQL;
  url: SQL;
  /** company_id, company_name, assignee_id, assignee_name, overdue and amount (text), in that order. */
  facts: SQL;
  /** A day summary of `n` records: its title, and the list of that day it leads to. */
  summaryTitle: (n: SQL) => SQL;
  summaryUrl: (day: SQL) => SQL;
}

const policyOf = sql`join policies p on p.tenant_id = r.tenant_id and p.id = r.policy_id`;
/** The customer and insurer of the policy named `policy` (`p`, or `r` when the record is the policy). */
const policyParties = (policy: SQL) => sql`join customers cu on cu.tenant_id = ${policy}.tenant_id
  and cu.id = ${policy}.customer_id
  join companies co on co.tenant_id = ${policy}.tenant_id and co.id = ${policy}.company_id`;
const policyFacts = (overdue: SQL, amount: SQL) =>
  sql`co.id, co.name, null::uuid, null::text, ${overdue}, ${amount}`;

function datedSources(
  { start, end, assignee, company }: CalendarEventsOptions,
  tenantId: string,
): DatedSource[] {
  const tenant = sql`r.tenant_id = ${tenantId}::uuid`;
  const between = (column: SQL) => sql`${column} >= ${start}::date and ${column} <= ${end}::date`;
  // A summary of a kind a company filter applies to keeps the filter in its link.
  const companyParam = sql`${company ? `&company_id=${company}` : ''}::text`;
  const listOfDay = (list: string, from: string, day: SQL) =>
    sql`${`${list}${from}_from=`}::text || ${day} || ${`&${from}_to=`}::text || ${day} || ${companyParam}`;
  const claimSource = (which: 'incident' | 'reported'): DatedSource => {
    const column = sql.raw(`r.${which}_date`);
    return {
      kind: `claim_${which}`,
      table: sql`claims r`,
      where: sql`${tenant} and ${between(column)}`,
      day: column,
      policyJoin: policyOf,
      companyId: sql`p.company_id`,
      detailJoins: sql`${policyOf} ${policyParties(sql`p`)}`,
      reference: sql`r.claim_number`,
      title: sql`${which === 'incident' ? 'Incident: ' : 'Claim reported: '}::text || ${referenceOf(sql`r.claim_number`, sql`cu.display_name`)}`,
      url: sql`'/claims/' || r.id`,
      facts: policyFacts(sql`false`, sql`null::text`),
      ...(which === 'incident'
        ? {
            summaryTitle: (n) => counted(n, 'claim incident', 'claim incidents'),
            summaryUrl: (day) => listOfDay('/claims?', 'incident_date', day),
          }
        : {
            summaryTitle: (n) => sql`${counted(n, 'claim', 'claims')} || ' reported'`,
            // The claims list has no reported-day filter: the newest reported come first.
            summaryUrl: () => sql`'/claims?ordering=-reported_date' || ${companyParam}`,
          }),
    };
  };
  return [
    {
      kind: 'renewal',
      // Policies still open (neither cancelled nor renewed): the open-policy index by end date.
      table: sql`policies r`,
      where: sql`${tenant} and r.cancelled_at is null and r.renewed_to_id is null and ${between(sql`r.end_date`)}`,
      day: sql`r.end_date`,
      keptDays: true,
      // The record is the policy: joining it again by id had the planner read the whole book of an
      // agent kept to their own book to hash it.
      policyJoin: undefined,
      companyId: sql`r.company_id`,
      detailJoins: policyParties(sql`r`),
      reference: sql`r.policy_number`,
      title: sql`'Renewal: ' || ${referenceOf(sql`r.policy_number`, sql`cu.display_name`)}`,
      url: sql`'/policies/' || r.id`,
      facts: policyFacts(sql`false`, sql`null::text`),
      summaryTitle: (n) => sql`${counted(n, 'policy', 'policies')} || ' to renew'`,
      summaryUrl: (day) => listOfDay('/policies?', 'end_date', day),
    },
    {
      kind: 'installment',
      // Still to be paid: the partial index of unpaid instalments by due date.
      table: sql`installments r`,
      where: sql`${tenant} and r.status in ('pending', 'partially_paid') and ${between(sql`r.due_date`)}`,
      day: sql`r.due_date`,
      policyJoin: policyOf,
      companyId: sql`p.company_id`,
      summaryAmount: sql`sum(r.amount_due - r.amount_paid)`,
      keptDays: true,
      detailJoins: sql`${policyOf} ${policyParties(sql`p`)}`,
      reference: sql`p.policy_number`,
      title: sql`'Instalment ' || r.sequence || ': ' || ${referenceOf(sql`p.policy_number`, sql`cu.display_name`)}`,
      url: sql`'/payments/policy/' || r.policy_id`,
      facts: policyFacts(sql`r.due_date < current_date`, sql`(r.amount_due - r.amount_paid)::text`),
      summaryTitle: (n) => sql`${counted(n, 'instalment', 'instalments')} || ' due'`,
      summaryUrl: (day) => listOfDay('/payments?status=due&', 'due_date', day),
    },
    {
      kind: 'follow_up',
      // Open leads. A date cast to timestamptz is the agency's midnight: the transaction's time zone.
      table: sql`leads r`,
      where: sql`${tenant} and r.status in (${OPEN_LEADS})
        and r.next_follow_up_at >= ${start}::date::timestamptz
        and r.next_follow_up_at < (${end}::date + 1)::timestamptz
        ${assignee ? sql`and r.assigned_user_id = ${assignee}::uuid` : sql``}`,
      day: sql`r.next_follow_up_at::date`,
      moment: sql`r.next_follow_up_at`,
      policyJoin: undefined,
      companyId: undefined,
      detailJoins: sql`left join agency_users u on u.id = r.assigned_user_id`,
      reference: sql`''`,
      title: sql`'Follow up: ' || r.display_name`,
      url: sql`'/leads/' || r.id`,
      facts: sql`null::uuid, null::text, r.assigned_user_id, ${userName}, false, null::text`,
      summaryTitle: (n) => sql`${counted(n, 'lead', 'leads')} || ' to follow up'`,
      summaryUrl: () => sql`'/leads?ordering=next_follow_up_at'`,
    },
    claimSource('incident'),
    claimSource('reported'),
  ];
}

/**
 * The columns of an events row, in the order every part writes them: an event's fields, then what
 * the events are ordered by.
 */
const EVENT_COLUMNS = sql.raw(`kind, n, all_day, event_start, event_end, url, title, id, company_id,
  company_name, assignee_id, assignee_name, overdue, amount, sort_at, reference, record_id`);

/** A kind's rows: each record on a day at or under the limit, and one summary row for a busier day. */
function datedRows(
  source: DatedSource,
  { start, end, company }: CalendarEventsOptions,
  tenantId: string,
  index: number,
): SQL {
  const days = sql.raw(`days_${index}`);
  const byCompany = company && source.companyId ? sql`and ${source.companyId} = ${company}::uuid` : sql``;
  const countJoin = company ? (source.policyJoin ?? sql``) : sql``;
  const counted =
    source.keptDays && !company
      ? sql`select day, records as n, ${source.summaryAmount ? sql`amount::numeric(14, 2)` : sql`null::numeric`} as amount
        from calendar_day_totals
        where tenant_id = ${tenantId}::uuid and kind = ${source.kind} and day >= ${start}::date
          and day <= ${end}::date and records > 0`
      : sql`select ${source.day} as day, count(*)::int as n, ${source.summaryAmount ?? sql`null::numeric`} as amount
        from ${source.table} ${countJoin} where ${source.where} ${byCompany}
        group by 1`;
  const summaryDay = sql`day::text`;
  return sql`select * from (with ${days} as materialized (${counted})
    select ${source.kind}::text as kind, 1 as n, ${source.moment ? sql`false` : sql`true`} as all_day,
      ${source.moment ? isoMoment(source.moment) : sql`${source.day}::text`} as event_start, null::text as event_end,
      ${source.url} as url, ${source.title} as title, ${`${source.kind}:`}::text || r.id as id, ${source.facts},
      ${source.moment ? sql`${source.moment}::timestamp` : sql`${source.day}::timestamp`} as sort_at,
      ${source.reference} as reference, r.id as record_id
    from ${source.table} ${source.detailJoins}
    where ${source.where} ${byCompany}
      and ${source.day} = any(array(select day from ${days} where n <= ${LIMIT}))
    union all
    select ${source.kind}::text, n, true, ${summaryDay}, null, ${source.summaryUrl(summaryDay)},
      ${source.summaryTitle(sql`n`)}, ${`${source.kind}:day:`}::text || day, null, null, null, null,
      ${source.kind === 'installment' ? sql`day < current_date` : sql`false`}, amount::text, day::timestamp, '', null
    from ${days} where n > ${LIMIT}) ${sql.raw(`kind_${index}`)}`;
}

/**
 * Meetings overlapping a window of days: timed ones by their start moment, all-day ones by their
 * first day, each on its own partial index; a meeting lasts at most MAX_MEETING_DAYS, so none
 * starting earlier can reach the window.
 */
function meetingWindow({ start, end }: { start: string; end: string }): SQL {
  const earliest = addDays(start, -MAX_MEETING_DAYS);
  return sql`((not ${meetings.allDay} and ${meetings.startsAt} >= ${earliest}::date::timestamptz
      and ${meetings.startsAt} < (${end}::date + 1)::timestamptz and ${meetings.endsAt} > ${start}::date::timestamptz)
    or (${meetings.allDay} and ${meetings.startDate} >= ${earliest}::date and ${meetings.startDate} <= ${end}::date
      and ${meetings.endDate} >= ${start}::date))`;
}

function meetingRows(options: CalendarEventsOptions, tenantId: string): SQL {
  const owner = options.assignee ? sql`and meetings.owner_id = ${options.assignee}::uuid` : sql``;
  return sql`select 'meeting'::text, 1, meetings.all_day,
      case when meetings.all_day then meetings.start_date::text else ${isoMoment(meetings.startsAt)} end,
      -- An all-day meeting names its last day only when it spans several.
      case when meetings.all_day then nullif(meetings.end_date, meetings.start_date)::text
        else ${isoMoment(meetings.endsAt)} end,
      '/calendar?meeting=' || meetings.id, meetings.title, 'meeting:' || meetings.id,
      null::uuid, null::text, meetings.owner_id, ${userName}, false, null::text,
      coalesce(meetings.start_date::timestamp, meetings.starts_at::timestamp), meetings.title, meetings.id
    from meetings
    left join agency_users u on u.id = meetings.owner_id
    where meetings.tenant_id = ${tenantId}::uuid ${owner} and ${meetingWindow(options)}`;
}

/**
 * The agency's calendar for a window of days as the JSON array the API sends: renewals, unpaid
 * instalments, follow-ups of open leads, claim dates and meetings, read from the records themselves,
 * in order of their moment in the agency's time zone (all-day events first on their day). A month
 * of a large agency holds hundreds of events; written by the database, they reach the client without
 * being parsed and written again. A filter keeps only the events that carry it: with `company`, no
 * follow-ups or meetings; with `assignee`, only follow-ups and meetings. Call it inside a tenant
 * transaction (`withTenant`), which sets the agency's time zone.
 */
export async function calendarEventsJson(
  tx: Transaction,
  tenantId: string,
  options: CalendarEventsOptions,
): Promise<string> {
  const kinds = CALENDAR_EVENT_KINDS.filter(
    (kind) =>
      options.kinds.includes(kind) &&
      !(options.company && (kind === 'follow_up' || kind === 'meeting')) &&
      !(options.assignee && kind !== 'follow_up' && kind !== 'meeting'),
  );
  const parts = datedSources(options, tenantId)
    .filter((source) => kinds.includes(source.kind))
    .map((source, index) => datedRows(source, options, tenantId, index));
  if (kinds.includes('meeting')) parts.push(meetingRows(options, tenantId));
  if (parts.length === 0) return '[]';
  // The busy kinds' days are kept counted and every part reads an index on the window's dates, so
  // one plan serves every window: planning the union anew took longer than running it. The events
  // are aggregated in the order of the sorted subquery, which a plain aggregate over it keeps, and
  // as rows: building each object field by field took longer than reading the records.
  const { rows } = await withGenericPlans(tx, () =>
    tx.execute<{ events: string }>(sql`
      select coalesce(json_agg(event), '[]')::text as events
      from (
        select id, kind, title, all_day, event_start as start, event_end as "end", url, company_id,
          company_name, assignee_id, assignee_name, overdue, amount, n as count
        from (${sql.join(parts, sql` union all `)}) events (${EVENT_COLUMNS})
        order by sort_at, all_day desc, kind, reference, record_id
      ) event`),
  );
  return one(rows).events;
}

/** The calendar's events for a window of days, as objects (see `calendarEventsJson`). */
export async function listCalendarEvents(
  tx: Transaction,
  tenantId: string,
  options: CalendarEventsOptions,
): Promise<CalendarEvent[]> {
  return JSON.parse(await calendarEventsJson(tx, tenantId, options)) as CalendarEvent[];
}

/** Where the meetings among `events` happen and their notes, by event id, for the calendar feed. */
export async function meetingDetails(tx: Transaction, events: CalendarEvent[]) {
  const ids = events.flatMap((event) =>
    event.kind === 'meeting' ? [event.id.slice('meeting:'.length)] : [],
  );
  if (ids.length === 0) return new Map<string, MeetingDetails>();
  const rows = await tx
    .select({
      id: meetings.id,
      location: meetings.location,
      videoUrl: meetings.videoUrl,
      notes: meetings.notes,
    })
    .from(meetings)
    .where(inArray(meetings.id, ids));
  return new Map(rows.map(({ id, ...details }) => [`meeting:${id}`, details]));
}

export interface MeetingDetails {
  location: string;
  videoUrl: string;
  notes: string;
}

const meetingColumns = {
  id: meetings.id,
  title: meetings.title,
  allDay: meetings.allDay,
  startsAt: meetings.startsAt,
  endsAt: meetings.endsAt,
  startDate: meetings.startDate,
  endDate: meetings.endDate,
  customer_id: meetings.customerId,
  customer_name: sql<string>`coalesce(${customers.displayName}, '')`,
  lead_id: meetings.leadId,
  lead_name: sql<string>`coalesce(${leads.displayName}, '')`,
  location: meetings.location,
  video_url: meetings.videoUrl,
  notes: meetings.notes,
  reminder_minutes: meetings.reminderMinutes,
  owner_id: meetings.ownerId,
  owner_name: sql<string>`coalesce(trim(${agencyUsers.firstName} || ' ' || ${agencyUsers.lastName}), '')`,
  createdAt: meetings.createdAt,
  updatedAt: meetings.updatedAt,
};

type MeetingRow = {
  allDay: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
  startDate: string | null;
  endDate: string | null;
  createdAt: Date;
  updatedAt: Date;
} & Omit<Meeting, 'all_day' | 'start' | 'end' | 'created_at' | 'updated_at'>;

const toMeeting = ({
  allDay,
  startsAt,
  endsAt,
  startDate,
  endDate,
  createdAt,
  updatedAt,
  ...row
}: MeetingRow): Meeting => ({
  ...row,
  all_day: allDay,
  start: allDay ? (startDate ?? '') : (startsAt?.toISOString() ?? ''),
  end: allDay ? (endDate ?? '') : (endsAt?.toISOString() ?? ''),
  created_at: createdAt.toISOString(),
  updated_at: updatedAt.toISOString(),
});

const toMeetingColumns = (values: MeetingValues) => ({
  title: values.title,
  allDay: values.all_day,
  startsAt: values.all_day ? null : new Date(values.start),
  endsAt: values.all_day ? null : new Date(values.end),
  startDate: values.all_day ? values.start : null,
  endDate: values.all_day ? values.end : null,
  customerId: values.customer_id,
  leadId: values.lead_id,
  location: values.location,
  videoUrl: values.video_url,
  notes: values.notes,
  reminderMinutes: values.reminder_minutes,
});

/** A meeting with the names of its customer, lead and owner; every join stays within the agency. */
const selectMeetings = (tx: Transaction) =>
  tx
    .select(meetingColumns)
    .from(meetings)
    .leftJoin(
      customers,
      and(eq(customers.tenantId, meetings.tenantId), eq(customers.id, meetings.customerId)),
    )
    .leftJoin(leads, and(eq(leads.tenantId, meetings.tenantId), eq(leads.id, meetings.leadId)))
    .leftJoin(agencyUsers, eq(agencyUsers.id, meetings.ownerId));

export async function findMeeting(
  tx: Transaction,
  tenantId: string,
  id: string,
): Promise<Meeting | undefined> {
  const [row] = await selectMeetings(tx).where(and(eq(meetings.tenantId, tenantId), eq(meetings.id, id)));
  return row && toMeeting(row);
}

/** The meetings overlapping a window of the agency's days, by their start. */
export async function listMeetings(
  tx: Transaction,
  tenantId: string,
  window: { start: string; end: string },
) {
  const rows = await selectMeetings(tx)
    .where(and(eq(meetings.tenantId, tenantId), meetingWindow(window)))
    .orderBy(sql`coalesce(${meetings.startDate}::timestamp, ${meetings.startsAt}::timestamp)`, meetings.id);
  return rows.map(toMeeting);
}

/** Whether the customer and the lead a meeting names are the agency's own (null names none). */
export async function findMeetingParties(tx: Transaction, tenantId: string, values: MeetingValues) {
  const [row] = await tx
    .execute<{ customer: boolean; lead: boolean }>(sql`select
      ${values.customer_id}::uuid is null or exists (select 1 from customers where tenant_id = ${tenantId}::uuid and id = ${values.customer_id}::uuid) as customer,
      ${values.lead_id}::uuid is null or exists (select 1 from leads where tenant_id = ${tenantId}::uuid and id = ${values.lead_id}::uuid) as lead`)
    .then((result) => result.rows);
  return { customerFound: row?.customer ?? false, leadFound: row?.lead ?? false };
}

export async function createMeeting(
  tx: Transaction,
  tenantId: string,
  ownerId: string,
  values: MeetingValues,
) {
  const rows = await tx
    .insert(meetings)
    .values({ tenantId, ownerId, ...toMeetingColumns(values) })
    .returning({ id: meetings.id });
  return one(rows).id;
}

export async function updateMeeting(tx: Transaction, tenantId: string, id: string, values: MeetingValues) {
  await tx
    .update(meetings)
    .set({ ...toMeetingColumns(values), updatedAt: new Date() })
    .where(and(eq(meetings.tenantId, tenantId), eq(meetings.id, id)));
}

export async function deleteMeeting(tx: Transaction, tenantId: string, id: string) {
  const rows = await tx
    .delete(meetings)
    .where(and(eq(meetings.tenantId, tenantId), eq(meetings.id, id)))
    .returning({ id: meetings.id });
  return rows.length > 0;
}
