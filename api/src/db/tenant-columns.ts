import { uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../modules/tenants/tables.js';

/** The agency a row belongs to; row-level security and every query filter on it. */
export const tenantId = () =>
  uuid('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });
