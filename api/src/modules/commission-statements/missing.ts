import { STATEMENT_MISSING_SHOWN, type StatementMissing } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { companies } from '../companies/tables.js';
import { receivedCommissionOn } from '../policies/commission.js';
import { policies } from '../policies/tables.js';
import { owedOn, paidBefore } from './owed.js';

/**
 * When what the insurer still owes on the policy fell due, by the statement's date: under full-policy
 * payout the term's start (all its commission is owed from then); under pro rata the first
 * instalment, in due order, whose commission the receipts so far do not cover, that is the first
 * whose running total of premium due earns more commission than the insurer has paid.
 */
const dueSince = (statementId: string, date: string) => sql`coalesce(case
  when ${companies.commissionPaymentMethod} = 'pro_rata' then (
    select min(i.due_date) from (
      select due_date, sum(amount_due) over (order by due_date, id) as due_so_far
      from installments
      where tenant_id = ${policies.tenantId} and policy_id = ${policies.id} and status <> 'cancelled'
        and due_date <= ${date}::date) i
    where ${receivedCommissionOn(sql`i.due_so_far`)} > ${paidBefore(statementId, date)})
  end, ${policies.startDate})`;

/**
 * The insurer's policies whose commission was owed by the statement's date and not yet paid by its
 * accepted statements, whatever month it fell due, that no line of this statement names: a policy
 * left off an earlier statement on purpose stays missing until a statement pays it. The oldest
 * first, at most `STATEMENT_MISSING_SHOWN`, with how many there are in all.
 */
export async function missingPolicies(tx: Transaction, id: string, companyId: string, date: string) {
  const { rows } = await tx.execute<StatementMissing & { missing_count: number }>(sql`
    select owed.id as policy_id, owed.policy_number, owed.customer_name,
      round(owed.owed, 2)::text as expected_commission, owed.due_since::text,
      count(*) over ()::int as missing_count
    from (${owedOn(id, date, {
      columns: sql`, ${dueSince(id, date)} as due_since`,
      where: sql`where ${policies.companyId} = ${companyId}::uuid and not exists (select 1 from statement_lines l
        where l.statement_id = ${id}::uuid and l.policy_id = ${policies.id})`,
    })}) owed
    where owed.owed > 0
    order by owed.due_since, owed.policy_number
    limit ${STATEMENT_MISSING_SHOWN}`);
  return {
    count: rows[0]?.missing_count ?? 0,
    policies: rows.map(({ missing_count: _, ...policy }) => policy),
  };
}
