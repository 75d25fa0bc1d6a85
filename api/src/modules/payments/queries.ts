import {
  INSTALLMENT_STATUS_LABELS,
  type Installment,
  type InstallmentRow,
  type installmentListQuery,
  PAYMENT_METHOD_LABELS,
  type PaymentMethod,
} from '@coverdesk/contract';
import { and, eq, gte, ilike, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Transaction } from '../../db/client.js';
import { exportRows } from '../../db/cursor.js';
import { containing, countRows, orderBy } from '../../db/query-helpers.js';
import { offsetOf } from '../../http/pagination.js';
import { type FileRow, fileLayout } from '../../http/table-file.js';
import { companies } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import {
  installmentColumns,
  overdue,
  paymentStatus,
  policyTotalsRefresh,
  unpaid,
} from '../policies/instalments.js';
import { calendarDayTotals, installments, policies } from '../policies/tables.js';

type ListQuery = z.output<typeof installmentListQuery>;
type Filters = Omit<ListQuery, 'page' | 'page_size'>;

/** The payment on an instalment as a whole, as corrected (or undone, with nothing paid). */
export interface PaymentValues {
  amount_paid: string;
  paid_date: string | null;
  payment_method: PaymentMethod | null;
  reference: string;
}

/** One more payment on an instalment; without a date, paid today. */
export interface AddedPayment {
  amount: string;
  paid_date?: string | undefined;
  payment_method: PaymentMethod;
  reference: string;
}

const rowColumns = {
  ...installmentColumns,
  policy_number: policies.policyNumber,
  customer: { id: customers.id, first_name: customers.firstName, last_name: customers.lastName },
  customer_name: customers.displayName,
  company_name: companies.name,
};

// Joined on the tenant too, as the composite foreign keys are.
const policyOf = and(eq(policies.tenantId, installments.tenantId), eq(policies.id, installments.policyId));
const customerOf = and(eq(customers.tenantId, policies.tenantId), eq(customers.id, policies.customerId));
const companyOf = and(eq(companies.tenantId, policies.tenantId), eq(companies.id, policies.companyId));

function statusFilter(status: ListQuery['status']) {
  if (status === 'overdue') return overdue;
  if (status === 'due') return unpaid;
  return status ? eq(installments.status, status) : undefined;
}

function listFilters(tenantId: string, query: Filters) {
  return and(
    eq(installments.tenantId, tenantId),
    statusFilter(query.status),
    query.due_date_from ? gte(installments.dueDate, query.due_date_from) : undefined,
    query.due_date_to ? lte(installments.dueDate, query.due_date_to) : undefined,
    query.company_id ? eq(policies.companyId, query.company_id) : undefined,
    query.customer_id ? eq(policies.customerId, query.customer_id) : undefined,
    query.policy_id ? eq(installments.policyId, query.policy_id) : undefined,
    query.assigned_to ? eq(policies.assignedTo, query.assigned_to) : undefined,
    query.search
      ? or(
          ilike(policies.policyNumber, containing(query.search)),
          ilike(customers.displayName, containing(query.search)),
          // A business is listed by its name, but its contact's name finds it too.
          ilike(sql`${customers.firstName} || ' ' || ${customers.lastName}`, containing(query.search)),
        )
      : undefined,
  );
}

/** The list's sort, which its export shares. */
const ordered = (ordering: Filters['ordering']) =>
  orderBy(
    ordering,
    {
      due_date: installments.dueDate,
      amount_due: installments.amountDue,
      // A row value sorts on its first field, then its second: false (still owed) before true.
      attention: sql`(not ${unpaid}, ${installments.dueDate})`,
    },
    installments.id,
  );

/** A page of the instalments the list shows, without counting them all. */
export function listInstallmentRows(
  tx: Transaction,
  tenantId: string,
  query: ListQuery,
): Promise<InstallmentRow[]> {
  return tx
    .select(rowColumns)
    .from(installments)
    .innerJoin(policies, policyOf)
    .innerJoin(customers, customerOf)
    .innerJoin(companies, companyOf)
    .where(listFilters(tenantId, query))
    .orderBy(...ordered(query.ordering))
    .limit(query.page_size)
    .offset(offsetOf(query));
}

/** An instalment as a line of the exported list: whose, when due, and what was paid on it. */
export const installmentFile = fileLayout([
  { field: 'policy_number', heading: 'Policy number', value: policies.policyNumber },
  { field: 'customer', heading: 'Customer', value: customers.displayName },
  { field: 'insurer', heading: 'Insurer', value: companies.name },
  { field: 'sequence', heading: 'Instalment', kind: 'number', value: installments.sequence },
  { field: 'due_date', heading: 'Due date', kind: 'date', value: installments.dueDate },
  { field: 'amount_due', heading: 'Amount due', kind: 'money', value: installments.amountDue },
  { field: 'amount_paid', heading: 'Amount paid', kind: 'money', value: installments.amountPaid },
  {
    field: 'status',
    heading: 'Status',
    labels: INSTALLMENT_STATUS_LABELS,
    value: sql`case when ${overdue} then 'overdue' else ${installments.status} end`,
  },
  { field: 'paid_date', heading: 'Paid on', kind: 'date', value: installments.paidDate },
  {
    field: 'payment_method',
    heading: 'Payment method',
    labels: PAYMENT_METHOD_LABELS,
    value: installments.paymentMethod,
  },
  { field: 'reference', heading: 'Reference', value: installments.reference },
]);

