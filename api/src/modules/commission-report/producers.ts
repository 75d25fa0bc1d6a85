import type {
  ProducerShare,
  ProducerStatementRow,
  producerReportQuery,
  producerStatementQuery,
} from '@coverdesk/contract';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Transaction } from '../../db/client.js';
import { fetchInBatches } from '../../db/cursor.js';
import { jsonObject } from '../../db/query-helpers.js';
import { reusableStatement, setFilters } from '../../db/reusable-statement.js';
import { asConnectingRole } from '../../db/tenant.js';
import { users } from '../accounts/tables.js';
import { companies } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import { expectedCommission, receivedCommission } from '../policies/commission.js';
import { policies } from '../policies/tables.js';
import { EXPORT_BATCH_ROWS, type FilterName, matching } from './queries.js';

// Producer shares: the commission report's own policies and figures (its `matching` filter, and the
// policy module's expected and received commission that every row of the report shows), grouped by
// the member credited with each term (its producer, recorded when the term was written: never its
// assignee now, so handing a book on changes no past figure). A producer's share of a policy is its
// commission x the split % recorded for the term / 100, rounded half-up to the cent per policy, then
// summed: so a statement's lines add up to its total, and the producers' view to the statements.

type ReportQuery = z.output<typeof producerReportQuery>;
type StatementQuery = z.output<typeof producerStatementQuery>;

/** A member of the agency as a producer: their name. */
export interface Producer {
  id: string;
  name: string;
}

/**
 * The agency's members, former ones included (their credit stays). `users` is a platform table: this
 * reads it as the connecting role, naming the agency itself.
 */
export async function agencyProducers(tx: Transaction, tenantId: string): Promise<Producer[]> {
  const rows = await asConnectingRole(tx, () =>
    tx
      .select({
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
      })
      .from(users)
      .where(eq(users.tenantId, tenantId))
      .orderBy(asc(users.id)),
  );
  return rows.map((row) => ({
    id: row.id,
    name: `${row.firstName} ${row.lastName}`.trim() || row.email,
  }));
}

const value = sql.placeholder;

/** The report's filters these views take: the period and the insurer. */
const FILTERS = ['start_date', 'end_date', 'company_id'] as const satisfies readonly FilterName[];

interface Shape {
  filters: Record<FilterName, boolean>;
}

/** The members' names, sent as one JSON value and read as a table. */
const names = sql`json_to_recordset(${value('producers')}::json) as producers(id uuid, name text)`;
const producer = (column: string) => sql`${sql.identifier('producers')}.${sql.identifier(column)}`;

/**
 * The split that applies to a term, in percent: its own override, else its producer's default share
 * in force when it was written (recorded on the term); 0 when nobody is credited.
 */
const splitOf = sql`(case when ${policies.producerId} is null then 0
  else coalesce(${policies.producerSplitPercentage}, ${policies.producerShare}, 0) end)::numeric(5, 2)`;

/** The producer's share of a policy's commission, half-up to the cent (numeric round). */
const shareOf = (commission: SQL) => sql`round(${commission} * ${splitOf} / 100, 2)`;

/** The report's policies for the period and insurer, each with its insurer and producer. */
const policiesOf = (shape: Shape) => sql`${policies}
  inner join ${companies} on ${eq(companies.id, policies.companyId)}
  left join ${names} on ${producer('id')} = ${policies.producerId}
  where ${matching(shape)}`;

const PRODUCERS = {
  name: 'commission-producers',
  description: "The producers' shares statement, written once per set of filters.",
};

interface ProducerTotalsRow {
  user_id: string | null;
  name: string | null;
  is_total: boolean;
  policies: number;
  expected_commission: string;
  producer_share_expected: string;
  received_commission: string;
  producer_share_received: string;
}

/**
 * One aggregate: a row per producer (null for the terms credited to nobody) and the total
 * (`is_total`), from grouping sets in the same pass.
 */
const producersStatement = reusableStatement<Shape & { one: boolean }, ProducerTotalsRow>(
  PRODUCERS,
  (shape) => {
    const money = (summed: SQL) => sql`coalesce(sum(${summed}), 0)::numeric(14, 2)::text`;
    return sql`select
      ${policies.producerId} as user_id,
      grouping(${policies.producerId}) = 1 as is_total,
      min(${producer('name')}) as name,
      count(*)::int as policies,
      ${money(expectedCommission)} as expected_commission,
      ${money(shareOf(expectedCommission))} as producer_share_expected,
      ${money(receivedCommission)} as received_commission,
      ${money(shareOf(receivedCommission))} as producer_share_received
    from ${policiesOf(shape)}
      ${shape.one ? sql`and ${eq(policies.producerId, value('user_id'))}` : sql``}
    group by grouping sets ((), (${policies.producerId}))
    order by is_total, ${policies.producerId} is null, lower(min(${producer('name')})), ${policies.producerId}`;
  },
);

