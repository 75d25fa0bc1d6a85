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
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { isoMoment, one, withGenericPlans } from '../../db/query-helpers.js';
import { customers } from '../customers/tables.js';
import { agencyUsers, leads } from '../leads/tables.js';
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

/** A row of the events statement: one record, or a day's summary when `n` passes the limit. */
interface EventRow {
  kind: CalendarEventKind;
  record_id: string | null;
  /** Where a day summary's link and an instalment's page lead: the policy. */
  policy_id: string | null;
  n: number;
  all_day: boolean;
  day: string | null;
  end_day: string | null;
  /** UTC ISO moments of a timed event. */
  starts_at: string | null;
  ends_at: string | null;
  reference: string;
  party: string;
  sequence: number | null;
  company_id: string | null;
  company_name: string | null;
  assignee_id: string | null;
  assignee_name: string | null;
  overdue: boolean;
  amount: string | null;
}

const LIMIT = sql.raw(String(CALENDAR_DAY_DETAIL_LIMIT));
const userName = sql`nullif(trim(u.first_name || ' ' || u.last_name), '')`;
const OPEN_LEADS = sql.raw(OPEN_LEAD_STATUSES.map((status) => `'${status}'`).join(', '));

/**
 * One kind of dated record: its table (aliased `r`), the window condition on its dated column, and
 * what a detail row shows. The day counts read only the dated table and its index unless a company
 * filter needs the policy (`p`); details are fetched only for the days at or under the limit.
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
  /** What a day summary sums (an instalment's amount still to pay). */
  summaryAmount?: SQL;
  /** Counted per day in calendar_day_totals, read there unless a company filter narrows the count. */
  keptDays?: true;
  detailJoins: SQL;
  detail: SQL;
}

const policyOf = sql`join policies p on p.tenant_id = r.tenant_id and p.id = r.policy_id`;
const policyParties = sql`join customers cu on cu.tenant_id = p.tenant_id and cu.id = p.customer_id
  join companies co on co.tenant_id = p.tenant_id and co.id = p.company_id`;
const policyColumns = sql`cu.display_name as party, co.id as company_id, co.name as company_name,
  null::uuid as assignee_id, null::text as assignee_name`;

function datedSources({ start, end, assignee }: CalendarEventsOptions, tenantId: string): DatedSource[] {
  const tenant = sql`r.tenant_id = ${tenantId}::uuid`;
  const between = (column: SQL) => sql`${column} >= ${start}::date and ${column} <= ${end}::date`;
  const claimSource = (which: 'incident' | 'reported'): DatedSource => {
    const column = sql.raw(`r.${which}_date`);
    return {
      kind: `claim_${which}`,
      table: sql`claims r`,
      where: sql`${tenant} and ${between(column)}`,
      day: column,
      policyJoin: policyOf,
      detailJoins: sql`${policyOf} ${policyParties}`,
      detail: sql`r.id as record_id, r.policy_id, r.claim_number as reference, null::int as sequence,
        ${policyColumns}, false as overdue, null::numeric as amount`,
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
      policyJoin: sql`join policies p on p.id = r.id`,
      detailJoins: sql`join policies p on p.id = r.id ${policyParties}`,
      detail: sql`r.id as record_id, r.id as policy_id, r.policy_number as reference, null::int as sequence,
        ${policyColumns}, false as overdue, null::numeric as amount`,
    },
    {
      kind: 'installment',
      // Still to be paid: the partial index of unpaid instalments by due date.
      table: sql`installments r`,
      where: sql`${tenant} and r.status <> 'paid' and ${between(sql`r.due_date`)}`,
      day: sql`r.due_date`,
      policyJoin: policyOf,
      summaryAmount: sql`sum(r.amount_due - r.amount_paid)`,
      keptDays: true,
      detailJoins: sql`${policyOf} ${policyParties}`,
      detail: sql`r.id as record_id, r.policy_id, p.policy_number as reference, r.sequence,
        ${policyColumns}, r.due_date < current_date as overdue, r.amount_due - r.amount_paid as amount`,
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
      detailJoins: sql`left join agency_users u on u.id = r.assigned_user_id`,
      detail: sql`r.id as record_id, null::uuid as policy_id, ''::text as reference, null::int as sequence,
        r.display_name as party, null::uuid as company_id, null::text as company_name,
        r.assigned_user_id as assignee_id, ${userName} as assignee_name, false as overdue, null::numeric as amount`,
    },
    claimSource('incident'),
    claimSource('reported'),
  ];
}

