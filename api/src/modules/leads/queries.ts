import {
  LEAD_SOURCE_LABELS,
  LEAD_STATUS_LABELS,
  LEAD_STATUSES,
  type Lead,
  type LeadAssignee,
  type LeadFollowUp,
  type LeadStats,
  type LeadStatus,
  type LeadValues,
  type leadListQuery,
  OPEN_LEAD_STATUSES,
} from '@coverdesk/contract';
import { and, asc, eq, ilike, inArray, like, or, type SQL, sql } from 'drizzle-orm';
import type { PgSelectQueryBuilder } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Transaction } from '../../db/client.js';
import { exportRows } from '../../db/cursor.js';
import { containing, countRows, one, orderBy } from '../../db/query-helpers.js';
import { offsetOf } from '../../http/pagination.js';
import { agencyDay, agencyTime, type FileRow, fileLayout } from '../../http/table-file.js';
import { digitsOf, digitsOnly } from '../customers/queries.js';
import { policyTypes } from '../policy-types/tables.js';
import { agencyUsers } from '../tenants/tables.js';
import { leads } from './tables.js';

type ListQuery = z.output<typeof leadListQuery>;
type Filters = Omit<ListQuery, 'page' | 'page_size'>;

export const fullName = (table: typeof agencyUsers) =>
  sql<string>`trim(${table.firstName} || ' ' || ${table.lastName})`;

const columns = {
  id: leads.id,
  first_name: leads.firstName,
  last_name: leads.lastName,
  business_name: leads.businessName,
  display_name: leads.displayName,
  email: leads.email,
  phone: leads.phone,
  source: leads.source,
  policy_type_id: leads.policyTypeId,
  policy_type_name: sql<string>`coalesce(${policyTypes.name}, '')`,
  estimated_premium: leads.estimatedPremium,
  status: leads.status,
  lost_reason: leads.lostReason,
  nextFollowUpAt: leads.nextFollowUpAt,
  assigned_user_id: leads.assignedUserId,
  assigned_user_name: sql<string>`coalesce(${fullName(agencyUsers)}, '')`,
  notes: leads.notes,
  customer_id: leads.customerId,
  closedAt: leads.closedAt,
  createdAt: leads.createdAt,
  updatedAt: leads.updatedAt,
};

type Row = {
  nextFollowUpAt: Date | null;
  closedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
} & Omit<Lead, 'next_follow_up_at' | 'closed_at' | 'created_at' | 'updated_at'>;

const toLead = ({ nextFollowUpAt, closedAt, createdAt, updatedAt, ...row }: Row): Lead => ({
  ...row,
  next_follow_up_at: nextFollowUpAt?.toISOString() ?? null,
  closed_at: closedAt?.toISOString() ?? null,
  created_at: createdAt.toISOString(),
  updated_at: updatedAt.toISOString(),
});

/** Leads with their types and assignees; both joins stay within the agency. */
const withLeadParties = <Query extends PgSelectQueryBuilder>(query: Query) =>
  query
    .leftJoin(
      policyTypes,
      and(eq(policyTypes.tenantId, leads.tenantId), eq(policyTypes.id, leads.policyTypeId)),
    )
    .leftJoin(agencyUsers, eq(agencyUsers.id, leads.assignedUserId));

/** A lead with its type's name and its assignee's. */
const selectLeads = (tx: Transaction) => withLeadParties(tx.select(columns).from(leads).$dynamic());

/**
 * The status change and everything else a request writes name its user: the status trigger reads
 * `app.user_id` for the timeline's "who". Ends with the transaction.
 */
export async function actAs(tx: Transaction, userId: string): Promise<void> {
  await tx.execute(sql`select set_config('app.user_id', ${userId}, true)`);
}

/** Enough digits that a phone search by digits is not a match on almost everyone. */
const MIN_SEARCH_DIGITS = 3;

function matchesSearch(term: string): SQL | undefined {
  const pattern = containing(term);
  const digits = digitsOnly(term);
  return or(
    ilike(leads.displayName, pattern),
    ilike(leads.firstName, pattern),
    ilike(leads.lastName, pattern),
    ilike(leads.email, pattern),
    ilike(leads.phone, pattern),
    digits.length >= MIN_SEARCH_DIGITS ? like(digitsOf(leads.phone), containing(digits)) : undefined,
  );
}

const isOpen = inArray(leads.status, [...OPEN_LEAD_STATUSES]);
/** The estimated premium of the rows `filter` keeps, summed to the cent. */
const pipelinePremium = (filter: SQL) =>
  sql<string>`coalesce(sum(${leads.estimatedPremium}) ${filter}, 0)::numeric(14,2)::text`;

/** Open leads by their next follow-up; `current_date` and `::date` are the agency's own day. */
const FOLLOW_UPS: Record<LeadFollowUp, SQL> = {
  overdue: sql`${leads.nextFollowUpAt} < now()`,
  today: sql`(${leads.nextFollowUpAt})::date = current_date`,
  this_week: sql`${leads.nextFollowUpAt} >= current_date::timestamptz
    and ${leads.nextFollowUpAt} < date_trunc('week', current_date::timestamp) + interval '7 days'`,
};

