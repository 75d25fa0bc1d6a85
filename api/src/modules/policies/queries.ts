import type { PageQuery, Policy, PolicyNumberMatch, PolicyStats, PolicyValues } from '@coverdesk/contract';
import { and, asc, desc, eq, getTableColumns, ne, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { PgSelectQueryBuilder } from 'drizzle-orm/pg-core';
import type { Transaction } from '../../db/client.js';
import { countRows, jsonObject, literalLimit, one } from '../../db/query-helpers.js';
import { statementBuilder as qb, reusableStatement } from '../../db/reusable-statement.js';
import { offsetOf } from '../../http/pagination.js';
import { companies, companyPolicyTypes } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import { policyTypes } from '../policy-types/tables.js';
import { assigneeName } from '../team/assignees.js';
import {
  earnedIfRenewedFrom,
  earnedPremium,
  expectedCommission,
  insurerPaidCommission,
  keptReceivedCommission,
  receivedCommission,
} from './commission.js';
import { installmentColumns } from './instalments.js';
import {
  filtersOf,
  type ListQuery,
  type ListShape,
  matching,
  matchingCount,
  ordered,
} from './list-filters.js';
import { bookStatusIs, endedEarlyBy, expiringWithin, policyStatus, typeTotalsStatusIs } from './status.js';
import { installments, policies, policyBookTotals, policyTypeTotals } from './tables.js';

/** The term this one renews. The table is named in full, where drizzle would leave "id" unqualified. */
const renewedFromId = sql<
  string | null
>`(select prior.id from policies prior where prior.renewed_to_id = policies.id)`;

/** Every payment change sums the instalments onto the policy in its own transaction. */
const hasPayments = sql<boolean>`${policies.amountPaid} > 0`;

const columns = {
  id: policies.id,
  policy_number: policies.policyNumber,
  customer: { id: customers.id, first_name: customers.firstName, last_name: customers.lastName },
  customer_name: customers.displayName,
  company_id: policies.companyId,
  company_name: companies.name,
  commission_payment_method: companies.commissionPaymentMethod,
  policy_type_id: policies.policyTypeId,
  policy_type_name: policyTypes.name,
  start_date: policies.startDate,
  end_date: policies.endDate,
  status: policyStatus,
  total_premium: policies.totalPremium,
  net_premium: policies.netPremium,
  commission_percentage: policies.commissionPercentage,
  payment_frequency: policies.paymentFrequency,
  custom_installments: policies.customInstallments,
  insured_item: policies.insuredItem,
  sum_insured: policies.sumInsured,
  deductible: policies.deductible,
  notes: policies.notes,
  cancelled_at: policies.cancelledAt,
  cancellation_reason: policies.cancellationReason,
  cancellation_refund: policies.cancellationRefund,
  renewed_from_id: renewedFromId,
  renewed_to_id: policies.renewedToId,
  not_renewing_reason: policies.notRenewingReason,
  not_renewing_at: policies.notRenewingAt,
  earned_premium: earnedPremium,
  expected_commission: expectedCommission,
  received_commission: receivedCommission,
  insurer_paid_commission: insurerPaidCommission,
  amount_paid: policies.amountPaid,
  installments_paid: policies.installmentsPaid,
  total_installments: policies.totalInstallments,
  assigned_to: policies.assignedTo,
  assigned_to_name: assigneeName(policies.assignedTo),
  producer_split_percentage: policies.producerSplitPercentage,
  createdAt: policies.createdAt,
  updatedAt: policies.updatedAt,
};

/** Policies, or a page of them, with their customers, insurers and types joined. */
export const withParties = <Query extends PgSelectQueryBuilder>(query: Query) =>
  query
    .innerJoin(customers, eq(customers.id, policies.customerId))
    .innerJoin(companies, eq(companies.id, policies.companyId))
    .innerJoin(policyTypes, eq(policyTypes.id, policies.policyTypeId));

const selectPolicies = (tx: Transaction) => withParties(tx.select(columns).from(policies).$dynamic());

type Row = Awaited<ReturnType<typeof selectPolicies>>[number];

const toPolicy = ({ createdAt, updatedAt, not_renewing_at, ...row }: Row): Policy => ({
  ...row,
  not_renewing_at: not_renewing_at?.toISOString() ?? null,
  created_at: createdAt.toISOString(),
  updated_at: updatedAt.toISOString(),
});

/**
 * The same policy as the JSON the API answers with, written by the database: money and rates as
 * exact strings, times as ISO strings with milliseconds, exactly what `toPolicy` gives. A list page
 * is sent as the database wrote it, without decoding twenty rows and encoding them again.
 */
const {
  createdAt,
  updatedAt,
  earned_premium,
  expected_commission,
  received_commission,
  insurer_paid_commission,
  ...sharedColumns
} = columns;
const policyJson = jsonObject({
  ...sharedColumns,
  earned_premium: sql`${earned_premium}::text`,
  expected_commission: sql`${expected_commission}::text`,
  received_commission: sql`${received_commission}::text`,
  insurer_paid_commission: sql`${insurer_paid_commission}::text`,
  created_at: createdAt,
  updated_at: updatedAt,
});

/**
 * A page of policies and how many match, in one statement: the page as the JSON array the API
 * sends. The page is chosen from the policies alone and only its rows meet their customers, insurers
 * and types: joined first, a large agency's plan read every customer to keep twenty. The page is
 * named like the table, so the columns every policy read shares read from it.
 */
const POLICY_LIST = {
  name: 'policy-list',
  description: "The policy list's statement, written once per set of filters, sort and page size.",
};
const policyPage = reusableStatement<ListShape, { count: number; results: string }>(POLICY_LIST, (shape) => {
  const { filters } = shape;
  const where = matching(shape);
  const order = ordered(shape.ordering);
  const matchingPolicies = qb.select(getTableColumns(policies)).from(policies);
  // The customer is joined here only when the search needs the name.
  const page = (
    filters.search
      ? matchingPolicies.innerJoin(customers, eq(customers.id, policies.customerId))
      : matchingPolicies
  )
    .where(where)
    .orderBy(...order)
    .limit(literalLimit(shape.page_size))
    .offset(shape.skips ? sql.placeholder('offset') : 0)
    .as('policies');
  const count = sql`(${matchingCount(shape, where)})`.as('count');
  const results = sql`coalesce(json_agg(${policyJson} order by ${sql.join(order, sql`, `)}), '[]')::text`.as(
    'results',
  );
  return withParties(qb.select({ count, results }).from(page).$dynamic());
});

/** One page of the agency's policies, with the count of all that match. */
export async function listPolicies(tx: Transaction, tenantId: string, query: ListQuery) {
  const { shape: filtered, values: filterValues } = filtersOf(tenantId, query);
  const shape: ListShape = {
    ...filtered,
    page_size: query.page_size,
    skips: query.page > 1,
  };
  const values = { ...filterValues, offset: offsetOf(query) };
  const [row] = await policyPage(tx, shape, values);
  // An empty page is still one row: the aggregate's.
  return { count: row?.count ?? 0, resultsJson: row?.results ?? '[]' };
}

export async function findPolicy(tx: Transaction, tenantId: string, id: string) {
  const [row] = await selectPolicies(tx).where(and(eq(policies.tenantId, tenantId), eq(policies.id, id)));
  return row && toPolicy(row);
}

/**
 * The stored row with what the write rules need to know, locked so that a payment or a second
 * renewal cannot slip in between the check and the change.
 */
export async function findPolicyForChange(tx: Transaction, tenantId: string, id: string) {
  const [row] = await tx
    .select({ ...getTableColumns(policies), hasPayments })
    .from(policies)
    .where(and(eq(policies.tenantId, tenantId), eq(policies.id, id)))
    .for('update');
  return row;
}

/** Whether the renewal `id` ended the term it renews early (so its start is that term's end). */
export async function endedTermEarly(tx: Transaction, tenantId: string, id: string) {
  const found = await tx.select({ id: policies.id }).from(policies).where(endedEarlyBy(tenantId, id));
  return found.length > 0;
}

/**
 * What a renewal from `start` does to the term (`renewalPreview`): a start on or before its end ends
 * it the day before, and it earns as a cancellation on `start` earns; undefined without such a policy.
 */
export async function renewalPreviewOf(
  tx: Transaction,
  tenantId: string,
  id: string,
  start: string | undefined,
) {
  const renewalStart = sql`coalesce(${start ?? null}::date, ${policies.endDate} + 1)`;
  const endsEarly = sql<boolean>`${renewalStart} <= ${policies.endDate}`;
  const ifRenewed = earnedIfRenewedFrom(renewalStart);
  const [row] = await tx
    .select({
      ends_on: sql<string | null>`case when ${endsEarly} then (${renewalStart} - 1)::text end`,
      earned_premium: sql<string>`case when ${endsEarly} then ${ifRenewed.earned_premium} else ${earnedPremium} end`,
      expected_commission: sql<string>`case when ${endsEarly} then ${ifRenewed.expected_commission} else ${expectedCommission} end`,
    })
    .from(policies)
    .where(and(eq(policies.tenantId, tenantId), eq(policies.id, id)));
  return row;
}

/**
 * The agency's other policies numbered `policyNumber`, whatever their insurer or case: insurers may
 * reuse numbers, so this only warns. Checked while a broker types, so a scan of the agency's
 * policies is cheap enough; at most five.
 */
export async function findPoliciesNumbered(
  tx: Transaction,
  tenantId: string,
  policyNumber: string,
  excludeId?: string,
): Promise<PolicyNumberMatch[]> {
  if (!policyNumber) return [];
  return tx
    .select({
      id: policies.id,
      policy_number: policies.policyNumber,
      customer_name: customers.displayName,
      company_name: companies.name,
      start_date: policies.startDate,
      end_date: policies.endDate,
    })
    .from(policies)
    .innerJoin(customers, eq(customers.id, policies.customerId))
    .innerJoin(companies, eq(companies.id, policies.companyId))
    .where(
      and(
        eq(policies.tenantId, tenantId),
        sql`lower(${policies.policyNumber}) = lower(${policyNumber})`,
        excludeId ? ne(policies.id, excludeId) : undefined,
      ),
    )
    .orderBy(desc(policies.startDate), policies.id)
    .limit(5);
}

export async function countPolicies(tx: Transaction, tenantId: string): Promise<number> {
  const [row] = await tx.select({ count: countRows() }).from(policies).where(eq(policies.tenantId, tenantId));
  return row?.count ?? 0;
}

/** What the agency's own records say about the customer, insurer and type a policy names. */
export async function findParties(
  tx: Transaction,
  tenantId: string,
  ids: Pick<PolicyValues, 'customer_id' | 'company_id' | 'policy_type_id'>,
) {
  const [customer] = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), eq(customers.id, ids.customer_id)));
  const [company] = await tx
    .select({ name: companies.name, rate: companyPolicyTypes.commissionPercentage })
    .from(companies)
    .leftJoin(
      companyPolicyTypes,
      and(
        eq(companyPolicyTypes.companyId, companies.id),
        eq(companyPolicyTypes.policyTypeId, ids.policy_type_id),
      ),
    )
    .where(and(eq(companies.tenantId, tenantId), eq(companies.id, ids.company_id)));
  const [policyType] = await tx
    .select({ name: policyTypes.name })
    .from(policyTypes)
    .where(and(eq(policyTypes.tenantId, tenantId), eq(policyTypes.id, ids.policy_type_id)));
  return { customerExists: customer !== undefined, company, policyType };
}

