import { lt, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { installments } from './tables.js';

// A policy's instalments as every module reads them: the policies keep their schedule and totals,
// the payments record what is paid on them, and the views count what is still owed.

// Written with its literals, so statements built once and reused (the commission report's) can hold it;
// the same words as the partial index of unpaid instalments, so that it answers.
/** Still owed: the instalment is not paid in full, nor cancelled with its policy. */
export const unpaid = sql<boolean>`${installments.status} in ('pending', 'partially_paid')`;
/** Unpaid and due before `day`; reminders ask it of the day they are written for. */
export const overdueOn = (day: SQL) => sql<boolean>`(${unpaid} and ${lt(installments.dueDate, day)})`;
// The database's date, not the app server's, so a list filtered on overdue and the flags in it agree.
// The commission report reads a policy's payment status from the same rule.
export const overdue = overdueOn(sql`current_date`);

/** An instalment as the API reads it, with whether it is overdue; the policies module reads them so too. */
export const installmentColumns = {
  id: installments.id,
  policy_id: installments.policyId,
  sequence: installments.sequence,
  due_date: installments.dueDate,
  amount_due: installments.amountDue,
  amount_paid: installments.amountPaid,
  paid_date: installments.paidDate,
  payment_method: installments.paymentMethod,
  reference: installments.reference,
  status: installments.status,
  is_overdue: overdue,
};

/** An instalment's status from what has been paid on it: paid once it covers the amount due, pending at zero. */
export const paymentStatus = (amountPaid: SQLWrapper, amountDue: SQLWrapper) => sql`case
  when ${amountPaid} = 0 then 'pending'
  when ${amountPaid} >= ${amountDue} then 'paid'
  else 'partially_paid'
end`;

/**
 * The statement setting what policies keep of their instalments (amount paid, instalments paid, how
 * many there are) from the instalments themselves. Written out in full: drizzle leaves the
 * subquery's columns unqualified in an UPDATE ... FROM, where "amount_paid" would mean the policy's
 * as much as the sum's.
 */
export const policyTotalsRefresh = (tenantId: string, policyIds: string[]) => sql`
  update policies
  set amount_paid = totals.amount_paid,
    installments_paid = totals.installments_paid,
    total_installments = totals.total_installments
  from (
    select ids.id, coalesce(sum(i.amount_paid), 0) as amount_paid,
      count(i.id) filter (where i.status = 'paid') as installments_paid,
      count(i.id) as total_installments
    from unnest(${sql.param(policyIds)}::uuid[]) as ids(id)
    left join installments i on i.tenant_id = ${tenantId} and i.policy_id = ids.id
    group by ids.id
  ) totals
  where policies.tenant_id = ${tenantId} and policies.id = totals.id
`;