/** Pipeline order, not alphabetical. */
const statusOrder = sql`array_position(array[${sql.join(
  LEAD_STATUSES.map((status) => sql`${status}`),
  sql`, `,
)}]::text[], ${leads.status})`;

/** The list's search and filters, which its export shares. */
function matching(tenantId: string, query: Filters) {
  return and(
    eq(leads.tenantId, tenantId),
    query.search ? matchesSearch(query.search) : undefined,
    query.status ? eq(leads.status, query.status) : undefined,
    query.source ? eq(leads.source, query.source) : undefined,
    query.assigned_user_id ? eq(leads.assignedUserId, query.assigned_user_id) : undefined,
    query.customer_id ? eq(leads.customerId, query.customer_id) : undefined,
    query.follow_up ? and(isOpen, FOLLOW_UPS[query.follow_up]) : undefined,
  );
}

/** The list's sort, which its export shares. */
const ordered = (ordering: Filters['ordering']) =>
  orderBy(
    ordering,
    {
      name: sql`lower(${leads.displayName})`,
      created_at: leads.createdAt,
      // Leads without a follow-up come after every dated one, whichever the direction.
      next_follow_up_at: sql`coalesce(${leads.nextFollowUpAt}, ${ordering.startsWith('-') ? sql`'-infinity'` : sql`'infinity'`}::timestamptz)`,
      estimated_premium: sql`coalesce(${leads.estimatedPremium}, 0)`,
      status: statusOrder,
    },
    leads.id,
  );

/** One page of the list's leads, without counting them all (the dashboard's latest leads). */
export async function listLeadRows(tx: Transaction, tenantId: string, query: ListQuery) {
  const rows = await selectLeads(tx)
    .where(matching(tenantId, query))
    .orderBy(...ordered(query.ordering))
    .limit(query.page_size)
    .offset(offsetOf(query));
  return rows.map(toLead);
}

export async function listLeads(tx: Transaction, tenantId: string, query: ListQuery) {
  const [total] = await tx.select({ count: countRows() }).from(leads).where(matching(tenantId, query));
  return { count: total?.count ?? 0, results: await listLeadRows(tx, tenantId, query) };
}

/** A lead as a line of the exported list: who, from where, what for, and what comes next. */
export const leadFile = fileLayout([
  { field: 'name', heading: 'Name', value: leads.displayName },
  { field: 'first_name', heading: 'First name', value: leads.firstName },
  { field: 'last_name', heading: 'Last name', value: leads.lastName },
  { field: 'business_name', heading: 'Business name', value: leads.businessName },
  { field: 'email', heading: 'Email', value: leads.email },
  { field: 'phone', heading: 'Phone', value: leads.phone },
  { field: 'source', heading: 'Source', labels: LEAD_SOURCE_LABELS, value: leads.source },
  { field: 'policy_type', heading: 'Policy type', value: columns.policy_type_name },
  { field: 'estimated_premium', heading: 'Estimated premium', kind: 'money', value: leads.estimatedPremium },
  { field: 'status', heading: 'Status', labels: LEAD_STATUS_LABELS, value: leads.status },
  { field: 'lost_reason', heading: 'Lost reason', value: leads.lostReason },
  {
    field: 'next_follow_up',
    heading: 'Next follow-up',
    kind: 'time',
    value: agencyTime(leads.nextFollowUpAt),
  },
  { field: 'assigned_to', heading: 'Assigned to', value: columns.assigned_user_name },
  { field: 'notes', heading: 'Notes', value: leads.notes },
  { field: 'created_at', heading: 'Added', kind: 'date', value: agencyDay(leads.createdAt) },
  { field: 'closed_at', heading: 'Closed', kind: 'date', value: agencyDay(leads.closedAt) },
]);

/** Every lead the list's search and filters match, in its order, a batch at a time. */
export const exportLeads = (tx: Transaction, tenantId: string, query: Filters) =>
  exportRows<FileRow>(
    tx,
    'leads_export',
    withLeadParties(
      tx
        .select({ row: leadFile.row.as('row') })
        .from(leads)
        .$dynamic(),
    )
      .where(matching(tenantId, query))
      .orderBy(...ordered(query.ordering)),
  );

/** With `lock`, holds the row until the transaction ends, so a read-modify-write loses no change. */
export async function findLead(tx: Transaction, tenantId: string, id: string, { lock = false } = {}) {
  const query = selectLeads(tx)
    .where(and(eq(leads.tenantId, tenantId), eq(leads.id, id)))
    .$dynamic();
  const [row] = await (lock ? query.for('update', { of: leads }) : query);
  return row && toLead(row);
}