/** Every instalment the list's search and filters match, in its order, a batch at a time. */
export const exportInstallments = (tx: Transaction, tenantId: string, query: Filters) =>
  exportRows<FileRow>(
    tx,
    'installments_export',
    tx
      .select({ row: installmentFile.row.as('row') })
      .from(installments)
      .innerJoin(policies, policyOf)
      .innerJoin(customers, customerOf)
      .innerJoin(companies, companyOf)
      .where(listFilters(tenantId, query))
      .orderBy(...ordered(query.ordering)),
  );

/** Instalments across the agency's policies, with the policy, customer and insurer each belongs to. */
export async function listInstallments(
  tx: Transaction,
  tenantId: string,
  query: ListQuery,
): Promise<{ count: number; results: InstallmentRow[] }> {
  const [total] = await tx
    .select({ count: countRows() })
    .from(installments)
    .innerJoin(policies, policyOf)
    .innerJoin(customers, customerOf)
    .innerJoin(companies, companyOf)
    .where(listFilters(tenantId, query));
  const results = await listInstallmentRows(tx, tenantId, query);
  return { count: total?.count ?? 0, results };
}

/**
 * The agency's overdue instalments counted, and what remains unpaid on them (amount due less amount
 * paid) summed: the payments list filtered on overdue, added up. Read from the unpaid instalments the
 * calendar keeps counted per due date (calendar_day_totals), the days before today: the same rule
 * as `overdue`, a few hundred rows instead of every overdue instalment. A statement to embed or run.
 */
export const overdueTotals = (tenantId: string) => sql<{ instalments: number; amount: string }>`
  select coalesce(sum(${calendarDayTotals.records}), 0)::int as instalments,
    round(coalesce(sum(${calendarDayTotals.amount}), 0), 2)::text as amount
  from ${calendarDayTotals}
  where ${calendarDayTotals.tenantId} = ${tenantId} and ${calendarDayTotals.kind} = 'installment'
    and ${lt(calendarDayTotals.day, sql`current_date`)}`;

export async function findInstallment(
  tx: Transaction,
  tenantId: string,
  id: string,
): Promise<Installment | undefined> {
  const [row] = await tx
    .select(installmentColumns)
    .from(installments)
    .where(and(eq(installments.tenantId, tenantId), eq(installments.id, id)));
  return row;
}

/**
 * The instalment about to take a payment change, with what remains due on it, worked out by the
 * database. Its policy is locked first, and every payment change goes through here, so changes to
 * one policy's instalments queue on one row and each sees the ones committed before it.
 */
export async function lockInstallment(tx: Transaction, tenantId: string, id: string) {
  const [owner] = await tx
    .select({ policyId: installments.policyId })
    .from(installments)
    .where(and(eq(installments.tenantId, tenantId), eq(installments.id, id)));
  if (!owner) return undefined;
  await lockPolicy(tx, tenantId, owner.policyId);
  const [row] = await tx
    .select({
      policyId: installments.policyId,
      amountDue: installments.amountDue,
      status: installments.status,
      remaining: sql<string>`(${installments.amountDue} - ${installments.amountPaid})::text`,
    })
    .from(installments)
    .where(and(eq(installments.tenantId, tenantId), eq(installments.id, id)))
    .for('update');
  return row;
}

async function lockPolicy(tx: Transaction, tenantId: string, policyId: string) {
  await tx
    .select({ id: policies.id })
    .from(policies)
    .where(and(eq(policies.tenantId, tenantId), eq(policies.id, policyId)))
    .for('update');
}

/** Writes what has been paid on an instalment, and its status with it. */
async function writePayment(
  tx: Transaction,
  tenantId: string,
  id: string,
  values: {
    amountPaid: SQL;
    paidDate: string | SQL | null;
    paymentMethod: PaymentMethod | null;
    reference: string;
  },
) {
  const { amountPaid } = values;
  await tx
    .update(installments)
    .set({
      ...values,
      status: paymentStatus(amountPaid, installments.amountDue),
      updatedAt: sql`now()`,
    })
    .where(and(eq(installments.tenantId, tenantId), eq(installments.id, id)));
}

export function addPayment(tx: Transaction, tenantId: string, id: string, payment: AddedPayment) {
  return writePayment(tx, tenantId, id, {
    // Both sides of the sum are the database's numerics: exact to the cent.
    amountPaid: sql`(${installments.amountPaid} + ${payment.amount}::numeric)`,
    paidDate: payment.paid_date ?? sql`current_date`,
    paymentMethod: payment.payment_method,
    reference: payment.reference,
  });
}

export function setPayment(tx: Transaction, tenantId: string, id: string, values: PaymentValues) {
  return writePayment(tx, tenantId, id, {
    amountPaid: sql`${values.amount_paid}::numeric`,
    paidDate: values.paid_date,
    paymentMethod: values.payment_method,
    reference: values.reference,
  });
}

/**
 * Recomputes what the policy keeps of its instalments (amount paid, instalments paid, how many
 * there are) from the instalments themselves, so the copy never drifts from them. Call it in the
 * transaction that changed them. The policy row is locked before the sums are read: in READ
 * COMMITTED, a statement that waited for the lock would otherwise sum a snapshot taken before
 * the other transaction's instalments committed, and write stale totals over fresh ones.
 */
export async function refreshPolicyTotals(tx: Transaction, tenantId: string, policyId: string) {
  await lockPolicy(tx, tenantId, policyId);
  await tx.execute(policyTotalsRefresh(tenantId, [policyId]));
}
