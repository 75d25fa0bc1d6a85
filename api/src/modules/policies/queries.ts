import type {
  PageQuery,
  Policy,
  PolicyNumberMatch,
  PolicyStats,
  PolicyValues,
  policyListQuery,
} from '@coverdesk/contract';
import {
  buildSchedule,
  PAYMENT_FREQUENCY_LABELS,
  POLICY_STATUS_LABELS,
  payInOrder,
  type ScheduledInstallment,
} from '@coverdesk/contract';
import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lte,
  ne,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import type { AnyPgColumn, PgSelectQueryBuilder } from 'drizzle-orm/pg-core';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { Transaction } from '../../db/client.js';
import { uuidv7Batch } from '../../db/columns.js';
import { declareCursor, exportRows } from '../../db/cursor.js';
import { containing, countRows, jsonObject, literalLimit, one, orderBy } from '../../db/query-helpers.js';
import { statementBuilder as qb, reusableStatement, setFilters } from '../../db/reusable-statement.js';
import { numberFound, numberSearch } from '../../db/search-columns.js';
import { offsetOf } from '../../http/pagination.js';
import { type FileRow, fileLayout } from '../../http/table-file.js';
import { companies, companyPolicyTypes } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import { installmentColumns, paymentStatus, policyTotalsRefresh } from '../payments/queries.js';
import { policyTypes } from '../policy-types/tables.js';
import {
  earnedPremium,
  expectedCommission,
  keptReceivedCommission,
  receivedCommission,
} from './commission.js';
import {
  bookStatusIs,
  expiringWithin,
  isOpen,
  policyStatus,
  type StatusConditions,
  statusIs,
  typeTotalsStatusIs,
} from './status.js';
import { installments, policies, policyBookTotals, policyTypeTotals } from './tables.js';

type ListQuery = z.output<typeof policyListQuery>;
type Filters = Omit<ListQuery, 'page' | 'page_size'>;

/** A policy as stored: the form's values with the commission and net premium already resolved. */
export type PolicyInput = Omit<PolicyValues, 'net_premium' | 'commission_percentage'> & {
  net_premium: string;
  commission_percentage: string;
};

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
  amount_paid: policies.amountPaid,
  installments_paid: policies.installmentsPaid,
  total_installments: policies.totalInstallments,
  createdAt: policies.createdAt,
  updatedAt: policies.updatedAt,
};

/** Policies, or a page of them, with their customers, insurers and types joined. */
const withParties = <Query extends PgSelectQueryBuilder>(query: Query) =>
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
const { createdAt, updatedAt, earned_premium, expected_commission, received_commission, ...sharedColumns } =
  columns;
const policyJson = jsonObject({
  ...sharedColumns,
  earned_premium: sql`${earned_premium}::text`,
  expected_commission: sql`${expected_commission}::text`,
  received_commission: sql`${received_commission}::text`,
  created_at: createdAt,
  updated_at: updatedAt,
});

/** A policy's insurer, term and status: on the policy rows, or on the book totals' groups. */
interface Terms {
  companyId: AnyPgColumn;
  startDate: AnyPgColumn;
  endDate: AnyPgColumn;
  status: StatusConditions;
}
const policyTerms: Terms = { ...pick(policies), status: statusIs };
const bookTerms: Terms = { ...pick(policyBookTotals), status: bookStatusIs };

function pick(table: typeof policies | typeof policyBookTotals) {
  return { companyId: table.companyId, startDate: table.startDate, endDate: table.endDate };
}

/** The list's filters that are values, each passed to the statement through a placeholder of its name. */
const LIST_VALUES = [
  'search',
  'company_id',
  'policy_type_id',
  'customer_id',
  'start_date_from',
  'start_date_to',
  'end_date_from',
  'end_date_to',
  'expiring_within_days',
] as const;
type ListValue = (typeof LIST_VALUES)[number];

/**
 * What writes the list's statement, and nothing else: the status, the sort, the page size, whether
 * rows are skipped, and which filters are set. It is the cached statement's key, and the statement
 * is built from it alone, so a cached statement always fits the request that finds it.
 */
interface ListShape {
  status: ListQuery['status'];
  ordering: ListQuery['ordering'];
  page_size: number;
  skips: boolean;
  filters: Record<ListValue, boolean>;
}

/** What the list's filters and sort write, which the export shares: the shape without the page. */
type FilterShape = Omit<ListShape, 'page_size' | 'skips'>;

const value = sql.placeholder;

