import type { InsurersOwed } from '@coverdesk/contract';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { agencyToday } from '../../db/tenant.js';
import { commissionStatements } from '../commission-statements/tables.js';
import { companies } from '../companies/tables.js';
import { expectedCommission, receivedCommissionOn } from '../policies/commission.js';
import { installments, insurerReceipts, policies } from '../policies/tables.js';

// The aged list of what insurers owe the agency: "Owed by insurer" (docs/figures.md) of every policy,
// split by how long each part of it has been owed. The same expressions as a policy's own figure, so
// an insurer's row adds up to the report's rows of its policies.

const AGES = sql`
  coalesce(sum(owed) filter (where current_date - owed_from <= 30), 0) as days_0_30,
  coalesce(sum(owed) filter (where current_date - owed_from between 31 and 60), 0) as days_31_60,
  coalesce(sum(owed) filter (where current_date - owed_from between 61 and 90), 0) as days_61_90,
  coalesce(sum(owed) filter (where current_date - owed_from > 90), 0) as days_over_90`;

/** An insurer the agency reconciles: one with an accepted commission statement. */
const reconciled = sql`exists (select 1 from ${commissionStatements}
  where ${commissionStatements.tenantId} = ${companies.tenantId} and ${commissionStatements.companyId} = ${companies.id}
    and ${commissionStatements.status} = 'accepted')`;

/**
 * Each insurer's row (and, with `is_total`, the agency's) as of the agency's today: every insurer
 * with commission owed or paid, `reconciled` when it has an accepted commission statement (until
 * then Coverdesk has no word of what it paid, and all it ever owed reads as owed).
 *
 * `owing` holds, per policy, what the insurer owes by each day it owes more: a full-policy insurer
 * the term's commission from its start; a pro-rata insurer, from each instalment's due date, the
 * commission of the instalments due by then (as `insurerOwesBy` takes it). A policy with receipts
 * also has a row of nothing owed from its first receipt, so a chargeback that takes back more than
 * was ever owed is owed back from then. What the insurer paid settles the oldest part first: each
 * step owes what it adds beyond the larger of the step before and the amount paid.
 */
const agesOf = (tenantId: string, companyId: string | undefined) => {
  /** `column` is the insurer asked for, when one is. */
  const ofCompany = (column: SQLWrapper) => (companyId ? sql`and ${column} = ${companyId}::uuid` : sql``);
  return sql`
    with paid as (
      select ${insurerReceipts.policyId} as policy_id, sum(${insurerReceipts.amount}) as amount,
        min(${insurerReceipts.receivedOn}) as first_received
      from ${insurerReceipts}
      where ${insurerReceipts.tenantId} = ${tenantId}::uuid
      group by ${insurerReceipts.policyId}
    ),
    owing as (
      select ${policies.id} as policy_id, ${policies.companyId} as company_id, 0 as step,
        ${policies.startDate} as owed_from, ${expectedCommission} as owed_by_then
      from ${policies} join ${companies} on ${companies.id} = ${policies.companyId}
      where ${policies.tenantId} = ${tenantId}::uuid
        and ${companies.commissionPaymentMethod} <> 'pro_rata' and ${policies.startDate} <= current_date
        ${ofCompany(policies.companyId)}
      union all
      select ${policies.id}, ${policies.companyId},
        row_number() over due_order,
        ${installments.dueDate},
        ${receivedCommissionOn(sql`sum(${installments.amountDue}) over due_order`)}
      from ${policies} join ${companies} on ${companies.id} = ${policies.companyId}
      join ${installments} on ${installments.tenantId} = ${policies.tenantId}
        and ${installments.policyId} = ${policies.id}
        and ${installments.status} <> 'cancelled' and ${installments.dueDate} <= current_date
      where ${policies.tenantId} = ${tenantId}::uuid and ${companies.commissionPaymentMethod} = 'pro_rata'
        ${ofCompany(policies.companyId)}
      window due_order as (partition by ${policies.id} order by ${installments.dueDate}, ${installments.id})
      union all
      select ${policies.id}, ${policies.companyId}, -1, paid.first_received, 0
      from paid join ${policies} on ${policies.id} = paid.policy_id
      where true ${ofCompany(policies.companyId)}
    ),
    steps as (
      select owing.policy_id, owing.company_id, owing.owed_from, owing.owed_by_then,
        coalesce(paid.amount, 0) as paid,
        greatest(0, owing.owed_by_then - greatest(coalesce(
          lag(owing.owed_by_then) over (partition by owing.policy_id order by owing.step),
          least(coalesce(paid.amount, 0), 0)), coalesce(paid.amount, 0))) as owed
      from owing left join paid on paid.policy_id = owing.policy_id
    ),
    per_policy as (
      select policy_id, company_id, min(paid) as paid, least(0, max(owed_by_then) - min(paid)) as overpaid
      from steps group by policy_id, company_id
    ),
    per_company as (
      select company_id, ${AGES}, 0 as paid, 0 as overpaid from steps group by company_id
      union all
      select company_id, 0, 0, 0, 0, sum(paid), sum(overpaid) from per_policy group by company_id
    )
    select per_company.company_id, grouping(per_company.company_id) = 1 as is_total,
      min(${companies.name}) as company_name,
      min(${companies.commissionPaymentMethod}) as commission_payment_method,
      bool_or(${reconciled}) as reconciled,
      ${money(sql`paid`)} as insurer_paid,
      ${money(sql`days_0_30`)} as days_0_30,
      ${money(sql`days_31_60`)} as days_31_60,
      ${money(sql`days_61_90`)} as days_61_90,
      ${money(sql`days_over_90`)} as days_over_90,
      ${money(sql`overpaid`)} as overpaid,
      ${money(sql`days_0_30 + days_31_60 + days_61_90 + days_over_90 + overpaid`)} as owed_by_insurer
    from per_company join ${companies} on ${companies.id} = per_company.company_id
    group by grouping sets ((per_company.company_id), ())
    having grouping(per_company.company_id) = 1
      or sum(paid) <> 0 or sum(days_0_30 + days_31_60 + days_61_90 + days_over_90 + overpaid) <> 0
    order by grouping(per_company.company_id), lower(min(${companies.name})), per_company.company_id`;
};

const money = (column: SQL) => sql`coalesce(sum(${column}), 0)::numeric(14, 2)::text`;

type Figures = InsurersOwed['totals'];

type Row = Figures & { is_total: boolean } & Omit<InsurersOwed['results'][number], keyof Figures>;

/** What insurers owe the agency today, by age; insurers with nothing paid or owed left out. */
export async function insurersOwed(
  tx: Transaction,
  tenantId: string,
  companyId: string | undefined,
): Promise<InsurersOwed> {
  const { rows } = await tx.execute<Row>(agesOf(tenantId, companyId));
  const total = rows.find((row) => row.is_total);
  if (!total) throw new Error('the grand total is always a row');
  const { is_total, company_id, company_name, commission_payment_method, reconciled, ...totals } = total;
  return {
    as_of: await agencyToday(tx),
    results: rows.filter((row) => !row.is_total).map(({ is_total, ...row }) => row),
    totals,
  };
}