function shapeOf(query: ReportQuery) {
  const { filters, set } = setFilters(
    { start_date: query.date_from, end_date: query.date_to, company_id: query.company_id },
    FILTERS,
  );
  const shape: Shape = {
    filters: { ...set, policy_type_id: false, payment_status: false, search: false },
  };
  return { shape, values: filters };
}

const producersJson = (producers: Producer[]) =>
  JSON.stringify(producers.map(({ id, name }) => ({ id, name })));

const figuresOf = (row: ProducerTotalsRow) => ({
  policies: row.policies,
  expected_commission: row.expected_commission,
  producer_share_expected: row.producer_share_expected,
  received_commission: row.received_commission,
  producer_share_received: row.producer_share_received,
});

/** Each producer's commission and share over the period, and their sums. */
export async function producerShares(tx: Transaction, tenantId: string, query: ReportQuery) {
  const producers = await agencyProducers(tx, tenantId);
  const { shape, values } = shapeOf(query);
  const rows = await producersStatement(
    tx,
    { ...shape, one: false },
    { ...values, tenant_id: tenantId, producers: producersJson(producers) },
  );
  const total = rows.find((row) => row.is_total);
  if (!total) throw new Error('an aggregate always answers its total');
  const results: ProducerShare[] = rows
    .filter((row) => !row.is_total)
    .map((row) => ({
      user_id: row.user_id,
      name: row.user_id === null ? 'Unassigned' : (row.name ?? 'Former member'),
      ...figuresOf(row),
    }));
  return { results, totals: figuresOf(total) };
}

/** One producer's totals over the period: their row of the producers' view. */
export async function producerTotals(
  tx: Transaction,
  tenantId: string,
  producer: Producer,
  query: StatementQuery,
) {
  const { shape, values } = shapeOf(query);
  const rows = await producersStatement(
    tx,
    { ...shape, one: true },
    { ...values, tenant_id: tenantId, user_id: producer.id, producers: producersJson([producer]) },
  );
  const total = rows.find((row) => row.is_total);
  if (!total) throw new Error('an aggregate always answers its total');
  return figuresOf(total);
}

const statementRow = jsonObject({
  policy_id: policies.id,
  policy_number: policies.policyNumber,
  customer_name: customers.displayName,
  company_name: companies.name,
  start_date: sql`${policies.startDate}::text`,
  end_date: sql`${policies.endDate}::text`,
  expected_commission: sql`${expectedCommission}::text`,
  received_commission: sql`${receivedCommission}::text`,
  split_percentage: sql`${splitOf}::text`,
  producer_share_expected: sql`${shareOf(expectedCommission)}::text`,
  producer_share_received: sql`${shareOf(receivedCommission)}::text`,
});

const CURSOR = 'producer_statement';

const STATEMENT = {
  name: 'commission-producer-statement',
  description: "A producer statement's cursor, written once per set of filters.",
};
const statementCursor = reusableStatement<Shape, never>(
  STATEMENT,
  (shape) => sql`declare ${sql.raw(CURSOR)} no scroll cursor for
    select ${statementRow} as row
    from ${policies}
      inner join ${companies} on ${eq(companies.id, policies.companyId)}
      inner join ${customers} on ${eq(customers.id, policies.customerId)}
    where ${and(matching(shape), eq(policies.producerId, value('user_id')))}
    order by ${policies.startDate}, lower(${policies.policyNumber}), ${policies.id}`,
);

/** The producer's policies of the period, by start date, a batch at a time through a cursor. */
export async function* statementRows(
  tx: Transaction,
  tenantId: string,
  producer: Producer,
  query: StatementQuery,
  batchRows = EXPORT_BATCH_ROWS,
): AsyncGenerator<ProducerStatementRow[]> {
  const { shape, values } = shapeOf(query);
  await statementCursor(tx, shape, {
    ...values,
    tenant_id: tenantId,
    user_id: producer.id,
  });
  for await (const batch of fetchInBatches<{ row: ProducerStatementRow }>(tx, CURSOR, batchRows)) {
    yield batch.map(({ row }) => row);
  }
}
