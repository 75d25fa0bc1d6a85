import { POLICY_CATEGORIES } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from '../../db/columns.js';
import { tenantId } from '../../db/tenant-columns.js';

/** The agency's catalogue of policy types (Motor, Home, Term life...). Tenant-owned. */
export const policyTypes = pgTable(
  'policy_types',
  {
    id: id(),
    tenantId: tenantId(),
    name: text('name').notNull(),
    category: text('category', { enum: POLICY_CATEGORIES }).notNull(),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('policy_types_tenant_name_key').on(t.tenantId, sql`lower(${t.name})`),
    // Lets rows that point at a type name its tenant too, so no link can cross agencies.
    unique('policy_types_tenant_id_id_key').on(t.tenantId, t.id),
    index('policy_types_tenant_category_idx').on(t.tenantId, t.category),
  ],
);
