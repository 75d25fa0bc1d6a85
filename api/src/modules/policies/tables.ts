import { INSTALLMENT_STATUSES, PAYMENT_FREQUENCIES, PAYMENT_METHODS } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import {
  date,
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from '../../db/columns.js';
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
    cancelledAt: date('cancelled_at', { mode: 'string' }),
    cancellationReason: text('cancellation_reason').notNull().default(''),
    /** The term this one renews; a term is renewed at most once. */
    renewedFromId: uuid('renewed_from_id'),
    amountPaid: moneyColumn('amount_paid').notNull().default('0'),
    installmentsPaid: integer('installments_paid').notNull().default(0),
    totalInstallments: integer('total_installments').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('policies_tenant_id_id_key').on(t.tenantId, t.id),
    unique('policies_number_key').on(t.tenantId, t.companyId, t.policyNumber, t.startDate),
    uniqueIndex('policies_renewed_from_key').on(t.renewedFromId),
    index('policies_tenant_start_idx').on(t.tenantId, t.startDate, t.id),
    index('policies_tenant_end_idx').on(t.tenantId, t.endDate),
    index('policies_tenant_customer_idx').on(t.tenantId, t.customerId),
    index('policies_tenant_company_idx').on(t.tenantId, t.companyId),
    index('policies_tenant_type_idx').on(t.tenantId, t.policyTypeId),
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
    // Deleting a term clears only the link of its renewal (the migration says SET NULL (renewed_from_id),
    // which drizzle cannot express), never the renewal's tenant.
    foreignKey({
      name: 'policies_renewed_from_fk',
      columns: [t.tenantId, t.renewedFromId],
      foreignColumns: [t.tenantId, t.id],
    }).onDelete('set null'),
  ],
);

/** A policy's premium split into dated instalments, and what has been paid on each. Tenant-owned. */
export const installments = pgTable(
  'installments',
  {
    id: id(),
    tenantId: tenantId(),
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
    index('installments_tenant_unpaid_idx').on(t.tenantId, t.dueDate).where(sql`status <> 'paid'`),
    foreignKey({
      name: 'installments_policy_fk',
      columns: [t.tenantId, t.policyId],
      foreignColumns: [policies.tenantId, policies.id],
    }).onDelete('cascade'),
  ],
);
