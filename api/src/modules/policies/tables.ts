import { INSTALLMENT_STATUSES, PAYMENT_FREQUENCIES, PAYMENT_METHODS } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import {
  date,
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz, updatedAt } from '../../db/columns.js';
import { insuredItemKey, numberKey, trigramIndex } from '../../db/search-columns.js';
import { tenantId } from '../../db/tenant-columns.js';
import { companies } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import { policyTypes } from '../policy-types/tables.js';

const moneyColumn = (name: string) => numeric(name, { precision: 14, scale: 2 });

/**
 * Policies the agency sold. Status is derived from the dates when read, except cancellation and
 * renewal; what has been paid is kept here too, updated with every payment, so lists and totals
 * need no sum over instalments. Tenant-owned.
 */
export const policies = pgTable(
  'policies',
  {
    id: id(),
    tenantId: tenantId(),
    policyNumber: text('policy_number').notNull(),
    customerId: uuid('customer_id').notNull(),
    companyId: uuid('company_id').notNull(),
    policyTypeId: uuid('policy_type_id').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    totalPremium: moneyColumn('total_premium').notNull(),
    netPremium: moneyColumn('net_premium').notNull(),
    commissionPercentage: numeric('commission_percentage', { precision: 5, scale: 2 }).notNull(),
    paymentFrequency: text('payment_frequency', { enum: PAYMENT_FREQUENCIES }).notNull(),
    customInstallments: integer('custom_installments'),
    insuredItem: text('insured_item').notNull().default(''),
    sumInsured: moneyColumn('sum_insured'),
    deductible: moneyColumn('deductible'),
    notes: text('notes').notNull().default(''),
    /** The member who looks after the policy (`users`, of the same agency); the creator by default. */
    assignedTo: uuid('assigned_to'),
    /** The producer's share of this policy's commission, in percent, when not their default. */
    producerSplitPercentage: numeric('producer_split_percentage', { precision: 5, scale: 2 }),
    /**
     * The member credited for the term (its producer): its assignee when the term was written, and
     * so for good; handing the policy to another member moves `assigned_to` only. Set, with
     * `producer_share`, by the `policy_producer_credit` trigger (migration 0076).
     */
    producerId: uuid('producer_id'),
    /** The producer's share in force the day the term was written, in percent (their default then). */
    producerShare: numeric('producer_share', { precision: 5, scale: 2 }),
    cancelledAt: date('cancelled_at', { mode: 'string' }),
    cancellationReason: text('cancellation_reason').notNull().default(''),
    /**
     * What the insurer refunds the customer on cancellation, when the broker entered it: the term then
     * earns its premium less this, instead of its premium for the days of cover (policy_earned_premium).
     */
    cancellationRefund: moneyColumn('cancellation_refund'),
    /**
     * The term that renews this one; a term is renewed at most once and renews at most one. Kept on
     * the renewed row so that a policy's status needs only its own row, which lets the open-policy
     * indexes below answer the status filters.
     */
    renewedToId: uuid('renewed_to_id'),
    /**
     * The agency decided not to renew this term (the customer is leaving, the risk is declined): why,
     * and when it was said. The expiring-policies list leaves such a term out; undoing the mark, or
     * renewing the term after all, clears both.
     */
    notRenewingReason: text('not_renewing_reason').notNull().default(''),
    notRenewingAt: timestamptz('not_renewing_at'),
    amountPaid: moneyColumn('amount_paid').notNull().default('0'),
    installmentsPaid: integer('installments_paid').notNull().default(0),
    totalInstallments: integer('total_installments').notNull().default(0),
    numberKey: numberKey('policy_number'),
    insuredItemKey: insuredItemKey(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('policies_tenant_id_id_key').on(t.tenantId, t.id),
    unique('policies_number_key').on(t.tenantId, t.companyId, t.policyNumber, t.startDate),
    uniqueIndex('policies_renewed_to_key').on(t.renewedToId),
    index('policies_tenant_start_idx').on(t.tenantId, t.startDate, t.id),
    index('policies_tenant_end_idx').on(t.tenantId, t.endDate),
    index('policies_tenant_customer_idx').on(t.tenantId, t.customerId),
    index('policies_tenant_assigned_idx').on(t.tenantId, t.assignedTo),
    index('policies_tenant_producer_idx').on(t.tenantId, t.producerId),
    index('policies_tenant_company_idx').on(t.tenantId, t.companyId),
    index('policies_tenant_type_idx').on(t.tenantId, t.policyTypeId),
    trigramIndex('policies_number_key_idx', t.tenantId, t.numberKey),
    // An insurer's statement line finds its policy by the insurer and the number: a lookup a line.
    index('policies_tenant_company_number_idx').on(t.tenantId, t.companyId, t.numberKey),
    trigramIndex('policies_insured_item_key_idx', t.tenantId, t.insuredItemKey),
    // Neither cancelled nor renewed: pending, active or expired by the dates alone.
    index('policies_open_start_idx')
      .on(t.tenantId, t.startDate, t.endDate)
      .where(sql`cancelled_at is null and renewed_to_id is null`),
    index('policies_open_end_idx')
      .on(t.tenantId, t.endDate, t.startDate)
      .where(sql`cancelled_at is null and renewed_to_id is null`),
    foreignKey({
      name: 'policies_customer_fk',
      columns: [t.tenantId, t.customerId],
      foreignColumns: [customers.tenantId, customers.id],
    }).onDelete('restrict'),
    foreignKey({
      name: 'policies_company_fk',
      columns: [t.tenantId, t.companyId],
      foreignColumns: [companies.tenantId, companies.id],
    }).onDelete('restrict'),
    foreignKey({
      name: 'policies_policy_type_fk',
      columns: [t.tenantId, t.policyTypeId],
      foreignColumns: [policyTypes.tenantId, policyTypes.id],
    }).onDelete('restrict'),
    // Deleting a renewal clears only the link on the term it renewed (the migration says SET NULL
    // (renewed_to_id), which drizzle cannot express), never that term's tenant.
    foreignKey({
      name: 'policies_renewed_to_fk',
      columns: [t.tenantId, t.renewedToId],
      foreignColumns: [t.tenantId, t.id],
    }).onDelete('set null'),
  ],
);

/** A policy's premium split into dated instalments, and what has been paid on each. Tenant-owned. */
export const installments = pgTable(
  'installments',
  {
    id: id(),
    // The policy's agency: the key to the policy below holds it there, and an agency's deletion
    // reaches its instalments through its policies. A key of its own to the agencies would check
    // again, on every instalment an import writes, what the policy's key has already checked.
    tenantId: uuid('tenant_id').notNull(),
    policyId: uuid('policy_id').notNull(),
    sequence: integer('sequence').notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    amountDue: moneyColumn('amount_due').notNull(),
    amountPaid: moneyColumn('amount_paid').notNull().default('0'),
    paidDate: date('paid_date', { mode: 'string' }),
    paymentMethod: text('payment_method', { enum: PAYMENT_METHODS }),
    reference: text('reference').notNull().default(''),
    status: text('status', { enum: INSTALLMENT_STATUSES }).notNull().default('pending'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('installments_policy_sequence_key').on(t.policyId, t.sequence),
    index('installments_tenant_due_idx').on(t.tenantId, t.dueDate),
    // Unpaid by due date, then id: the oldest overdue first, in the order the lists show them, so the
    // dashboard's first five are five rows of the index, however many fall due on one day.
    // Cancelled instalments are never due, so they are left out as paid ones are.
    index('installments_tenant_unpaid_idx')
      .on(t.tenantId, t.dueDate, t.id)
      .where(sql`status in ('pending', 'partially_paid')`),
    // What each policy has been paid, by month, for the history months (policy_months_refresh). Only
    // paid rows, so it stays small; without it a statement adding thousands of policies read the
    // agency's every instalment for each one whenever the planner's statistics lagged behind.
    index('installments_paid_idx')
      .on(t.policyId, t.paidDate)
      .where(sql`amount_paid > 0 and paid_date is not null`),
    foreignKey({
      name: 'installments_policy_fk',
      columns: [t.tenantId, t.policyId],
      foreignColumns: [policies.tenantId, policies.id],
    }).onDelete('cascade'),
  ],
);

/** Where a policy stands apart from its dates; `open` ones are pending, active or expired. */
export const POLICY_STANDINGS = ['open', 'cancelled', 'renewed'] as const;

/**
 * The agency's book summed by insurer, term and standing, so that its totals read a few hundred rows
 * however many policies it holds; the status of a group follows from its dates on the day it is read.
 * Kept by a trigger on `policies` (migration 0009), never written by the application. Commission is
 * summed under both payout methods, so an insurer changing its method needs no rewrite. No foreign
 * keys: the trigger follows every change of the policies, including their cascaded deletion, which
 * leaves zeros behind. Tenant-owned.
 */
export const policyBookTotals = pgTable(
  'policy_book_totals',
  {
    tenantId: uuid('tenant_id').notNull(),
    companyId: uuid('company_id').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    standing: text('standing', { enum: POLICY_STANDINGS }).notNull(),
    policies: integer('policies').notNull(),
    totalPremium: numeric('total_premium').notNull(),
    expectedCommission: numeric('expected_commission').notNull(),
    receivedFullPolicy: numeric('received_full_policy').notNull(),
    receivedProRata: numeric('received_pro_rata').notNull(),
    /** What the commission report adds up besides commission: the net premiums and what has been paid. */
    netPremium: numeric('net_premium').notNull().default('0'),
    amountPaid: numeric('amount_paid').notNull().default('0'),
  },
  (t) => [
    primaryKey({
      name: 'policy_book_totals_pkey',
      columns: [t.tenantId, t.companyId, t.startDate, t.endDate, t.standing],
    }),
    // Counting by status reads this index alone: the standing, then the dates, then the count.
    index('policy_book_totals_status_idx').on(t.tenantId, t.standing, t.endDate, t.startDate, t.policies),
  ],
);

/** A policy's events and payments summed by month, as the portfolio history counts them. */
const monthFigures = () => ({
  month: date('month', { mode: 'string' }).notNull(),
  /** Change in the policies and premium in force from this month's end on: +1 as a term starts covering, -1 after it stops. */
  inForce: integer('in_force').notNull(),
  premiumInForce: numeric('premium_in_force').notNull(),
  /** Terms that started in the month and renew no earlier term. */
  newPolicies: integer('new_policies').notNull(),
  /** Expected commission of the terms, new or renewals, that started in the month, not cancelled. */
  expectedCommission: numeric('expected_commission').notNull(),
  /** Terms that ended in the month, renewed since. */
  renewed: integer('renewed').notNull(),
  /** Terms that ended in the month, neither renewed nor cancelled (expired once the day is past). */
  endedOpen: integer('ended_open').notNull(),
  cancelled: integer('cancelled').notNull(),
  /** Commission earned by the month's payments, under each payout method. */
  receivedFullPolicy: numeric('received_full_policy').notNull(),
  receivedProRata: numeric('received_pro_rata').notNull(),
});

/**
 * Each policy's history figures by month, worked out again from the policy, its renewal link and its
 * instalments whenever one of them changes (triggers of migration 0016); never written by the
 * application. The current month's events are read here with their policies, so that only what
 * happened by today counts. No foreign key: the triggers follow deletions as they follow any change.
 * Tenant-owned.
 */
export const policyMonths = pgTable(
  'policy_months',
  {
    tenantId: uuid('tenant_id').notNull(),
    policyId: uuid('policy_id').notNull(),
    companyId: uuid('company_id').notNull(),
    ...monthFigures(),
  },
  (t) => [
    primaryKey({ name: 'policy_months_pkey', columns: [t.policyId, t.month] }),
    index('policy_months_tenant_month_idx').on(t.tenantId, t.month),
  ],
);

/**
 * The agency's history figures summed by insurer and month from `policy_months` by its trigger, so a
 * 36-month history reads a few hundred rows however many policies and payments the book holds.
 * Commission by both payout methods, as in policy_book_totals. Tenant-owned.
 */
export const bookMonths = pgTable(
  'book_months',
  { tenantId: uuid('tenant_id').notNull(), companyId: uuid('company_id').notNull(), ...monthFigures() },
  (t) => [primaryKey({ name: 'book_months_pkey', columns: [t.tenantId, t.month, t.companyId] })],
);

/**
 * Each customer's lifetime with each insurer: the terms held, their earned premium and commission (a
 * cancelled term with what it earned, docs/figures.md; received under both payout methods), and the
 * first term's start. Worked out again from the customer's policies by a trigger whenever one of them changes
 * (migration 0018), so customer analytics groups a few thousand rows instead of the whole book.
 * Never written by the application. Tenant-owned.
 */
export const customerTotals = pgTable(
  'customer_totals',
  {
    tenantId: uuid('tenant_id').notNull(),
    customerId: uuid('customer_id').notNull(),
    companyId: uuid('company_id').notNull(),
    policies: integer('policies').notNull(),
    totalPremium: numeric('total_premium').notNull(),
    expectedCommission: numeric('expected_commission').notNull(),
    receivedFullPolicy: numeric('received_full_policy').notNull(),
    receivedProRata: numeric('received_pro_rata').notNull(),
    firstStart: date('first_start', { mode: 'string' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'customer_totals_pkey', columns: [t.customerId, t.companyId] }),
    index('customer_totals_tenant_idx').on(t.tenantId),
  ],
);

/**
 * The agency's policies counted and summed by type, term and standing, so the dashboard's policies by
 * type read a few thousand rows however large the book; the status of a group follows from its dates
 * on the day it is read, as in policy_book_totals. Kept by a trigger on `policies` (migration
 * policy-type-totals), never written by the application. Tenant-owned.
 */
export const policyTypeTotals = pgTable(
  'policy_type_totals',
  {
    tenantId: uuid('tenant_id').notNull(),
    policyTypeId: uuid('policy_type_id').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    standing: text('standing', { enum: POLICY_STANDINGS }).notNull(),
    policies: integer('policies').notNull(),
    totalPremium: numeric('total_premium').notNull(),
  },
  (t) => [
    primaryKey({
      name: 'policy_type_totals_pkey',
      columns: [t.tenantId, t.policyTypeId, t.startDate, t.endDate, t.standing],
    }),
    // Today's active groups: the standing, then the dates.
    index('policy_type_totals_status_idx').on(t.tenantId, t.standing, t.endDate, t.startDate),
  ],
);

/**
 * The calendar's busiest kinds counted per day: open policies by end date (`renewal`) and unpaid
 * instalments by due date with what is left to pay (`installment`). A month of a large book holds
 * thousands of each, so the calendar reads these few rows instead of counting them per request.
 * Kept by triggers on `policies` and `installments` (migration calendar-day-totals), so it lives
 * with them; never written by the application; a day that emptied stays with zero. Tenant-owned.
 */
export const calendarDayTotals = pgTable(
  'calendar_day_totals',
  {
    tenantId: uuid('tenant_id').notNull(),
    kind: text('kind', { enum: ['renewal', 'installment'] }).notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    records: integer('records').notNull(),
    amount: numeric('amount').notNull(),
  },
  (t) => [primaryKey({ name: 'calendar_day_totals_pkey', columns: [t.tenantId, t.kind, t.day] })],
);

/**
 * What an insurer paid on a policy, as the agency recorded it from the insurer's commission
 * statement when accepting it (modules/commission-statements): a receipt per statement line. A
 * policy's `insurer_paid_commission` is their sum. Removed with the statement's acceptance when it is
 * reopened. Tenant-owned.
 */
export const insurerReceipts = pgTable(
  'insurer_receipts',
  {
    id: id(),
    tenantId: tenantId(),
    policyId: uuid('policy_id').notNull(),
    /** The statement and its line the receipt came from. */
    statementId: uuid('statement_id').notNull(),
    lineNumber: integer('line_number').notNull(),
    /** Negative for a chargeback. */
    amount: moneyColumn('amount').notNull(),
    /** The statement's date. */
    receivedOn: date('received_on', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('insurer_receipts_line_key').on(t.tenantId, t.statementId, t.lineNumber),
    index('insurer_receipts_policy_idx').on(t.tenantId, t.policyId, t.receivedOn),
    foreignKey({
      name: 'insurer_receipts_policy_fk',
      columns: [t.tenantId, t.policyId],
      foreignColumns: [policies.tenantId, policies.id],
    }).onDelete('cascade'),
  ],
);
