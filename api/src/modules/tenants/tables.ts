import { TEAM_ROLES } from '@coverdesk/contract';
import { boolean, pgTable, pgView, text, timestamp, uuid } from 'drizzle-orm/pg-core';
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
  /** Agents see only the customers assigned to them, and what hangs off those. */
  agentsSeeOwnBook: boolean('agents_see_own_book').notNull().default(false),
  /**
   * Since when the owner requires two-step sign-in of every member: each has seven days from then
   * (or from joining, if later) to turn it on. Null while not required.
   */
  requireTwoStepSince: timestamp('require_two_step_since', { withTimezone: true, mode: 'date' }),
  /**
   * The date two-step sign-in was first required from, kept while it is not: required again, each
   * member keeps the deadline they had rather than a new seven days.
   */
  twoStepFirstRequired: timestamp('two_step_first_required', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
});

/**
 * The users of the agency a transaction is scoped to (migration 0022): `users` is a platform table
 * that tenant transactions cannot read, so this view shows them the names of their own colleagues
 * only, for assignees and the timeline's "who"; roles and whether each is active since 0061.
 */
export const agencyUsers = pgView('agency_users', {
  id: uuid('id').notNull(),
  tenantId: uuid('tenant_id').notNull(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  email: text('email').notNull(),
  role: text('role', { enum: TEAM_ROLES }).notNull(),
  /** Neither deactivated by the agency nor disabled by a platform admin. */
  isActive: boolean('is_active').notNull(),
  dateJoined: timestamp('date_joined', { withTimezone: true, mode: 'date' }).notNull(),
}).existing();
