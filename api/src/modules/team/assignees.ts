import { NOT_AN_ACTIVE_MEMBER } from '@coverdesk/contract';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Transaction } from '../../db/client.js';
import { ownBookMember } from '../../db/tenant.js';
import { fieldError, HttpError } from '../../http/errors.js';
import { agencyUsers } from '../tenants/tables.js';

/**
 * The name of the member a row is assigned to ("" for no one), read from the tenant's view of its
 * users: a subquery on the view's key, so a page pays one index read per row.
 */
export const assigneeName = (column: AnyPgColumn | SQL): SQL<string> =>
  sql<string>`coalesce((select trim(au.first_name || ' ' || au.last_name) from agency_users au where au.id = ${column}), '')`;

/** Whether `id` is an active member of the agency the transaction is scoped to. */
export async function isActiveMember(tx: Transaction, id: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: agencyUsers.id })
    .from(agencyUsers)
    .where(and(eq(agencyUsers.id, id), eq(agencyUsers.isActive, true)));
  return row !== undefined;
}

/**
 * Refuses (400 on `field`) an assignee who is not an active member of the agency. The one already
 * assigned (`current`) passes, so an edit of other fields never fails because its assignee left.
 */
export async function assertAssignee(
  tx: Transaction,
  assignee: string | null | undefined,
  current?: string | null,
  field = 'assigned_to',
): Promise<void> {
  if (!assignee || assignee === current) return;
  if (!(await isActiveMember(tx, assignee))) throw fieldError(field, NOT_AN_ACTIVE_MEMBER);
}

/**
 * Who a new record is assigned to: the assignee the body names (checked), null when it says no one,
 * and the member creating it when it says nothing.
 */
export async function newAssignee(
  tx: Transaction,
  given: string | null | undefined,
  creator: string,
): Promise<string | null> {
  if (given === undefined) return creator;
  await assertAssignee(tx, given);
  return given;
}

/**
 * An agent who sees only their own book keeps the customers they add or change: handed to someone
 * else, a customer would vanish from under them (403); owners and managers reassign.
 */
export function assertKeptInOwnBook(tx: Transaction, assignee: string | null | undefined): void {
  const member = ownBookMember(tx);
  if (member && assignee !== undefined && assignee !== member) {
    throw new HttpError(403, {
      detail:
        'Your agency shows agents only their own customers, so yours stay assigned to you. Ask an owner or manager to hand a customer to someone else.',
    });
  }
}
