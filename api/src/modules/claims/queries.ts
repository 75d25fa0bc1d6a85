import {
  CLAIM_AMOUNT_FIELDS,
  CLAIM_STATUS_LABELS,
  CLAIM_STATUSES,
  CLAIM_TRANSITIONS,
  CLAIM_TYPE_LABELS,
  type Claim,
  type ClaimAmountField,
  type ClaimEvent,
  type ClaimStats,
  type ClaimStatus,
  type ClaimValues,
  type claimListQuery,
  type claimStatsQuery,
  toCents,
} from '@coverdesk/contract';
import { and, desc, eq, gte, ilike, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Transaction } from '../../db/client.js';
import { exportRows } from '../../db/cursor.js';
import { containing, countRows, lockUntilCommit, one, orderBy } from '../../db/query-helpers.js';
import { offsetOf } from '../../http/pagination.js';
import { type FileRow, fileLayout } from '../../http/table-file.js';
import { companies } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import { policies } from '../policies/tables.js';
import { assigneeName } from '../team/assignees.js';
import { claimEvents, claims } from './tables.js';

type ListQuery = z.output<typeof claimListQuery>;
type StatsQuery = z.output<typeof claimStatsQuery>;

/** Who did something to a claim, as the timeline names them. */
export interface Author {
  id: string;
  name: string;
}

const incidentOutsideTerm = sql<boolean>`(${claims.incidentDate} < ${policies.startDate} or ${claims.incidentDate} > ${policies.endDate})`;

const columns = {
  id: claims.id,
  claim_number: claims.claimNumber,
  insurer_reference: claims.insurerReference,
  policy: {
    id: policies.id,
    policy_number: policies.policyNumber,
    start_date: policies.startDate,
    end_date: policies.endDate,
  },
  customer: { id: customers.id, name: customers.displayName },
  company_id: companies.id,
  company_name: companies.name,
  incident_date: claims.incidentDate,
  reported_date: claims.reportedDate,
  claim_type: claims.claimType,
  description: claims.description,
  location: claims.location,
  status: claims.status,
  amount_claimed: claims.amountClaimed,
  amount_approved: claims.amountApproved,
  amount_paid: claims.amountPaid,
  adjuster_name: claims.adjusterName,
  adjuster_phone: claims.adjusterPhone,
  adjuster_email: claims.adjusterEmail,
  incident_outside_term: incidentOutsideTerm,
  closed_on: claims.closedOn,
  assigned_to: claims.assignedTo,
  assigned_to_name: assigneeName(claims.assignedTo),
  createdAt: claims.createdAt,
  updatedAt: claims.updatedAt,
};

const selectClaims = (tx: Transaction) =>
  tx
    .select(columns)
    .from(claims)
    .innerJoin(policies, eq(policies.id, claims.policyId))
    .innerJoin(customers, eq(customers.id, policies.customerId))
    .innerJoin(companies, eq(companies.id, policies.companyId))
    .$dynamic();

type Row = Awaited<ReturnType<typeof selectClaims>>[number];

const toClaim = ({ createdAt, updatedAt, ...row }: Row): Claim => ({
  ...row,
  allowed_transitions: [...CLAIM_TRANSITIONS[row.status]],
  created_at: createdAt.toISOString(),
  updated_at: updatedAt.toISOString(),
});

function matchesSearch(term: string): SQL | undefined {
  const pattern = containing(term);
  return or(
    ilike(claims.claimNumber, pattern),
    ilike(claims.insurerReference, pattern),
    ilike(customers.displayName, pattern),
    ilike(policies.policyNumber, pattern),
  );
}

/** The list's filters, which the stats share (without the status); reads policies and customers. */
function matchesFilters(tenantId: string, query: StatsQuery & { status?: ClaimStatus }) {
  return and(
    eq(claims.tenantId, tenantId),
    query.search ? matchesSearch(query.search) : undefined,
    query.status ? eq(claims.status, query.status) : undefined,
    query.claim_type ? eq(claims.claimType, query.claim_type) : undefined,
    query.company_id ? eq(policies.companyId, query.company_id) : undefined,
    query.customer_id ? eq(policies.customerId, query.customer_id) : undefined,
    query.policy_id ? eq(claims.policyId, query.policy_id) : undefined,
    query.assigned_to ? eq(claims.assignedTo, query.assigned_to) : undefined,
    query.incident_date_from ? gte(claims.incidentDate, query.incident_date_from) : undefined,
    query.incident_date_to ? lte(claims.incidentDate, query.incident_date_to) : undefined,
  );
}