/** The list filters that only ask about insurer, term and status. */
const termFilters = (shape: FilterShape, terms: Terms) => [
  shape.status ? terms.status[shape.status] : undefined,
  shape.filters.company_id ? eq(terms.companyId, value('company_id')) : undefined,
  shape.filters.start_date_from ? gte(terms.startDate, value('start_date_from')) : undefined,
  shape.filters.start_date_to ? lte(terms.startDate, value('start_date_to')) : undefined,
  shape.filters.end_date_from ? gte(terms.endDate, value('end_date_from')) : undefined,
  shape.filters.end_date_to ? lte(terms.endDate, value('end_date_to')) : undefined,
  shape.filters.expiring_within_days
    ? expiringWithin(value('expiring_within_days'), terms.status, terms.endDate)
    : undefined,
];

/**
 * How many policies match, as a subquery of the page's own statement. The book totals answer
 * unless the filters ask about something they do not group by, so a large agency's page sums a few
 * thousand groups instead of counting every matching policy.
 */
function matchingCount(shape: ListShape, where: SQL | undefined) {
  const { filters } = shape;
  if (filters.search || filters.policy_type_id || filters.customer_id) {
    // The customer is joined only when the search needs the name.
    const counted = qb.select({ count: countRows() }).from(policies);
    return (
      filters.search ? counted.innerJoin(customers, eq(customers.id, policies.customerId)) : counted
    ).where(where);
  }
  return qb
    .select({ count: sql<number>`coalesce(sum(${policyBookTotals.policies}), 0)::int` })
    .from(policyBookTotals)
    .where(and(eq(policyBookTotals.tenantId, value('tenant_id')), ...termFilters(shape, bookTerms)));
}

/** The list's search and filters, which its export shares; reads `customers` when searching. */
function matching(shape: FilterShape) {
  const { filters } = shape;
  return and(
    eq(policies.tenantId, value('tenant_id')),
    filters.search
      ? or(
          numberFound(policies.policyNumber, policies.numberKey, {
            within: value('number_within'),
            ending: value('number_ending'),
            part: value('number_part'),
          }),
          ilike(customers.displayName, value('search')),
        )
      : undefined,
    filters.policy_type_id ? eq(policies.policyTypeId, value('policy_type_id')) : undefined,
    filters.customer_id ? eq(policies.customerId, value('customer_id')) : undefined,
    ...termFilters(shape, policyTerms),
  );
}

/** The list's sort, which its export shares. */
const ordered = (ordering: ListShape['ordering']) =>
  orderBy(
    ordering,
    {
      start_date: policies.startDate,
      end_date: policies.endDate,
      policy_number: sql`lower(${policies.policyNumber})`,
      total_premium: policies.totalPremium,
      created_at: policies.createdAt,
    },
    policies.id,
  );

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
    .offset(shape.skips ? value('offset') : 0)
    .as('policies');
  const count = sql`(${matchingCount(shape, where)})`.as('count');
  const results = sql`coalesce(json_agg(${policyJson} order by ${sql.join(order, sql`, `)}), '[]')::text`.as(
    'results',
  );
  return withParties(qb.select({ count, results }).from(page).$dynamic());
});

/**
 * A search's patterns for the policy number, by the global search's rule (`numberFound`). A search
 * with no letter or digit matches no number, only names.
 */
function numberValues(search: string | undefined) {
  if (search === undefined) return {};
  const number = numberSearch(search);
  return number
    ? { number_within: number.within, number_ending: number.ending, number_part: number.part }
    : { number_within: '', number_ending: '', number_part: '[^\\s\\S]' };
}

/** The list's filters as a statement's shape and values: empty ones filter nothing. */
function filtersOf(
  tenantId: string,
  query: Filters,
): { shape: FilterShape; values: Record<string, unknown> } {
  const { filters, set } = setFilters(query, LIST_VALUES);
  const values = {
    ...filters,
    search: filters.search === undefined ? undefined : containing(filters.search),
    ...numberValues(filters.search),
    tenant_id: tenantId,
  };
  return { shape: { status: query.status, ordering: query.ordering, filters: set }, values };
}

/** One page of the agency's policies, with the count of all that match. */
export async function listPolicies(tx: Transaction, tenantId: string, query: ListQuery) {
  const { shape: filtered, values: filterValues } = filtersOf(tenantId, query);
  const shape: ListShape = { ...filtered, page_size: query.page_size, skips: query.page > 1 };
  const values = { ...filterValues, offset: offsetOf(query) };
  const [row] = await policyPage(tx, shape, values);
  // An empty page is still one row: the aggregate's.
  return { count: row?.count ?? 0, resultsJson: row?.results ?? '[]' };
}

