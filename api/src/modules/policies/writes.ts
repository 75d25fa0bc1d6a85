import type { PolicyValues } from '@coverdesk/contract';
import { buildSchedule, payInOrder, type ScheduledInstallment } from '@coverdesk/contract';
import { and, asc, eq, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Transaction } from '../../db/client.js';
import { uuidv7Batch } from '../../db/columns.js';
import { refreshStatistics } from '../../db/tenant.js';
import { paymentStatus, policyTotalsRefresh } from './instalments.js';
import { endedEarlyBy, isOpen } from './status.js';
import { installments, policies } from './tables.js';

/** A policy as stored: the form's values with the commission and net premium already resolved. */
export type PolicyInput = Omit<PolicyValues, 'net_premium' | 'commission_percentage'> & {
  net_premium: string;
  commission_percentage: string;
};

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
  // Left out, the assignee stays as it is.
  ...(input.assigned_to === undefined ? {} : { assignedTo: input.assigned_to }),
  // Left out, the producer's share stays as it is; null gives the member's default back.
  ...(input.producer_split_percentage === undefined
    ? {}
    : { producerSplitPercentage: input.producer_split_percentage }),
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
 * The statements adding policies and their instalment schedules, a few thousand per statement. A
 * policy whose values name no assignee goes to the member the transaction acts for (`app.user_id`:
 * the importing member), if any.
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
        custom_installments, insured_item, sum_insured, deductible, notes, total_installments, assigned_to,
        producer_split_percentage)
      select p.id, ${tenantId}::uuid, p.policy_number, p.customer_id, p.company_id, p.policy_type_id,
        p.start_date, p.end_date, p.total_premium, p.net_premium, p.commission_percentage,
        p.payment_frequency, p.custom_installments, p.insured_item, p.sum_insured, p.deductible,
        p.notes, p.total_installments,
        coalesce(p.assigned_to, nullif(current_setting('app.user_id', true), '')::uuid),
        p.producer_split_percentage
      from unnest(${sql.param(batch.map((input) => input.id))}::uuid[], ${sql.param(pick((r) => r.policyNumber))}::text[],
        ${sql.param(pick((r) => r.customerId))}::uuid[], ${sql.param(pick((r) => r.companyId))}::uuid[],
        ${sql.param(pick((r) => r.policyTypeId))}::uuid[], ${sql.param(pick((r) => r.startDate))}::date[],
        ${sql.param(pick((r) => r.endDate))}::date[], ${sql.param(pick((r) => r.totalPremium))}::numeric[],
        ${sql.param(pick((r) => r.netPremium))}::numeric[], ${sql.param(pick((r) => r.commissionPercentage))}::numeric[],
        ${sql.param(pick((r) => r.paymentFrequency))}::text[], ${sql.param(pick((r) => r.customInstallments))}::int[],
        ${sql.param(pick((r) => r.insuredItem))}::text[], ${sql.param(pick((r) => r.sumInsured))}::numeric[],
        ${sql.param(pick((r) => r.deductible))}::numeric[], ${sql.param(pick((r) => r.notes))}::text[],
        ${sql.param(schedules.map((schedule) => schedule.length))}::int[],
        ${sql.param(batch.map((input) => input.assigned_to ?? null))}::uuid[],
        ${sql.param(batch.map((input) => input.producer_split_percentage ?? null))}::numeric[])
        as p(id, policy_number, customer_id, company_id, policy_type_id, start_date, end_date,
          total_premium, net_premium, commission_percentage, payment_frequency, custom_installments,
          insured_item, sum_insured, deductible, notes, total_installments, assigned_to,
          producer_split_percentage)`);
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

/**
 * Keeps the planner's statistics in step with a bulk write of policies, for one transaction: called
 * with the policies written so far, before each batch and before the catch-up, it refreshes them
 * (`refreshStatistics`) whenever those written since the last refresh reach 1,000 and the number
 * there were then, so an import of 100,000 refreshes them about seven times. Each batch's own
 * statements (the policies' paid totals, the catch-up) read the instalments just written: planned
 * with no statistics, or with those of a tenth of the book, they read the agency's whole due-date
 * index again for each policy, and an import grew with the square of its size.
 */
export function bulkStatistics(): (tx: Transaction, written: number) => Promise<void> {
  let counted = 0;
  return async (tx, written) => {
    if (written - counted < Math.max(1_000, counted)) return;
    counted = written;
    await refreshStatistics(tx, ['customers', 'policies', 'installments']);
  };
}

/** The totals the screens read instead of the book, the agency's and each member's (kept by triggers). */
const KEPT_TOTALS = [
  'policy_book_totals',
  'policy_type_totals',
  'calendar_day_totals',
  'policy_months',
  'book_months',
  'member_book_totals',
  'member_type_totals',
  'member_calendar_day_totals',
  'member_book_months',
];

/**
 * Brings the kept totals up to date with policies added by `policyInsertsDeferringTotals`, then their
 * statistics: on a new install the catch-up fills them from nothing, and an agent's figures planned
 * with no statistics for their member totals read the insurers once per row.
 */
export async function catchUpKeptTotals(tx: Transaction, policyIds: string[]): Promise<void> {
  if (policyIds.length === 0) return;
  await tx.execute(sql`select kept_totals_catch_up(${sql.param(policyIds)}::uuid[])`);
  await refreshStatistics(tx, KEPT_TOTALS);
}

/** Adds the policy and its instalments; answers its id. */
export async function createPolicy(tx: Transaction, tenantId: string, input: PolicyInput) {
  const id = uuidv7();
  await createPolicies(tx, tenantId, [{ ...input, id }]);
  return id;
}

/** The columns recording a cancellation, or an early end by renewal (no reason, no refund). */
const cancellation = (values: {
  cancelled_at: string | null;
  reason: string;
  refund_amount: string | null;
}) => ({
  cancelledAt: values.cancelled_at,
  cancellationReason: values.reason,
  cancellationRefund: values.refund_amount,
});

/** No longer marked as not renewing. */
const renewingAfterAll = { notRenewingReason: '', notRenewingAt: null };

/**
 * Adds the next term of a policy and links the two. The caller holds the term's row lock and has
 * checked that it is not renewed yet, and that the renewal starts after the term does. A term marked
 * as not renewing is renewed after all, so the mark goes. A renewal starting before the term's end is
 * a rewrite, as insurers treat it: the term ends the day before, as a cancellation on the renewal's
 * first day ends it, so it earns its premium and commission for its days of cover alone and no day
 * earns twice (docs/figures.md); its instalments due after that day go with it.
 */
export async function renewPolicy(
  tx: Transaction,
  tenantId: string,
  term: { id: string; endDate: string },
  input: PolicyInput,
) {
  const renewalId = await createPolicy(tx, tenantId, input);
  const endsEarly = input.start_date <= term.endDate;
  await tx
    .update(policies)
    .set({
      renewedToId: renewalId,
      ...renewingAfterAll,
      ...(endsEarly ? cancellation({ cancelled_at: input.start_date, reason: '', refund_amount: null }) : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(policies.tenantId, tenantId), eq(policies.id, term.id)));
  if (endsEarly) await cancelInstalmentsAfterCancellation(tx, tenantId, term.id);
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

/**
 * Its instalments go with it through the foreign key's cascade. A renewal that ended its term early
 * gives that term its whole cover back first: no cancellation date, and its instalments cancelled
 * with the early end due again (paid or part-paid as they were).
 */
export async function deletePolicy(tx: Transaction, tenantId: string, id: string): Promise<boolean> {
  const reopened = await tx
    .update(policies)
    .set({ ...cancellation({ cancelled_at: null, reason: '', refund_amount: null }), updatedAt: sql`now()` })
    .where(endedEarlyBy(tenantId, id))
    .returning({ id: policies.id });
  for (const term of reopened) {
    await tx
      .update(installments)
      .set({
        status: sql`${paymentStatus(installments.amountPaid, installments.amountDue)}`,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(installments.tenantId, tenantId),
          eq(installments.policyId, term.id),
          eq(installments.status, 'cancelled'),
        ),
      );
  }
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
  values: { cancelled_at: string; reason: string; refund_amount: string | null },
): Promise<boolean> {
  const changed = await tx
    .update(policies)
    .set({ ...cancellation(values), updatedAt: sql`now()` })
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
