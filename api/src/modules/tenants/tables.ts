import { boolean, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id } from '../../db/columns.js';

/** An agency. Every tenant-owned row elsewhere points here through `tenant_id`. */
export const tenants = pgTable('tenants', {
  id: id(),
  name: text('name').notNull(),
  /** The sample agency behind "Try the demo". */
  isDemo: boolean('is_demo').notNull().default(false),
  currency: text('currency').notNull().default('USD'),
  /** An IANA name; tenant transactions run in it, so `current_date` is the agency's own day. */
  timeZone: text('time_zone').notNull().default('UTC'),
  createdAt: createdAt(),
});