/** A policy as a line of the exported list: its parties, term, money and commission. */
export const policyFile = fileLayout([
  { field: 'policy_number', heading: 'Policy number', value: policies.policyNumber },
  { field: 'customer', heading: 'Customer', value: customers.displayName },
  { field: 'insurer', heading: 'Insurer', value: companies.name },
  { field: 'policy_type', heading: 'Policy type', value: policyTypes.name },
  { field: 'status', heading: 'Status', labels: POLICY_STATUS_LABELS, value: policyStatus },
  { field: 'start_date', heading: 'Start date', kind: 'date', value: policies.startDate },
  { field: 'end_date', heading: 'End date', kind: 'date', value: policies.endDate },
  { field: 'total_premium', heading: 'Total premium', kind: 'money', value: policies.totalPremium },
  { field: 'net_premium', heading: 'Net premium', kind: 'money', value: policies.netPremium },
  {
    field: 'commission_percentage',
    heading: 'Commission %',
    kind: 'number',
    value: policies.commissionPercentage,
  },
  {
    field: 'expected_commission',
    heading: 'Expected commission',
    kind: 'money',
    value: sql`${expectedCommission}::text`,
  },
  {
    field: 'received_commission',
    heading: 'Received commission',
    kind: 'money',
    value: sql`${receivedCommission}::text`,
  },
  {
    field: 'payment_frequency',
    heading: 'Payment frequency',
    labels: PAYMENT_FREQUENCY_LABELS,
    value: policies.paymentFrequency,
  },
  { field: 'amount_paid', heading: 'Amount paid', kind: 'money', value: policies.amountPaid },
  {
    field: 'installments_paid',
    heading: 'Instalments paid',
    kind: 'number',
    value: policies.installmentsPaid,
  },
  { field: 'total_installments', heading: 'Instalments', kind: 'number', value: policies.totalInstallments },
  { field: 'insured_item', heading: 'Insured item', value: policies.insuredItem },
  { field: 'sum_insured', heading: 'Sum insured', kind: 'money', value: policies.sumInsured },
  { field: 'deductible', heading: 'Deductible', kind: 'money', value: policies.deductible },
  { field: 'notes', heading: 'Notes', value: policies.notes },
]);

const EXPORT_CURSOR = 'policies_export';

/** The export's cursor over every matching policy in the list's order, built once per shape like the page. */
const POLICY_EXPORT = {
  name: 'policy-export',
  description: "The policy export's cursor, written once per set of filters and sort.",
};
const declarePolicyExport = reusableStatement<FilterShape, never>(POLICY_EXPORT, (shape) =>
  declareCursor(
    EXPORT_CURSOR,
    withParties(
      qb
        .select({ row: policyFile.row.as('row') })
        .from(policies)
        .$dynamic(),
    )
      .where(matching(shape))
      .orderBy(...ordered(shape.ordering)),
  ),
);

