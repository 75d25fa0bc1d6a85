import { COMMISSION_PAYMENT_METHODS, COMMISSION_TYPES } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import { foreignKey, index, numeric, pgTable, text, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from '../../db/columns.js';
import { tenantId } from '../../db/tenant-columns.js';
import { policyTypes } from '../policy-types/tables.js';

/** Insurers the agency places business with. Tenant-owned. */
export const companies = pgTable(
  'companies',
  {
    id: id(),
    tenantId: tenantId(),
    name: text('name').notNull(),
    contactPerson: text('contact_person').notNull().default(''),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    website: text('website').notNull().default(''),
    address: text('address').notNull().default(''),
    notes: text('notes').notNull().default(''),
    commissionType: text('commission_type', { enum: COMMISSION_TYPES }).notNull().default('percentage'),
    commissionPaymentMethod: text('commission_payment_method', { enum: COMMISSION_PAYMENT_METHODS })
      .notNull()
      .default('full_policy'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('companies_tenant_name_key').on(t.tenantId, sql`lower(${t.name})`),
    unique('companies_tenant_id_id_key').on(t.tenantId, t.id),
  ],
);

/** The policy types an insurer sells, each under its own name and at its own commission rate. */
export const companyPolicyTypes = pgTable(
  'company_policy_types',
  {
    id: id(),
    tenantId: tenantId(),
    companyId: uuid('company_id').notNull(),
    policyTypeId: uuid('policy_type_id').notNull(),
    customName: text('custom_name').notNull().default(''),
    commissionPercentage: numeric('commission_percentage', { precision: 5, scale: 2 }).notNull().default('0'),
    createdAt: createdAt(),
  },
  (t) => [
    unique('company_policy_types_company_type_key').on(t.companyId, t.policyTypeId),
    index('company_policy_types_tenant_type_idx').on(t.tenantId, t.policyTypeId),
    // Both ends carry the tenant, so a link can never join two agencies.
    foreignKey({
      name: 'company_policy_types_company_fk',
      columns: [t.tenantId, t.companyId],
      foreignColumns: [companies.tenantId, companies.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'company_policy_types_policy_type_fk',
      columns: [t.tenantId, t.policyTypeId],
      foreignColumns: [policyTypes.tenantId, policyTypes.id],
    }).onDelete('restrict'),
  ],
);
