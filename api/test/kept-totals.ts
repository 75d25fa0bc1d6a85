// The kept totals against the records they are kept from: what every test of a write to policies or
// instalments checks its totals with.

import type { PolicyStats } from '@coverdesk/contract';
import { eq, type SQL, sql, TransactionRollbackError } from 'drizzle-orm';
import type { Database } from '../src/db/client.js';
import { withTenant } from '../src/db/tenant.js';
import { companies } from '../src/modules/companies/tables.js';
import { expectedCommission, receivedCommission } from '../src/modules/policies/commission.js';
import { expiringWithin, statusIs } from '../src/modules/policies/status.js';
import { policies } from '../src/modules/policies/tables.js';

/** The agency's totals summed straight over its policies, one row at a time: what the book must say. */
export async function statsFromPolicies(db: Database, tenantId: string): Promise<PolicyStats> {
  const countOf = (where: SQL) => sql<number>`(count(*) filter (where ${where}))::int`;
  const sumOf = (amount: SQL, where: SQL = sql`true`) =>
    sql<string>`round(coalesce(sum(${amount}) filter (where ${where}), 0), 2)`;
  const [row] = await withTenant(db, tenantId, (tx) =>
    tx
      .select({
        total: sql<number>`count(*)::int`,
        pending: countOf(statusIs.pending),
        active: countOf(statusIs.active),
        expired: countOf(statusIs.expired),
        cancelled: countOf(statusIs.cancelled),
        renewed: countOf(statusIs.renewed),
        active_premium: sumOf(sql`${policies.totalPremium}`, statusIs.active),
        expected_commission: sumOf(expectedCommission),
        received_commission: sumOf(receivedCommission),
        expiring_in_30_days: countOf(expiringWithin(30)),
      })
      .from(policies)
      .innerJoin(companies, eq(companies.id, policies.companyId))
      .where(eq(policies.tenantId, tenantId)),
  );
  if (!row) throw new Error('an aggregate always answers one row');
  const { total, pending, active, expired, cancelled, renewed, ...sums } = row;
  return { total, by_status: { pending, active, expired, cancelled, renewed }, ...sums };
}

/** A table's rows for the agency, in a stable order. */
const figures = (table: string, key = 'company_id') =>
  `select ${key}, month::text, in_force, premium_in_force::numeric(14, 2)::text as premium,
    new_policies, expected_commission::numeric(14, 2)::text as expected, renewed, ended_open, cancelled,
    received_full_policy::numeric(14, 2)::text as full_policy, received_pro_rata::numeric(14, 2)::text as pro_rata
    from ${table} order by month, ${key}`;

/** The type totals the trigger keeps (groups that came to zero aside), and the same grouped afresh. */
const typeFigures = (from: string) =>
  sql.raw(`select policy_type_id, start_date::text, end_date::text, standing, policies,
    total_premium::numeric(14, 2)::text as premium from (${from}) groups
    where (policies, total_premium) is distinct from (0, 0)
    order by policy_type_id, start_date, end_date, standing`);
const keptTypes = typeFigures('select * from policy_type_totals');
const typesAfresh = typeFigures(`select policy_type_id, start_date, end_date,
    policy_standing(cancelled_at, renewed_to_id) as standing, count(*)::int as policies,
    sum(total_premium) as total_premium
  from policies group by 1, 2, 3, 4`);

/** The calendar's day counts the trigger keeps (days that came to zero aside), and the same counted afresh. */
const dayFigures = (from: string) =>
  sql.raw(`select kind, day::text, records, amount::numeric(14, 2)::text as amount from (${from}) days
    where (records, amount) is distinct from (0, 0) order by kind, day`);
const keptDays = dayFigures('select * from calendar_day_totals');
const daysAfresh =
  dayFigures(`select 'renewal' as kind, end_date as day, count(*)::int as records, 0 as amount
    from policies where cancelled_at is null and renewed_to_id is null group by end_date
  union all
  select 'installment', due_date, count(*)::int, sum(amount_due - amount_paid)
    from installments where status in ('pending', 'partially_paid') group by due_date`);

const customerFigures =
  sql.raw(`select customer_id, company_id, policies, total_premium::numeric(14, 2)::text,
    expected_commission::numeric(14, 2)::text, received_full_policy::numeric(14, 2)::text,
    received_pro_rata::numeric(14, 2)::text, first_start::text
  from customer_totals order by customer_id, company_id`);

/**
 * The figures the triggers keep, against the same worked out afresh (then rolled back): each
 * policy's history months recomputed from its row, renewal links and instalments, the agency's months
 * against the sum of its policies' (groups that came to zero aside), and the customers' totals
 * recomputed from their policies, the type totals grouped afresh, and the calendar's days counted afresh.
 */
export async function keptAndAfresh(db: Database, tenantId: string) {
  const summed = sql.raw(`select company_id, month::text, sum(in_force)::int as in_force,
      sum(premium_in_force)::numeric(14, 2)::text as premium, sum(new_policies)::int as new_policies,
      sum(expected_commission)::numeric(14, 2)::text as expected, sum(renewed)::int as renewed,
      sum(ended_open)::int as ended_open, sum(cancelled)::int as cancelled,
      sum(received_full_policy)::numeric(14, 2)::text as full_policy,
      sum(received_pro_rata)::numeric(14, 2)::text as pro_rata
    from policy_months group by company_id, month order by month, company_id`);
  const nonZero = sql.raw(`select * from (${figures('book_months')}) book
    where (in_force, premium::numeric, new_policies, expected::numeric, renewed, ended_open, cancelled,
      full_policy::numeric, pro_rata::numeric)
      is distinct from (0, 0, 0, 0, 0, 0, 0, 0, 0)`);
  const rows = async (tx: Parameters<Parameters<typeof withTenant>[2]>[0], statement: SQL) =>
    (await tx.execute(statement)).rows;
  let kept: unknown;
  let afresh: unknown;
  await withTenant(db, tenantId, async (tx) => {
    const policyMonths = sql.raw(figures('policy_months', 'policy_id'));
    kept = {
      policies: await rows(tx, policyMonths),
      book: await rows(tx, nonZero),
      customers: await rows(tx, customerFigures),
      types: await rows(tx, keptTypes),
      days: await rows(tx, keptDays),
    };
    await tx.execute(sql`select policy_months_refresh(coalesce(array_agg(id), '{}')) from policies`);
    await tx.execute(sql`select customer_totals_refresh(array_agg(tenant_id), array_agg(id)) from customers`);
    afresh = {
      policies: await rows(tx, policyMonths),
      book: await rows(tx, summed),
      customers: await rows(tx, customerFigures),
      types: await rows(tx, typesAfresh),
      days: await rows(tx, daysAfresh),
    };
    tx.rollback();
  }).catch((error: unknown) => {
    if (!(error instanceof TransactionRollbackError)) throw error;
  });
  return { kept, afresh };
}