/** The lead a customer came from, if any (a customer is linked to one lead at most). */
export async function findLeadOfCustomer(tx: Transaction, tenantId: string, customerId: string) {
  const [row] = await tx
    .select({ id: leads.id, displayName: leads.displayName })
    .from(leads)
    .where(and(eq(leads.tenantId, tenantId), eq(leads.customerId, customerId)));
  return row;
}

export async function countLeads(tx: Transaction, tenantId: string): Promise<number> {
  const [row] = await tx.select({ count: countRows() }).from(leads).where(eq(leads.tenantId, tenantId));
  return row?.count ?? 0;
}

/** The agency's users, whom leads can be assigned to. */
export async function listAssignees(tx: Transaction): Promise<LeadAssignee[]> {
  return tx
    .select({ id: agencyUsers.id, name: fullName(agencyUsers), email: agencyUsers.email })
    .from(agencyUsers)
    .orderBy(asc(agencyUsers.firstName), asc(agencyUsers.lastName), asc(agencyUsers.id));
}

/** Whether the assignee and the type of interest a lead names are the agency's own. */
export async function findLeadParties(
  tx: Transaction,
  tenantId: string,
  values: Pick<LeadValues, 'assigned_user_id' | 'policy_type_id'>,
) {
  const [user] = values.assigned_user_id
    ? await tx
        .select({ id: agencyUsers.id })
        .from(agencyUsers)
        .where(eq(agencyUsers.id, values.assigned_user_id))
    : [];
  const [type] = values.policy_type_id
    ? await tx
        .select({ id: policyTypes.id })
        .from(policyTypes)
        .where(and(eq(policyTypes.tenantId, tenantId), eq(policyTypes.id, values.policy_type_id)))
    : [];
  return {
    assigneeFound: !values.assigned_user_id || Boolean(user),
    policyTypeFound: !values.policy_type_id || Boolean(type),
  };
}

/** The period's default: the 30 days ending on the agency's today. */
const DEFAULT_PERIOD_DAYS = 30;

/**
 * Counts by status and the open pipeline's estimated premium, now; and the conversion rate over a
 * period: won / (won + lost) among the leads whose last move to won or lost (`closed_at`, in the
 * agency's time zone) falls within it.
 */
export async function summarizeLeads(
  tx: Transaction,
  tenantId: string,
  period: { date_from?: string; date_to?: string },
): Promise<LeadStats> {
  const { rows: days } = await tx.execute<{ date_from: string; date_to: string }>(sql`
    select coalesce(${period.date_from ?? null}::date, coalesce(${period.date_to ?? null}::date, current_date) - ${DEFAULT_PERIOD_DAYS - 1}::int)::text as date_from,
      coalesce(${period.date_to ?? null}::date, current_date)::text as date_to`);
  const { date_from, date_to } = one(days);
  const byStatus = await tx
    .select({ status: leads.status, count: countRows() })
    .from(leads)
    .where(eq(leads.tenantId, tenantId))
    .groupBy(leads.status);
  const inPeriod = sql`(${leads.closedAt})::date between ${date_from}::date and ${date_to}::date`;
  const [totals] = await tx
    .select({
      open_pipeline_premium: pipelinePremium(sql`filter (where ${isOpen})`),
      won: sql<number>`(count(*) filter (where ${leads.status} = 'won' and ${inPeriod}))::int`,
      lost: sql<number>`(count(*) filter (where ${leads.status} = 'lost' and ${inPeriod}))::int`,
    })
    .from(leads)
    .where(eq(leads.tenantId, tenantId));
  const counts = Object.fromEntries(LEAD_STATUSES.map((status) => [status, 0])) as Record<LeadStatus, number>;
  for (const row of byStatus) counts[row.status] = row.count;
  const won = totals?.won ?? 0;
  const lost = totals?.lost ?? 0;
  return {
    total: Object.values(counts).reduce((sum, count) => sum + count, 0),
    by_status: counts,
    open_count: OPEN_LEAD_STATUSES.reduce((sum, status) => sum + counts[status], 0),
    open_pipeline_premium: totals?.open_pipeline_premium ?? '0.00',
    date_from,
    date_to,
    won_in_period: won,
    lost_in_period: lost,
    conversion_rate: won + lost === 0 ? null : percentOf(won, won + lost),
  };
}

/**
 * The open leads counted and their estimated premium summed, as the lead stats count them, read on
 * the status index alone (the dashboard's card).
 */
export async function summarizePipeline(
  tx: Transaction,
  tenantId: string,
): Promise<Pick<LeadStats, 'open_count' | 'open_pipeline_premium'>> {
  const [row] = await tx
    .select({ open_count: countRows(), open_pipeline_premium: pipelinePremium(sql``) })
    .from(leads)
    .where(and(eq(leads.tenantId, tenantId), isOpen));
  return row ?? { open_count: 0, open_pipeline_premium: '0.00' };
}

/** part / whole as a percentage with two decimals, rounded half up, from integers. */
function percentOf(part: number, whole: number): string {
  const hundredths = Math.floor((part * 10_000 * 2 + whole) / (2 * whole));
  return `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
}