/** The list's sort, which its export shares. */
const ordered = (ordering: ListQuery['ordering']) =>
  orderBy(
    ordering,
    {
      incident_date: claims.incidentDate,
      reported_date: claims.reportedDate,
      claim_number: sql`lower(${claims.claimNumber})`,
      amount_claimed: claims.amountClaimed,
      created_at: claims.createdAt,
    },
    claims.id,
  );

export async function listClaims(tx: Transaction, tenantId: string, query: ListQuery) {
  const where = matchesFilters(tenantId, query);
  const [total] = await tx
    .select({ count: countRows() })
    .from(claims)
    .innerJoin(policies, eq(policies.id, claims.policyId))
    .innerJoin(customers, eq(customers.id, policies.customerId))
    .where(where);
  const rows = await selectClaims(tx)
    .where(where)
    .orderBy(...ordered(query.ordering))
    .limit(query.page_size)
    .offset(offsetOf(query));
  return { count: total?.count ?? 0, results: rows.map(toClaim) };
}

/** A claim as a line of the exported list: its policy, incident, amounts and adjuster. */
export const claimFile = fileLayout([
  { field: 'claim_number', heading: 'Claim number', value: claims.claimNumber },
  { field: 'insurer_reference', heading: 'Insurer reference', value: claims.insurerReference },
  { field: 'policy_number', heading: 'Policy number', value: policies.policyNumber },
  { field: 'customer', heading: 'Customer', value: customers.displayName },
  { field: 'insurer', heading: 'Insurer', value: companies.name },
  { field: 'claim_type', heading: 'Type', labels: CLAIM_TYPE_LABELS, value: claims.claimType },
  { field: 'status', heading: 'Status', labels: CLAIM_STATUS_LABELS, value: claims.status },
  { field: 'incident_date', heading: 'Incident date', kind: 'date', value: claims.incidentDate },
  { field: 'reported_date', heading: 'Reported', kind: 'date', value: claims.reportedDate },
  { field: 'location', heading: 'Location', value: claims.location },
  { field: 'description', heading: 'Description', value: claims.description },
  { field: 'amount_claimed', heading: 'Amount claimed', kind: 'money', value: claims.amountClaimed },
  { field: 'amount_approved', heading: 'Amount approved', kind: 'money', value: claims.amountApproved },
  { field: 'amount_paid', heading: 'Amount paid', kind: 'money', value: claims.amountPaid },
  { field: 'adjuster_name', heading: 'Adjuster', value: claims.adjusterName },
  { field: 'adjuster_phone', heading: 'Adjuster phone', value: claims.adjusterPhone },
  { field: 'adjuster_email', heading: 'Adjuster email', value: claims.adjusterEmail },
  { field: 'closed_on', heading: 'Closed on', kind: 'date', value: claims.closedOn },
]);

/** Every claim the list's search and filters match, in its order, a batch at a time. */
export const exportClaims = (
  tx: Transaction,
  tenantId: string,
  query: Omit<ListQuery, 'page' | 'page_size'>,
) =>
  exportRows<FileRow>(
    tx,
    'claims_export',
    tx
      .select({ row: claimFile.row.as('row') })
      .from(claims)
      .innerJoin(policies, eq(policies.id, claims.policyId))
      .innerJoin(customers, eq(customers.id, policies.customerId))
      .innerJoin(companies, eq(companies.id, policies.companyId))
      .where(matchesFilters(tenantId, query))
      .orderBy(...ordered(query.ordering)),
  );

export async function findClaim(tx: Transaction, tenantId: string, id: string): Promise<Claim | undefined> {
  const [row] = await selectClaims(tx).where(and(eq(claims.tenantId, tenantId), eq(claims.id, id)));
  return row && toClaim(row);
}

/** The stored row, locked until the transaction ends so that two changes cannot cross. */
export async function findClaimForChange(tx: Transaction, tenantId: string, id: string) {
  const [row] = await tx
    .select()
    .from(claims)
    .where(and(eq(claims.tenantId, tenantId), eq(claims.id, id)))
    .for('update');
  return row;
}

export async function listClaimEvents(
  tx: Transaction,
  tenantId: string,
  claimId: string,
): Promise<ClaimEvent[]> {
  const rows = await tx
    .select({
      id: claimEvents.id,
      kind: claimEvents.kind,
      from_status: claimEvents.fromStatus,
      to_status: claimEvents.toStatus,
      note: claimEvents.note,
      amountField: claimEvents.amountField,
      amountFrom: claimEvents.amountFrom,
      amountTo: claimEvents.amountTo,
      author_name: claimEvents.authorName,
      createdAt: claimEvents.createdAt,
    })
    .from(claimEvents)
    .where(and(eq(claimEvents.tenantId, tenantId), eq(claimEvents.claimId, claimId)))
    // Ids are UUIDv7: within one moment, the later event still comes first.
    .orderBy(desc(claimEvents.createdAt), desc(claimEvents.id));
  return rows.map(({ createdAt, amountField, amountFrom, amountTo, ...row }) => ({
    ...row,
    amount_change: amountField ? { field: amountField, from: amountFrom, to: amountTo } : null,
    created_at: createdAt.toISOString(),
  }));
}