/** A kind's rows: each record on a day at or under the limit, and one summary row for a busier day. */
function datedRows(
  source: DatedSource,
  { start, end, company }: CalendarEventsOptions,
  tenantId: string,
  index: number,
): SQL {
  const days = sql.raw(`days_${index}`);
  const byCompany = company ? sql`and p.company_id = ${company}::uuid` : sql``;
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
  return sql`select * from (with ${days} as materialized (${counted})
    select ${source.kind}::text as kind, 1 as n, ${source.moment ? sql`false` : sql`true`} as all_day,
      ${source.moment ? sql`null` : source.day}::text as day, null::text as end_day,
      ${source.moment ? isoMoment(source.moment) : sql`null::text`} as starts_at, null::text as ends_at,
      ${source.moment ? sql`${source.moment}::timestamp` : sql`${source.day}::timestamp`} as sort_at, ${source.detail}
    from ${source.table} ${source.detailJoins}
    where ${source.where} ${byCompany}
      and ${source.day} = any(array(select day from ${days} where n <= ${LIMIT}))
    union all
    select ${source.kind}::text, n, true, day::text, null, null, null, day::timestamp, null, null, '', null, '',
      null, null, null, null, ${source.kind === 'installment' ? sql`day < current_date` : sql`false`}, amount
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
  return sql`select 'meeting'::text as kind, 1 as n, meetings.all_day, meetings.start_date::text as day,
      meetings.end_date::text as end_day, ${isoMoment(meetings.startsAt)} as starts_at,
      ${isoMoment(meetings.endsAt)} as ends_at,
      coalesce(meetings.start_date::timestamp, meetings.starts_at::timestamp) as sort_at, meetings.id as record_id,
      null::uuid as policy_id, meetings.title as reference, null::int as sequence,
      coalesce(
        (select display_name from customers where tenant_id = ${tenantId}::uuid and id = meetings.customer_id),
        (select display_name from leads where tenant_id = ${tenantId}::uuid and id = meetings.lead_id),
        ''
      ) as party, null::uuid as company_id,
      null::text as company_name, meetings.owner_id as assignee_id, ${userName} as assignee_name,
      false as overdue, null::numeric as amount
    -- The names by key, not joined: a join hashed every customer and lead of the agency for a
    -- month's few hundred meetings.
    from meetings
    left join agency_users u on u.id = meetings.owner_id
    where meetings.tenant_id = ${tenantId}::uuid ${owner} and ${meetingWindow(options)}`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const SUMMARY_TITLES: Record<Exclude<CalendarEventKind, 'meeting'>, (n: number) => string> = {
  renewal: (n) => `${plural(n, 'policy', 'policies')} to renew`,
  installment: (n) => `${plural(n, 'instalment', 'instalments')} due`,
  follow_up: (n) => `${plural(n, 'lead', 'leads')} to follow up`,
  claim_incident: (n) => `${plural(n, 'claim incident', 'claim incidents')}`,
  claim_reported: (n) => `${plural(n, 'claim', 'claims')} reported`,
};

/** Where a busy day's summary leads: the list of that kind, filtered to the day where it can be. */
function summaryUrl(kind: CalendarEventKind, day: string, company: string | undefined): string {
  const query = (params: Record<string, string | undefined>) =>
    new URLSearchParams(
      Object.entries(params).filter((entry): entry is [string, string] => !!entry[1]),
    ).toString();
  switch (kind) {
    case 'renewal':
      return `/policies?${query({ end_date_from: day, end_date_to: day, company_id: company })}`;
    case 'installment':
      return `/payments?${query({ status: 'due', due_date_from: day, due_date_to: day, company_id: company })}`;
    case 'claim_incident':
      return `/claims?${query({ incident_date_from: day, incident_date_to: day, company_id: company })}`;
    case 'claim_reported':
      return `/claims?${query({ ordering: '-reported_date', company_id: company })}`;
    default:
      return '/leads?ordering=next_follow_up_at';
  }
}

function detailTitle(row: EventRow): string {
  const of = (reference: string) => [reference, row.party].filter(Boolean).join(' · ');
  switch (row.kind) {
    case 'renewal':
      return `Renewal: ${of(row.reference)}`;
    case 'installment':
      return `Instalment ${row.sequence}: ${of(row.reference)}`;
    case 'follow_up':
      return `Follow up: ${row.party}`;
    case 'claim_incident':
      return `Incident: ${of(row.reference)}`;
    case 'claim_reported':
      return `Claim reported: ${of(row.reference)}`;
    default:
      return row.reference;
  }
}

function detailUrl(row: EventRow): string {
  switch (row.kind) {
    case 'renewal':
      return `/policies/${row.record_id}`;
    case 'installment':
      return `/payments/policy/${row.policy_id}`;
    case 'follow_up':
      return `/leads/${row.record_id}`;
    case 'meeting':
      return `/calendar?meeting=${row.record_id}`;
    default:
      return `/claims/${row.record_id}`;
  }
}

function toEvent(row: EventRow, company: string | undefined): CalendarEvent {
  const summary = row.record_id === null;
  const day = row.day ?? '';
  return {
    id: summary ? `${row.kind}:day:${day}` : `${row.kind}:${row.record_id}`,
    kind: row.kind,
    title: summary && row.kind !== 'meeting' ? SUMMARY_TITLES[row.kind](row.n) : detailTitle(row),
    all_day: row.all_day,
    start: row.all_day ? day : (row.starts_at ?? ''),
    // An all-day event names its last day only when it spans several.
    end: row.all_day ? (row.end_day !== day ? row.end_day : null) : row.ends_at,
    url: summary ? summaryUrl(row.kind, day, company) : detailUrl(row),
    company_id: row.company_id,
    company_name: row.company_name,
    assignee_id: row.assignee_id,
    assignee_name: row.assignee_name,
    overdue: row.overdue,
    amount: row.amount,
    count: row.n,
  };
}

/**
 * The agency's calendar for a window of days: renewals, unpaid instalments, follow-ups of open
 * leads, claim dates and meetings, read from the records themselves, in order of their moment in
 * the agency's time zone (all-day events first on their day). A filter keeps only the events that
 * carry it: with `company`, no follow-ups or meetings; with `assignee`, only follow-ups and meetings.
 * Call it inside a tenant transaction (`withTenant`), which sets the agency's time zone.
 */
export async function listCalendarEvents(
  tx: Transaction,
  tenantId: string,
  options: CalendarEventsOptions,
): Promise<CalendarEvent[]> {
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
  if (parts.length === 0) return [];
  // The busy kinds' days are kept counted and every part reads an index on the window's dates, so
  // one plan serves every window: planning the union anew took longer than running it.
  const { rows } = await withGenericPlans(tx, () =>
    tx.execute<EventRow & Record<string, unknown>>(sql`
      select * from (${sql.join(parts, sql` union all `)}) events
      order by sort_at, all_day desc, kind, reference, record_id`),
  );
  return rows.map((row) => toEvent(row, options.company));
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