/** A page of the policy's instalments in order, with how many it has. */
export async function listInstallments(
  tx: Transaction,
  tenantId: string,
  policyId: string,
  page: Pick<PageQuery, 'page' | 'page_size'>,
) {
  const ofPolicy = and(eq(installments.tenantId, tenantId), eq(installments.policyId, policyId));
  const [counted] = await tx.select({ count: countRows() }).from(installments).where(ofPolicy);
  const results = await tx
    .select(installmentColumns)
    .from(installments)
    .where(ofPolicy)
    .orderBy(asc(installments.sequence))
    .limit(page.page_size)
    .offset(offsetOf(page));
  return { count: counted?.count ?? 0, results };
}

/**
 * A group of the book's received commission, under its insurer's payout method as it is today.
 * Needs `companies` joined to the group's insurer.
 */
export const bookReceivedCommission = keptReceivedCommission(policyBookTotals);

/**
 * Counts by status, premium in force and commission, for the agency or one insurer, from the book
 * totals: a few hundred groups however large the agency. Commission counts every policy: a renewed or
 * expired term still earned what it earned, and a cancelled one what it earned before its cancellation.
 */
export async function summarizePolicies(
  tx: Transaction,
  tenantId: string,
  filter: { companyId?: string } = {},
): Promise<PolicyStats> {
  const book = policyBookTotals;
  const countOf = (where: SQL) =>
    sql<number>`coalesce(sum(${book.policies}) filter (where ${where}), 0)::int`;
  const sumOf = (amount: SQLWrapper, where: SQL = sql`true`) =>
    sql<string>`round(coalesce(sum(${amount}) filter (where ${where}), 0), 2)`;
  const totals = await tx
    .select({
      total: sql<number>`coalesce(sum(${book.policies}), 0)::int`,
      pending: countOf(bookStatusIs.pending),
      active: countOf(bookStatusIs.active),
      expired: countOf(bookStatusIs.expired),
      cancelled: countOf(bookStatusIs.cancelled),
      renewed: countOf(bookStatusIs.renewed),
      active_premium: sumOf(book.totalPremium, bookStatusIs.active),
      expected_commission: sumOf(book.expectedCommission),
      received_commission: sumOf(bookReceivedCommission),
      expiring_in_30_days: countOf(expiringWithin(30, bookStatusIs, book.endDate)),
    })
    .from(book)
    .innerJoin(companies, eq(companies.id, book.companyId))
    .where(
      and(eq(book.tenantId, tenantId), filter.companyId ? eq(book.companyId, filter.companyId) : undefined),
    );
  const { total, pending, active, expired, cancelled, renewed, ...sums } = one(totals);
  return { total, by_status: { pending, active, expired, cancelled, renewed }, ...sums };
}

/**
 * The policies active today by type, with their premiums, most first: the policy list filtered on
 * active and each type. Read from the kept type totals, a few thousand groups however large the book.
 */
export function activePoliciesByType(tx: Transaction, tenantId: string) {
  const kept = policyTypeTotals;
  const count = sql<number>`sum(${kept.policies})::int`;
  return (
    tx
      .select({
        policy_type_id: kept.policyTypeId,
        policy_type_name: policyTypes.name,
        policies: count,
        premium: sql<string>`round(sum(${kept.totalPremium}), 2)::text`,
      })
      .from(kept)
      .innerJoin(
        policyTypes,
        and(eq(policyTypes.tenantId, kept.tenantId), eq(policyTypes.id, kept.policyTypeId)),
      )
      .where(and(eq(kept.tenantId, tenantId), typeTotalsStatusIs.active))
      .groupBy(kept.policyTypeId, policyTypes.name)
      // Groups whose policies all moved on stay behind as zeros.
      .having(sql`${count} > 0`)
      .orderBy(desc(count), sql`lower(${policyTypes.name})`, kept.policyTypeId)
  );
}
