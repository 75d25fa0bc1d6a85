import { type SQL, sql } from 'drizzle-orm';
import { companies } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import { dueBy, insurerOwesBy } from '../policies/commission.js';
import { policies } from '../policies/tables.js';

// What the insurer owed on a policy by a statement's date: each line's expected commission and the
// statement's missing policies are read from it.

/** What the insurer's other accepted statements up to the statement's date paid on the policy. */
export const paidBefore = (statementId: string, statementDate: string) => sql`
  coalesce((select sum(r.amount) from insurer_receipts r where r.policy_id = ${policies.id}
    and r.statement_id <> ${statementId}::uuid and r.received_on <= ${statementDate}::date), 0)`;

/**
 * What the insurer owed on each policy by the statement's date (`insurerOwesBy`, on the instalments
 * due by then), less what its other accepted statements up to that date paid. `columns` adds to what
 * is selected and `where` narrows the policies, both with `policies` and `companies` in scope.
 */
export const owedOn = (
  statementId: string,
  statementDate: string,
  { columns = sql``, where = sql`` }: { columns?: SQL; where?: SQL } = {},
) => sql`
  select policies.id, policies.policy_number, policies.customer_id, c.display_name as customer_name,
    (policies.cancelled_at is not null or coalesce(policies.cancellation_refund, 0) > 0) as cancelled,
    ${insurerOwesBy(sql`${statementDate}::date`, dueBy(sql`${statementDate}::date`))}
      - ${paidBefore(statementId, statementDate)} as owed ${columns}
  from ${policies}
  join ${companies} on ${companies.id} = ${policies.companyId}
  join ${customers} c on c.id = ${policies.customerId} ${where}`;
