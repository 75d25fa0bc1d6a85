import type {
  CommissionCompanySummary,
  CommissionPaymentStatus,
  CommissionReportRow,
  CommissionSummary,
  commissionReportQuery,
} from '@coverdesk/contract';
import { commissionExportQuery } from '@coverdesk/contract';
import { and, eq, getTableColumns, gte, ilike, lte, or, type SQL, sql } from 'drizzle-orm';
import type { PgSelectQueryBuilder } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Transaction } from '../../db/client.js';
import { fetchInBatches } from '../../db/cursor.js';
import { containing, jsonObject, literalLimit, orderBy } from '../../db/query-helpers.js';
import { statementBuilder as qb, reusableStatement, setFilters } from '../../db/reusable-statement.js';
import { offsetOf } from '../../http/pagination.js';
import { companies } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import {
  expectedCommission,
  insurerPaidCommission,
  owedByInsurer,
  receivedCommission,
} from '../policies/commission.js';
import { overdue, unpaid } from '../policies/instalments.js';
import { bookReceivedCommission } from '../policies/queries.js';
import { policyStatus } from '../policies/status.js';
import { installments, policies, policyBookTotals } from '../policies/tables.js';
import { policyTypes } from '../policy-types/tables.js';

// The commission report's statements. Every figure is one of the policy module's own expressions
// (commission.ts, status.ts, the overdue rule of the payments list), summed in the database, so the
// report never disagrees with a policy page by a cent.

type ReportQuery = z.output<typeof commissionReportQuery>;
type ExportQuery = z.output<typeof commissionExportQuery>;

const FILTERS = [
  'start_date',
  'end_date',
  'company_id',
  'policy_type_id',
  'payment_status',
  'search',
] as const;
export type FilterName = (typeof FILTERS)[number];

const value = sql.placeholder;

/** The payments list's overdue rule, on the policy's own instalments. */
const overdueOf = (policyId: SQL) =>
  sql`exists (select 1 from ${installments} where ${and(
    eq(installments.tenantId, policies.tenantId),
    eq(installments.policyId, policyId),
    overdue,
  )})`;

/** A cancelled policy whose instalments left due (those up to its cancellation) are all paid. */
const settledOnCancellation = sql`(${policies.cancelledAt} is not null and not exists (
  select 1 from ${installments} where ${and(
    eq(installments.tenantId, policies.tenantId),
    eq(installments.policyId, policies.id),
    unpaid,
  )}))`;

/**
 * A policy's payment status, in this order: every instalment paid (those cancelled with the policy
 * aside); an unpaid instalment past its due date (the payments list's overdue rule, on the agency's
 * today); something paid; nothing paid. `hasOverdue` says whether the policy has an overdue instalment.
 */
const paymentStatusOf = (hasOverdue: SQL) => sql<CommissionPaymentStatus>`case
  when ${policies.installmentsPaid} >= ${policies.totalInstallments} or ${settledOnCancellation} then 'Paid'
  when ${hasOverdue} then 'Overdue'
  when ${policies.amountPaid} > 0 then 'Partial'
  else 'Pending' end`;

/** For a page's rows: a look at each policy's own instalments through their policy index. */
export const paymentStatus = paymentStatusOf(overdueOf(sql`${policies.id}`));

/**
 * For a filter over the whole book: the agency's overdue instalments read once from their partial
 * index and hashed, instead of a look per policy.
 */
const overdueInstalments = qb
  .select({ policyId: installments.policyId })
  .from(installments)
  .where(and(eq(installments.tenantId, value('tenant_id')), overdue));
const paymentStatusOfBook = paymentStatusOf(sql`${policies.id} in (${overdueInstalments})`);

const outstanding = sql`(${expectedCommission} - ${receivedCommission})`;

/** "12.34": part x 100 / whole to the cent, half-up (numeric round), and 0.00 when the whole is 0. */
const percentOf = (part: SQL, whole: SQL) =>
  sql<string>`(case when ${whole} > 0 then round(${part} * 100 / ${whole}, 2) else 0.00 end)::text`;

