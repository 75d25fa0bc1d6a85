import { date, index, numeric, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns.js';
import { tenantId } from '../../db/tenant-columns.js';
import { users } from '../accounts/tables.js';

/**
 * A member's commission share, dated: each change applies to the terms written from its day on
 * (`member_share_on`, migration 0076). Before a member's first change, their share is the one they
 * started with (`users.commission_split_percentage`). Tenant-owned.
 */
export const memberCommissionShares = pgTable(
  'member_commission_shares',
  {
    tenantId: tenantId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
    share: numeric('share', { precision: 5, scale: 2 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'member_commission_shares_pkey', columns: [t.userId, t.effectiveFrom] }),
    index('member_commission_shares_tenant_idx').on(t.tenantId),
  ],
);