/** The agency's own policy a claim names, with its term; undefined for any other id. */
export async function findPolicyTerm(tx: Transaction, tenantId: string, policyId: string) {
  const [row] = await tx
    .select({ id: policies.id, startDate: policies.startDate, endDate: policies.endDate })
    .from(policies)
    .where(and(eq(policies.tenantId, tenantId), eq(policies.id, policyId)));
  return row;
}

/**
 * The agency's next claim number of the year the claim was reported (`reportedDate`, by default the
 * agency's today), CLM-2026-0001 and on: one past the highest of that year's shape, whatever numbers
 * brokers typed in between. Claims of one agency are numbered one at a time (a transaction-long lock
 * per agency), so two reported at once never get the same number.
 */
export async function nextClaimNumber(
  tx: Transaction,
  tenantId: string,
  reportedDate?: string,
): Promise<string> {
  await lockUntilCommit(tx, `claims:${tenantId}`);
  const { rows } = await tx.execute<{ number: string }>(sql`
    with reported as (select to_char(coalesce(${reportedDate ?? null}::date, current_date), 'YYYY') as year),
    following as (
      -- Numeric, not bigint: a number typed with any count of digits still counts, so the next one is new.
      select coalesce(max(substring(${claims.claimNumber} from '^CLM-\\d{4}-(\\d+)$')::numeric), 0) + 1 as n
      from ${claims}, reported
      where ${claims.tenantId} = ${tenantId} and ${claims.claimNumber} like 'CLM-' || reported.year || '-%'
    )
    select 'CLM-' || year || '-' || lpad(n::text, greatest(4, length(n::text)), '0') as number
    from reported, following`);
  return one(rows).number;
}

const toColumns = (values: ClaimValues) => ({
  policyId: values.policy_id,
  insurerReference: values.insurer_reference,
  incidentDate: values.incident_date,
  claimType: values.claim_type,
  description: values.description,
  location: values.location,
  amountClaimed: values.amount_claimed,
  amountApproved: values.amount_approved,
  amountPaid: values.amount_paid,
  adjusterName: values.adjuster_name,
  adjusterPhone: values.adjuster_phone,
  adjusterEmail: values.adjuster_email,
  // Left out, the assignee stays as it is.
  ...(values.assigned_to === undefined ? {} : { assignedTo: values.assigned_to }),
});

export async function addClaimEvent(
  tx: Transaction,
  tenantId: string,
  claimId: string,
  author: Author,
  event: { kind: 'created' | 'status' | 'note'; from?: ClaimStatus; to?: ClaimStatus; note?: string },
) {
  await tx.insert(claimEvents).values({
    tenantId,
    claimId,
    kind: event.kind,
    fromStatus: event.from ?? null,
    toStatus: event.to ?? null,
    note: event.note ?? '',
    authorId: author.id,
    authorName: author.name,
  });
}

type StoredAmounts = Record<ClaimAmountField, string | null>;

/**
 * One timeline entry for each amount an edit changed, from the stored amount to the new one. Written
 * last amount first, so that the timeline (newest first) reads them claimed, approved, paid.
 */
export async function addAmountEvents(
  tx: Transaction,
  tenantId: string,
  claimId: string,
  author: Author,
  before: StoredAmounts,
  after: StoredAmounts,
) {
  const changed = CLAIM_AMOUNT_FIELDS.filter((field) => !sameAmount(before[field], after[field]));
  for (const field of changed.reverse()) {
    await tx.insert(claimEvents).values({
      tenantId,
      claimId,
      kind: 'amount',
      amountField: field,
      amountFrom: before[field],
      amountTo: after[field],
      authorId: author.id,
      authorName: author.name,
    });
  }
}

/** "100.0" and "100.00" are one amount; null is none. */
const sameAmount = (a: string | null, b: string | null) =>
  a === null || b === null ? a === b : toCents(a) === toCents(b);

/** Adds an open claim and its first timeline entry; answers its id. */
export async function createClaim(
  tx: Transaction,
  tenantId: string,
  values: ClaimValues & { claim_number: string },
  author: Author,
) {
  const rows = await tx
    .insert(claims)
    .values({
      tenantId,
      ...toColumns(values),
      claimNumber: values.claim_number,
      ...(values.reported_date ? { reportedDate: values.reported_date } : {}),
    })
    .returning({ id: claims.id });
  const { id } = one(rows);
  await addClaimEvent(tx, tenantId, id, author, { kind: 'created', to: 'open' });
  return id;
}