/** Every policy the list's search and filters match, in its order, a batch at a time. */
export function exportPolicies(tx: Transaction, tenantId: string, query: Filters) {
  const { shape, values } = filtersOf(tenantId, query);
  return exportRows<FileRow>(tx, EXPORT_CURSOR, () => declarePolicyExport(tx, shape, values));
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

const toColumns = (input: PolicyInput) => ({
  policyNumber: input.policy_number,
  customerId: input.customer_id,
  companyId: input.company_id,
  policyTypeId: input.policy_type_id,
  startDate: input.start_date,
  endDate: input.end_date,
  totalPremium: input.total_premium,
  netPremium: input.net_premium,
  commissionPercentage: input.commission_percentage,
  paymentFrequency: input.payment_frequency,
  // A count only means something for a custom split; another frequency must not carry a stale one.
  customInstallments: input.payment_frequency === 'custom' ? (input.custom_installments ?? null) : null,
  insuredItem: input.insured_item,
  sumInsured: input.sum_insured ?? null,
  deductible: input.deductible ?? null,
  notes: input.notes,
});

/**
 * What was paid on a new policy before it came into Coverdesk (an import's book): `amount` pays its
 * instalments in due order, each a payment dated its due date but never after `until`, with
 * `reference` saying who recorded it.
 */
export interface PaidBefore {
  amount: string;
  until: string;
  reference: string;
}

/** A policy to add, with the id given, and what was already paid on it. */
export type NewPolicy = PolicyInput & { id: string; paid?: PaidBefore | undefined };

/** The statement adding the policies' instalment schedules; undefined when there are none. */
function scheduleInsert(
  tenantId: string,
  policiesWithSchedules: {
    policyId: string;
    schedule: ScheduledInstallment[];
    paid?: PaidBefore | undefined;
  }[],
): SQL | undefined {
  const rows = policiesWithSchedules.flatMap(({ policyId, schedule, paid }) => {
    const payments = paid ? payInOrder(schedule, paid.amount, paid.until) : [];
    return schedule.map((row, index) => {
      const payment = payments[index];
      const made = payment?.paid_date ? { ...payment, reference: paid?.reference ?? '' } : undefined;
      return { policyId, ...row, payment: made };
    });
  });
  if (rows.length === 0) return undefined;
  const paid = (
    column: (payment: NonNullable<(typeof rows)[number]['payment']>) => string,
    none: string | null,
  ) => sql.param(rows.map((row) => (row.payment ? column(row.payment) : none)));
  const amountPaid = sql.raw('i.amount_paid');
  return sql`
    insert into installments (id, tenant_id, policy_id, sequence, due_date, amount_due, amount_paid,
      paid_date, payment_method, reference, status)
    select i.id, ${tenantId}::uuid, i.policy_id, i.sequence, i.due_date, i.amount_due, i.amount_paid,
      i.paid_date, i.payment_method, i.reference, ${paymentStatus(amountPaid, sql.raw('i.amount_due'))}
    from unnest(${sql.param(uuidv7Batch(rows.length))}::uuid[], ${sql.param(rows.map((row) => row.policyId))}::uuid[],
      ${sql.param(rows.map((row) => row.sequence))}::int[], ${sql.param(rows.map((row) => row.due_date))}::date[],
      ${sql.param(rows.map((row) => row.amount_due))}::numeric[], ${paid((payment) => payment.amount_paid, '0')}::numeric[],
      ${paid((payment) => payment.paid_date ?? '', null)}::date[], ${paid(() => 'other', null)}::text[],
      ${paid((payment) => payment.reference, '')}::text[])
      as i(id, policy_id, sequence, due_date, amount_due, amount_paid, paid_date, payment_method, reference)`;
}

/**
 * A policy as stored from the values a form or an import gives: without a commission percentage the
 * insurer's rate for the type applies, without a net premium the net is the total.
 */
export const policyInput = (values: PolicyValues, rate: string): PolicyInput => ({
  ...values,
  net_premium: values.net_premium ?? values.total_premium,
  commission_percentage: values.commission_percentage ?? rate,
});

/** Rows per statement: each statement runs the book-total and history triggers once. */
const POLICIES_PER_STATEMENT = 10_000;

/**
 * The statements adding policies and their instalment schedules, a few thousand per statement
 * (column arrays turned back into rows by unnest), with the ids given. Built apart from running them,
 * so that an import builds a batch's statements while the batch before it is being written.
 */
function policyInserts(tenantId: string, inputs: NewPolicy[]): SQL[] {
  const statements: SQL[] = [];
  for (let start = 0; start < inputs.length; start += POLICIES_PER_STATEMENT) {
    const batch = inputs.slice(start, start + POLICIES_PER_STATEMENT);
    const schedules = batch.map((input) => buildSchedule(input));
    const rows = batch.map(toColumns);
    const pick = <T>(of: (row: ReturnType<typeof toColumns>) => T) => rows.map(of);
    statements.push(sql`
      insert into policies (id, tenant_id, policy_number, customer_id, company_id, policy_type_id,
        start_date, end_date, total_premium, net_premium, commission_percentage, payment_frequency,
        custom_installments, insured_item, sum_insured, deductible, notes, total_installments)
      select p.id, ${tenantId}::uuid, p.policy_number, p.customer_id, p.company_id, p.policy_type_id,
        p.start_date, p.end_date, p.total_premium, p.net_premium, p.commission_percentage,
        p.payment_frequency, p.custom_installments, p.insured_item, p.sum_insured, p.deductible,
        p.notes, p.total_installments
      from unnest(${sql.param(batch.map((input) => input.id))}::uuid[], ${sql.param(pick((r) => r.policyNumber))}::text[],
        ${sql.param(pick((r) => r.customerId))}::uuid[], ${sql.param(pick((r) => r.companyId))}::uuid[],
        ${sql.param(pick((r) => r.policyTypeId))}::uuid[], ${sql.param(pick((r) => r.startDate))}::date[],
        ${sql.param(pick((r) => r.endDate))}::date[], ${sql.param(pick((r) => r.totalPremium))}::numeric[],
        ${sql.param(pick((r) => r.netPremium))}::numeric[], ${sql.param(pick((r) => r.commissionPercentage))}::numeric[],
        ${sql.param(pick((r) => r.paymentFrequency))}::text[], ${sql.param(pick((r) => r.customInstallments))}::int[],
        ${sql.param(pick((r) => r.insuredItem))}::text[], ${sql.param(pick((r) => r.sumInsured))}::numeric[],
        ${sql.param(pick((r) => r.deductible))}::numeric[], ${sql.param(pick((r) => r.notes))}::text[],
        ${sql.param(schedules.map((schedule) => schedule.length))}::int[])
        as p(id, policy_number, customer_id, company_id, policy_type_id, start_date, end_date,
          total_premium, net_premium, commission_percentage, payment_frequency, custom_installments,
          insured_item, sum_insured, deductible, notes, total_installments)`);
    const instalments = scheduleInsert(
      tenantId,
      batch.map((input, index) => ({
        policyId: input.id,
        schedule: schedules[index] ?? [],
        paid: input.paid,
      })),
    );
    if (instalments) statements.push(instalments);
    const paidOn = batch.filter((input) => input.paid).map((input) => input.id);
    if (paidOn.length > 0) statements.push(policyTotalsRefresh(tenantId, paidOn));
  }
  return statements;
}

/** Runs statements one after another in the caller's transaction. */
export async function runInOrder(tx: Transaction, statements: SQL[]): Promise<void> {
  for (const statement of statements) await tx.execute(statement);
}

/** Adds policies and their instalment schedules, with the ids given. The form adds one, an import thousands. */
export async function createPolicies(tx: Transaction, tenantId: string, inputs: NewPolicy[]): Promise<void> {
  await runInOrder(tx, policyInserts(tenantId, inputs));
}

/**
 * The statements adding policies as `createPolicies` does, but leaving their kept totals (book,
 * history months, customer, type and calendar day totals) for one `catchUpKeptTotals` over every
 * policy so added, later in the same transaction: an import's batches otherwise recompute a
 * customer's totals once per batch.
 */
export function policyInsertsDeferringTotals(tenantId: string, inputs: NewPolicy[]): SQL[] {
  if (inputs.length === 0) return [];
  return [
    sql`select set_config('app.kept_totals_deferred', 'on', true)`,
    ...policyInserts(tenantId, inputs),
    sql`select set_config('app.kept_totals_deferred', '', true)`,
  ];
}

/** Brings the kept totals up to date with policies added by `policyInsertsDeferringTotals`. */
export async function catchUpKeptTotals(tx: Transaction, policyIds: string[]): Promise<void> {
  if (policyIds.length === 0) return;
  await tx.execute(sql`select kept_totals_catch_up(${sql.param(policyIds)}::uuid[])`);
}

/** Adds the policy and its instalments; answers its id. */
export async function createPolicy(tx: Transaction, tenantId: string, input: PolicyInput) {
  const id = uuidv7();
  await createPolicies(tx, tenantId, [{ ...input, id }]);
  return id;
}

/** No longer marked as not renewing. */
const renewingAfterAll = { notRenewingReason: '', notRenewingAt: null };

/**
 * Adds the next term of a policy and links the two. The caller holds the term's row lock and has
 * checked that it is not renewed yet. A term marked as not renewing is renewed after all, so the
 * mark goes.
 */
export async function renewPolicy(tx: Transaction, tenantId: string, termId: string, input: PolicyInput) {
  const renewalId = await createPolicy(tx, tenantId, input);
  await tx
    .update(policies)
    .set({ renewedToId: renewalId, ...renewingAfterAll, updatedAt: sql`now()` })
    .where(and(eq(policies.tenantId, tenantId), eq(policies.id, termId)));
  return renewalId;
}

/**
 * The instalment schedule these values give, when it differs (count, due dates or amounts) from the
 * one stored; undefined when it does not. A changed premium does; a term one day longer usually not.
 */
export async function changedSchedule(tx: Transaction, tenantId: string, id: string, input: PolicyInput) {
  const stored = await tx
    .select({ dueDate: installments.dueDate, amountDue: installments.amountDue })
    .from(installments)
    .where(and(eq(installments.tenantId, tenantId), eq(installments.policyId, id)))
    .orderBy(asc(installments.sequence));
  const next = buildSchedule(input);
  const same =
    next.length === stored.length &&
    next.every(
      (row, index) => row.due_date === stored[index]?.dueDate && row.amount_due === stored[index]?.amountDue,
    );
  return same ? undefined : next;
}

/**
 * Replaces the policy's values; with a `schedule`, its instalments too. Only given a schedule while
 * nothing has been paid, so the paid totals stay as they are: zero.
 */
export async function updatePolicy(
  tx: Transaction,
  tenantId: string,
  id: string,
  input: PolicyInput,
  schedule: ScheduledInstallment[] | undefined,
) {
  await tx
    .update(policies)
    .set({
      ...toColumns(input),
      ...(schedule ? { totalInstallments: schedule.length } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(policies.tenantId, tenantId), eq(policies.id, id)));
  if (!schedule) return;
  await tx
    .delete(installments)
    .where(and(eq(installments.tenantId, tenantId), eq(installments.policyId, id)));
  const instalments = scheduleInsert(tenantId, [{ policyId: id, schedule }]);
  if (instalments) await tx.execute(instalments);
  // A cancelled policy's new schedule calls for nothing after its cancellation either.
  await cancelInstalmentsAfterCancellation(tx, tenantId, id);
}

/** Its instalments go with it through the foreign key's cascade. */
export async function deletePolicy(tx: Transaction, tenantId: string, id: string): Promise<boolean> {
  const deleted = await tx
    .delete(policies)
    .where(and(eq(policies.tenantId, tenantId), eq(policies.id, id)))
    .returning({ id: policies.id });
  return deleted.length > 0;
}

/**
 * Cancels the policy from `cancelled_at` (within its term, checked by the caller), with the refund
 * when the broker entered one, and the instalments due after that day with it. False when there is no
 * such policy or it is already cancelled.
 */
export async function cancelPolicy(
  tx: Transaction,
  tenantId: string,
  id: string,
  cancellation: { cancelled_at: string; reason: string; refund_amount: string | null },
): Promise<boolean> {
  const changed = await tx
    .update(policies)
    .set({
      cancelledAt: cancellation.cancelled_at,
      cancellationReason: cancellation.reason,
      cancellationRefund: cancellation.refund_amount,
      updatedAt: sql`now()`,
    })
    .where(and(eq(policies.tenantId, tenantId), eq(policies.id, id), isNull(policies.cancelledAt)))
    .returning({ id: policies.id });
  if (changed.length === 0) return false;
  await cancelInstalmentsAfterCancellation(tx, tenantId, id);
  return true;
}

/**
 * A cancelled policy's instalments due after its cancellation are `cancelled`: kept for the record,
 * never due again. Paid ones stay paid. Nothing happens to a policy that is not cancelled.
 */
async function cancelInstalmentsAfterCancellation(tx: Transaction, tenantId: string, id: string) {
  await tx
    .update(installments)
    .set({ status: 'cancelled', updatedAt: sql`now()` })
    .where(
      and(
        eq(installments.tenantId, tenantId),
        eq(installments.policyId, id),
        inArray(installments.status, ['pending', 'partially_paid']),
        sql`${installments.dueDate} > (select ${policies.cancelledAt} from ${policies}
          where ${policies.tenantId} = ${tenantId} and ${policies.id} = ${id})`,
      ),
    );
}

/**
 * Marks an open term (neither cancelled nor renewed) as one the agency will not renew, or gives a
 * marked one a new reason. False when there is no such open term.
 */
export async function markNotRenewing(
  tx: Transaction,
  tenantId: string,
  id: string,
  reason: string,
): Promise<boolean> {
  const changed = await tx
    .update(policies)
    .set({ notRenewingReason: reason, notRenewingAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(policies.tenantId, tenantId), eq(policies.id, id), isOpen))
    .returning({ id: policies.id });
  return changed.length > 0;
}

/** Takes the mark off again; nothing happens to a term without one. */
export async function clearNotRenewing(tx: Transaction, tenantId: string, id: string) {
  await tx
    .update(policies)
    .set({ ...renewingAfterAll, updatedAt: sql`now()` })
    .where(and(eq(policies.tenantId, tenantId), eq(policies.id, id), isNotNull(policies.notRenewingAt)));
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