/** One report row, every field as the API writes it: money and rates as exact strings. */
export const rowFields = {
  policy_id: policies.id,
  policy_number: policies.policyNumber,
  customer_id: policies.customerId,
  customer_name: customers.displayName,
  company_id: policies.companyId,
  company_name: companies.name,
  company_commission_type: companies.commissionType,
  commission_payment_method: companies.commissionPaymentMethod,
  policy_type_id: policies.policyTypeId,
  policy_type_name: policyTypes.name,
  status: policyStatus,
  start_date: sql`${policies.startDate}::text`,
  end_date: sql`${policies.endDate}::text`,
  total_premium: sql`${policies.totalPremium}::text`,
  net_premium: sql`${policies.netPremium}::text`,
  commission_percentage: sql`${policies.commissionPercentage}::text`,
  expected_commission: sql`${expectedCommission}::text`,
  received_commission: sql`${receivedCommission}::text`,
  outstanding_commission: sql`${outstanding}::text`,
  received_commission_percentage: percentOf(receivedCommission, expectedCommission),
  payment_status: paymentStatus,
  installments_paid: policies.installmentsPaid,
  total_installments: policies.totalInstallments,
  amount_paid: sql`${policies.amountPaid}::text`,
  insurer_paid_commission: sql`${insurerPaidCommission}::text`,
  owed_by_insurer: sql`round(${owedByInsurer}, 2)::text`,
  created_at: sql`to_char(${policies.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
};

/** What writes a statement: which filters are set and the sort; it is the cached statement's key. */
export interface Shape {
  filters: Record<FilterName, boolean>;
  ordering: ExportQuery['ordering'];
}

/**
 * The policies the report covers: the agency's policies (a cancelled one with the commission it
 * earned before its cancellation, as in the policy totals), whose term overlaps the period and that
 * match the filters. The period's bounds are inclusive and either may be left out.
 */
export function matching({ filters }: Pick<Shape, 'filters'>): SQL | undefined {
  return and(
    eq(policies.tenantId, value('tenant_id')),
    filters.start_date ? gte(policies.endDate, value('start_date')) : undefined,
    filters.end_date ? lte(policies.startDate, value('end_date')) : undefined,
    filters.company_id ? eq(policies.companyId, value('company_id')) : undefined,
    filters.policy_type_id ? eq(policies.policyTypeId, value('policy_type_id')) : undefined,
    filters.payment_status ? sql`${paymentStatusOfBook} = ${value('payment_status')}` : undefined,
    filters.search
      ? or(ilike(policies.policyNumber, value('search')), ilike(customers.displayName, value('search')))
      : undefined,
  );
}

function ordered(shape: Shape): SQL[] {
  return orderBy(
    shape.ordering,
    {
      policy_number: sql`lower(${policies.policyNumber})`,
      customer_name: sql`lower(${customers.displayName})`,
      company_name: sql`lower(${companies.name})`,
      policy_type_name: sql`lower(${policyTypes.name})`,
      start_date: policies.startDate,
      end_date: policies.endDate,
      total_premium: policies.totalPremium,
      amount_paid: policies.amountPaid,
      expected_commission: expectedCommission,
      received_commission: receivedCommission,
      outstanding_commission: outstanding,
      created_at: policies.createdAt,
    },
    policies.id,
  );
}

/** The report's rows, each as the JSON object the API sends. */
const rowJson = jsonObject(rowFields);

/** A policy's customer, insurer and type, joined to it. */
const partiesOf = sql`inner join ${customers} on ${eq(customers.id, policies.customerId)}
  inner join ${companies} on ${eq(companies.id, policies.companyId)}
  inner join ${policyTypes} on ${eq(policyTypes.id, policies.policyTypeId)}`;

const withParties = <Query extends PgSelectQueryBuilder>(query: Query) =>
  query
    .innerJoin(customers, eq(customers.id, policies.customerId))
    .innerJoin(companies, eq(companies.id, policies.companyId))
    .innerJoin(policyTypes, eq(policyTypes.id, policies.policyTypeId));

/** Every matching row as the API writes it, in the requested order. */
const rowsOf = (shape: Shape) =>
  withParties(
    qb
      .select({ row: sql`${rowJson}`.as('row') })
      .from(policies)
      .$dynamic(),
  )
    .where(matching(shape))
    .orderBy(...ordered(shape));

/** A column of the aggregate below, by name. */
const total = (name: string) => sql`${sql.identifier('totals')}.${sql.identifier(name)}`;

/** What the totals add up, per policy or per group of the book. */
interface Summed {
  company: SQL;
  policies: SQL;
  premium: SQL;
  net: SQL;
  expected: SQL;
  received: SQL;
  paid: SQL;
}

/**
 * The totals' source. Filtered only by period and insurer, the book totals answer: the policies
 * summed by insurer, term and standing (kept by a trigger, see policies/tables.ts), so a
 * 100,000-policy agency adds up a few thousand groups. Any other filter reads the policies.
 */
function summedFrom(shape: Shape): { summed: Summed; from: SQL } {
  const { filters } = shape;
  if (!filters.policy_type_id && !filters.payment_status && !filters.search) {
    const book = policyBookTotals;
    return {
      summed: {
        company: sql`${book.companyId}`,
        policies: sql`${book.policies}`,
        premium: sql`${book.totalPremium}`,
        net: sql`${book.netPremium}`,
        expected: sql`${book.expectedCommission}`,
        received: bookReceivedCommission,
        paid: sql`${book.amountPaid}`,
      },
      from: sql`${book} inner join ${companies} on ${eq(companies.id, book.companyId)}
        where ${and(
          eq(book.tenantId, value('tenant_id')),
          filters.start_date ? gte(book.endDate, value('start_date')) : undefined,
          filters.end_date ? lte(book.startDate, value('end_date')) : undefined,
          filters.company_id ? eq(book.companyId, value('company_id')) : undefined,
        )}`,
    };
  }
  // The customer is joined only when the search needs the name.
  const searchJoin = filters.search
    ? sql`inner join ${customers} on ${eq(customers.id, policies.customerId)}`
    : sql``;
  return {
    summed: {
      company: sql`${policies.companyId}`,
      policies: sql`1`,
      premium: sql`${policies.totalPremium}`,
      net: sql`${policies.netPremium}`,
      expected: expectedCommission,
      received: receivedCommission,
      paid: sql`${policies.amountPaid}`,
    },
    from: sql`${policies} inner join ${companies} on ${eq(companies.id, policies.companyId)} ${searchJoin}
      where ${matching(shape)}`,
  };
}

/**
 * The agency's totals and each insurer's from one aggregate: grouping sets give the grand total
 * (`is_total`) and a row per insurer in the same pass.
 */
function totalsOf(shape: Shape): SQL {
  const { summed, from } = summedFrom(shape);
  const sum = (value: SQL) => sql`coalesce(sum(${value}), 0)`;
  const money = (value: SQL) => sql`round(${value}, 2)::text`;
  const [premium, expected, received, paid] = [
    summed.premium,
    summed.expected,
    summed.received,
    summed.paid,
  ].map(sum) as [SQL, SQL, SQL, SQL];
  return sql`select
      ${summed.company} as company_id,
      grouping(${summed.company}) = 1 as is_total,
      min(${companies.name}) as company_name,
      min(${companies.commissionType}) as company_commission_type,
      min(${companies.commissionPaymentMethod}) as commission_payment_method,
      ${sum(summed.policies)}::int as total_policies,
      ${money(premium)} as total_premium,
      ${money(expected)} as total_expected_commission,
      ${money(received)} as total_received_commission,
      ${money(paid)} as total_paid,
      ${money(sql`${premium} - ${paid}`)} as total_pending,
      ${money(sql`${expected} - ${received}`)} as outstanding_commission,
      ${percentOf(received, expected)} as commission_received_percentage,
      ${percentOf(expected, sum(summed.net))} as average_commission_percentage
    from ${from}
    group by grouping sets ((), (${summed.company}))
    having ${sum(summed.policies)} > 0 or grouping(${summed.company}) = 1`;
}

const summaryJson = jsonObject({
  total_policies: total('total_policies'),
  total_premium: total('total_premium'),
  total_commission: total('total_expected_commission'),
  total_expected_commission: total('total_expected_commission'),
  total_received_commission: total('total_received_commission'),
  total_paid: total('total_paid'),
  total_pending: total('total_pending'),
  total_earned: total('total_received_commission'),
  outstanding_commission: total('outstanding_commission'),
  commission_received_percentage: total('commission_received_percentage'),
  average_commission_percentage: total('average_commission_percentage'),
});

const companyJson = jsonObject({
  company_id: total('company_id'),
  company_name: total('company_name'),
  company_commission_type: total('company_commission_type'),
  commission_payment_method: total('commission_payment_method'),
  total_policies: total('total_policies'),
  total_premium: total('total_premium'),
  total_expected_commission: total('total_expected_commission'),
  total_received_commission: total('total_received_commission'),
  outstanding_commission: total('outstanding_commission'),
  commission_received_percentage: total('commission_received_percentage'),
});

interface PageShape extends Shape {
  page_size: number;
  skips: boolean;
  /** False answers the totals alone. */
  rows: boolean;
}

/**
 * A page of the report with the totals over every matching policy, in one statement: the page
 * (read in order through the policies' indexes when sorted by a date) and one aggregate pass for
 * the agency's and the insurers' totals.
 */
const REPORT = {
  name: 'commission-report',
  description:
    "The commission report's page and totals statement, written once per set of filters, sort and page size.",
};
const reportStatement = reusableStatement<
  PageShape,
  { count: number; rows: string; summary: string; company_summary: string }
>(REPORT, (shape) => {
  // The page is chosen first, then its twenty rows are written out: so the payment status looks at
  // those policies' instalments only. The page is named like the table, so every expression on
  // policies reads from it.
  const order = ordered(shape);
  const page = withParties(qb.select(getTableColumns(policies)).from(policies).$dynamic())
    .where(matching(shape))
    .orderBy(...order)
    .limit(literalLimit(shape.page_size))
    .offset(shape.skips ? value('offset') : 0)
    .as('policies');
  const rows = shape.rows
    ? sql`(select coalesce(json_agg(${rowJson} order by ${sql.join(order, sql`, `)}), '[]')::text
        from ${page} ${partiesOf})`
    : sql`'[]'`;
  const isTotal = total('is_total');
  return sql`select
      coalesce(max(${total('total_policies')}) filter (where ${isTotal}), 0) as count,
      ${rows} as rows,
      (json_agg(${summaryJson}) filter (where ${isTotal}) -> 0)::text as summary,
      coalesce(json_agg(${companyJson} order by lower(${total('company_name')}), ${total('company_id')})
        filter (where not ${isTotal}), '[]')::text as company_summary
    from (${totalsOf(shape)}) totals`;
});

function shapeOf(query: ExportQuery): { shape: Shape; values: Record<string, unknown> } {
  const { filters, set } = setFilters(query, FILTERS);
  const shape: Shape = { filters: set, ordering: query.ordering };
  const values = {
    ...filters,
    search: filters.search === undefined ? undefined : containing(filters.search),
  };
  return { shape, values };
}

/** The report as the JSON the API sends: the page's rows, the totals and the paging. */
export async function commissionReport(tx: Transaction, tenantId: string, query: ReportQuery) {
  const { shape, values } = shapeOf(query);
  const [row] = await reportStatement(
    tx,
    {
      ...shape,
      page_size: query.page_size,
      skips: query.page > 1,
      rows: query.include === 'commission_data',
    },
    { ...values, tenant_id: tenantId, offset: offsetOf(query) },
  );
  if (!row) throw new Error('an aggregate always answers one row');
  const totalPages = Math.max(1, Math.ceil(row.count / query.page_size));
  const pagination = {
    page: query.page,
    page_size: query.page_size,
    total_items: row.count,
    total_pages: totalPages,
    has_next: query.page < totalPages,
    has_previous: query.page > 1,
  };
  return `{"commission_data":${row.rows},"summary":${row.summary},"company_summary":${row.company_summary},"pagination":${JSON.stringify(pagination)}}`;
}

/** The totals alone, for the PDF's first page. */
export async function commissionTotals(tx: Transaction, tenantId: string, query: ExportQuery) {
  const { shape, values } = shapeOf(query);
  const [row] = await reportStatement(
    tx,
    { ...shape, page_size: 1, skips: false, rows: false },
    { ...values, tenant_id: tenantId },
  );
  if (!row) throw new Error('an aggregate always answers one row');
  return {
    summary: JSON.parse(row.summary) as CommissionSummary,
    company_summary: JSON.parse(row.company_summary) as CommissionCompanySummary[],
  };
}

/**
 * "Commission this year" (docs/figures.md): the report's totals for the calendar year `today` falls in,
 * that is the policies whose term overlaps it. The dashboard and the current portfolio both read it
 * here, so they cannot disagree with each other or with the report filtered on the year.
 */
export async function commissionThisYear(tx: Transaction, tenantId: string, today: string) {
  const year = today.slice(0, 4);
  const period = { start_date: `${year}-01-01`, end_date: `${year}-12-31` };
  const totals = await commissionTotals(tx, tenantId, commissionExportQuery.parse(period));
  return { year: Number(year), ...period, ...totals };
}

/** Rows per fetch from an export's cursor: what one batch holds in memory. */
export const EXPORT_BATCH_ROWS = 500;

const CURSOR = 'commission_export';

/**
 * Every matching row, in order, read through a cursor in batches of `EXPORT_BATCH_ROWS`: an export
 * of the whole book holds one batch at a time, and reads one consistent view of it. Runs inside the
 * tenant transaction and ends with it, so one export per transaction.
 */
const EXPORT = {
  name: 'commission-export',
  description: "The commission report export's cursor, written once per set of filters and sort.",
};
const exportCursor = reusableStatement<Shape, never>(
  EXPORT,
  (shape) => sql`declare ${sql.raw(CURSOR)} no scroll cursor for ${rowsOf(shape)}`,
);

export async function* exportRows(
  tx: Transaction,
  tenantId: string,
  query: ExportQuery,
  batchRows = EXPORT_BATCH_ROWS,
): AsyncGenerator<CommissionReportRow[]> {
  const { shape, values } = shapeOf(query);
  await exportCursor(tx, shape, { ...values, tenant_id: tenantId });
  for await (const batch of fetchInBatches<{ row: CommissionReportRow }>(tx, CURSOR, batchRows)) {
    yield batch.map(({ row }) => row);
  }
}