/** Replaces what a broker edits; the status and its dates stay. */
export async function updateClaim(
  tx: Transaction,
  tenantId: string,
  id: string,
  values: ClaimValues & { claim_number: string; reported_date: string },
) {
  await tx
    .update(claims)
    .set({
      ...toColumns(values),
      claimNumber: values.claim_number,
      reportedDate: values.reported_date,
      updatedAt: sql`now()`,
    })
    .where(and(eq(claims.tenantId, tenantId), eq(claims.id, id)));
}

/** Moves a claim to `to`, with the amounts the move records; closing dates it, reopening clears that. */
export async function moveClaim(
  tx: Transaction,
  tenantId: string,
  id: string,
  to: ClaimStatus,
  amounts: { amountApproved: string | null; amountPaid: string },
) {
  await tx
    .update(claims)
    .set({
      status: to,
      amountApproved: amounts.amountApproved,
      amountPaid: amounts.amountPaid,
      closedOn: to === 'closed' ? sql`current_date` : null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(claims.tenantId, tenantId), eq(claims.id, id)));
}

export async function touchClaim(tx: Transaction, tenantId: string, id: string) {
  await tx
    .update(claims)
    .set({ updatedAt: sql`now()` })
    .where(and(eq(claims.tenantId, tenantId), eq(claims.id, id)));
}

/** Its timeline goes with it through the foreign key's cascade. */
export async function deleteClaim(tx: Transaction, tenantId: string, id: string) {
  await tx.delete(claims).where(and(eq(claims.tenantId, tenantId), eq(claims.id, id)));
}

/** Claims still being worked on: every claim not closed. */
const isOpen = ne(claims.status, 'closed');

/**
 * The agency's open claims counted: the claim stats' open count without filters, read on the status
 * index alone (the dashboard's card).
 */
export async function countOpenClaims(tx: Transaction, tenantId: string): Promise<number> {
  const [row] = await tx
    .select({ count: countRows() })
    .from(claims)
    .where(and(eq(claims.tenantId, tenantId), isOpen));
  return row?.count ?? 0;
}

/**
 * The agency's claims matching the list's search and filters (but not its status) counted by status
 * and summed. Days to close are counted from the reported day to the agency day it was last closed,
 * for the claims closed now.
 */
export async function summarizeClaims(
  tx: Transaction,
  tenantId: string,
  query: StatsQuery = {},
): Promise<ClaimStats> {
  const countOf = (status: ClaimStatus) =>
    sql<number>`(count(*) filter (where ${claims.status} = ${status}))::int`;
  const [row] = await tx
    .select({
      total: countRows(),
      not_closed: sql<number>`(count(*) filter (where ${isOpen}))::int`,
      ...Object.fromEntries(CLAIM_STATUSES.map((status) => [status, countOf(status)])),
      amount_claimed: sql<string>`round(coalesce(sum(${claims.amountClaimed}), 0), 2)::text`,
      amount_approved: sql<string>`round(coalesce(sum(${claims.amountApproved}), 0), 2)::text`,
      amount_paid: sql<string>`round(coalesce(sum(${claims.amountPaid}), 0), 2)::text`,
      average_days_to_close: sql<
        string | null
      >`round(avg(${claims.closedOn} - ${claims.reportedDate}) filter (where ${claims.status} = 'closed'), 1)::text`,
    })
    .from(claims)
    .innerJoin(policies, eq(policies.id, claims.policyId))
    .innerJoin(customers, eq(customers.id, policies.customerId))
    .where(matchesFilters(tenantId, query));
  const totals = row as unknown as Record<ClaimStatus | 'total' | 'not_closed', number> & {
    amount_claimed: string;
    amount_approved: string;
    amount_paid: string;
    average_days_to_close: string | null;
  };
  const by_status = Object.fromEntries(CLAIM_STATUSES.map((status) => [status, totals[status]])) as Record<
    ClaimStatus,
    number
  >;
  return {
    total: totals.total,
    by_status,
    open_count: totals.not_closed,
    amount_claimed: totals.amount_claimed,
    amount_approved: totals.amount_approved,
    amount_paid: totals.amount_paid,
    average_days_to_close:
      totals.average_days_to_close === null ? null : Number(totals.average_days_to_close),
  };
}

/** Whether a claim has ever moved from `open`: a claim with a history of moves is kept. */
export async function claimHasMoved(tx: Transaction, tenantId: string, id: string): Promise<boolean> {
  const [moved] = await tx
    .select({ id: claimEvents.id })
    .from(claimEvents)
    .where(
      and(eq(claimEvents.tenantId, tenantId), eq(claimEvents.claimId, id), eq(claimEvents.kind, 'status')),
    )
    .limit(1);
  return moved !== undefined;
}
