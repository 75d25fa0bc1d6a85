import type { CommissionShareChange, Invitation, TeamMember, TeamRole } from '@coverdesk/contract';
import { and, asc, count, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor, Transaction } from '../../db/client.js';
import { asConnectingRole } from '../../db/tenant.js';
import { teamInvitations, users } from '../accounts/tables.js';
import { tenants } from '../tenants/tables.js';
import { memberCommissionShares } from './tables.js';

/** A member's dated changes of share, oldest first ([] for none), read in the agency's transaction. */
const shareChanges = sql<CommissionShareChange[]>`coalesce((select json_agg(json_build_object(
    'effective_from', s.effective_from::text, 'share', s.share::text) order by s.effective_from)
  from ${memberCommissionShares} s where s.user_id = ${users.id}), '[]'::json)`;

const memberColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  role: users.role,
  disabledAt: users.disabledAt,
  deactivatedAt: users.deactivatedAt,
  isDemoUser: users.isDemoUser,
  /** The share they started with, before any dated change. */
  startingShare: users.commissionSplitPercentage,
  /** The share in force on the agency's today (the transaction's time zone). */
  commissionSplitPercentage: sql<string>`member_share_on(${users.id}, current_date)::text`,
  shareChanges,
  lastLogin: users.lastLogin,
  dateJoined: users.dateJoined,
};

export type MemberRow = Awaited<ReturnType<typeof selectMembers>>[number];

// `users` is a platform table: every read here names the agency itself, in the agency's transaction
// (the shares are tenant rows).
const selectMembers = (tx: Transaction) => tx.select(memberColumns).from(users);

export const toMember = (row: MemberRow): TeamMember => ({
  id: row.id,
  email: row.email,
  first_name: row.firstName,
  last_name: row.lastName,
  role: row.role,
  is_active: row.disabledAt === null && row.deactivatedAt === null,
  commission_split_percentage: row.commissionSplitPercentage,
  commission_split_history: [{ effective_from: null, share: row.startingShare }, ...row.shareChanges],
  last_sign_in_at: row.lastLogin?.toISOString() ?? null,
  date_joined: row.dateJoined.toISOString(),
});

/** The agency's members: owners first, then by name. */
export async function listMembers(tx: Transaction, tenantId: string): Promise<MemberRow[]> {
  return selectMembers(tx)
    .where(eq(users.tenantId, tenantId))
    .orderBy(
      sql`array_position(array['owner','manager','agent','viewer'], ${users.role})`,
      asc(users.firstName),
      asc(users.lastName),
      asc(users.email),
    );
}

export async function findMember(
  tx: Transaction,
  tenantId: string,
  id: string,
  options?: { lock: boolean },
): Promise<MemberRow | undefined> {
  const query = selectMembers(tx).where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
  const [row] = await (options?.lock ? query.for('update') : query);
  return row;
}

/** Active owners other than `except`: the agency must keep one. Locks them, so two demotions queue. */
export async function otherActiveOwners(tx: Transaction, tenantId: string, except: string): Promise<number> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.tenantId, tenantId),
        eq(users.role, 'owner'),
        ne(users.id, except),
        isNull(users.disabledAt),
        isNull(users.deactivatedAt),
      ),
    )
    .for('update');
  return rows.length;
}

/**
 * What the plan's `users` limit counts: active members and invitations still open. Both are
 * platform rows, read for the agency's transaction as the connecting role.
 */
export async function countMembers(tx: Transaction, tenantId: string): Promise<number> {
  return asConnectingRole(tx, async () => {
    const [members] = await tx
      .select({ count: count() })
      .from(users)
      .where(and(eq(users.tenantId, tenantId), isNull(users.disabledAt), isNull(users.deactivatedAt)));
    const [invited] = await tx
      .select({ count: count() })
      .from(teamInvitations)
      .where(openInvitations(tenantId));
    return (members?.count ?? 0) + (invited?.count ?? 0);
  });
}

const openInvitations = (tenantId: string) =>
  and(
    eq(teamInvitations.tenantId, tenantId),
    isNull(teamInvitations.acceptedAt),
    gt(teamInvitations.expiresAt, sql`now()`),
  );

const invitationColumns = {
  id: teamInvitations.id,
  tenantId: teamInvitations.tenantId,
  email: teamInvitations.email,
  role: teamInvitations.role,
  createdAt: teamInvitations.createdAt,
  expiresAt: teamInvitations.expiresAt,
  acceptedAt: teamInvitations.acceptedAt,
  emailSent: teamInvitations.emailSent,
  inviterFirstName: users.firstName,
  inviterLastName: users.lastName,
  inviterEmail: users.email,
};

const selectInvitations = (executor: Executor) =>
  executor
    .select(invitationColumns)
    .from(teamInvitations)
    .leftJoin(users, eq(users.id, teamInvitations.invitedBy));

type InvitationRow = Awaited<ReturnType<typeof selectInvitations>>[number];

export const inviterName = (
  row: Pick<InvitationRow, 'inviterFirstName' | 'inviterLastName' | 'inviterEmail'>,
) =>
  [row.inviterFirstName, row.inviterLastName].filter(Boolean).join(' ') || row.inviterEmail || 'Your agency';

export const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  expires_at: row.expiresAt.toISOString(),
  created_at: row.createdAt.toISOString(),
  invited_by_name: inviterName(row),
  email_sent: row.emailSent,
});

/** Open invitations, newest first. */
export async function listInvitations(executor: Executor, tenantId: string): Promise<Invitation[]> {
  const rows = await selectInvitations(executor)
    .where(openInvitations(tenantId))
    .orderBy(desc(teamInvitations.createdAt));
  return rows.map(toInvitation);
}

export async function findInvitation(executor: Executor, tenantId: string, id: string) {
  const [row] = await selectInvitations(executor).where(
    and(eq(teamInvitations.tenantId, tenantId), eq(teamInvitations.id, id)),
  );
  return row;
}

/** An invitation by its token's hash, with its agency's name, whatever its state. */
export async function findInvitationByToken(executor: Executor, tokenHash: string) {
  const [row] = await executor
    .select({ ...invitationColumns, companyName: tenants.name })
    .from(teamInvitations)
    .innerJoin(tenants, eq(tenants.id, teamInvitations.tenantId))
    .leftJoin(users, eq(users.id, teamInvitations.invitedBy))
    .where(eq(teamInvitations.tokenHash, tokenHash));
  return row;
}

export interface NewInvitation {
  tenantId: string;
  email: string;
  role: TeamRole;
  tokenHash: string;
  invitedBy: string;
  expiresAt: Date;
  /** False until the mail server takes the email (`recordEmailSent`). */
  emailSent: boolean;
}

/** Drops the open invitation to an address, if any: inviting again sends a new link instead. */
export async function dropOpenInvitationTo(tx: Transaction, tenantId: string, email: string): Promise<void> {
  await tx
    .delete(teamInvitations)
    .where(
      and(
        eq(teamInvitations.tenantId, tenantId),
        eq(sql`lower(${teamInvitations.email})`, email),
        isNull(teamInvitations.acceptedAt),
      ),
    );
}

export async function insertInvitation(tx: Transaction, invitation: NewInvitation): Promise<string> {
  const [row] = await tx.insert(teamInvitations).values(invitation).returning({ id: teamInvitations.id });
  if (!row) throw new Error('invitation insert returned nothing');
  return row.id;
}

/** The mail server took the invitation's email (sent after its transaction committed). */
export async function recordEmailSent(executor: Executor, tenantId: string, id: string): Promise<void> {
  await executor
    .update(teamInvitations)
    .set({ emailSent: true })
    .where(and(eq(teamInvitations.tenantId, tenantId), eq(teamInvitations.id, id)));
}

/**
 * Gives an open invitation a new token: the link made from it works, and the one before (emailed or
 * copied) no longer does. False when it is not open (accepted, expired or withdrawn meanwhile).
 */
export async function renewInvitationToken(tx: Transaction, id: string, tokenHash: string): Promise<boolean> {
  const renewed = await tx
    .update(teamInvitations)
    .set({ tokenHash })
    .where(
      and(
        eq(teamInvitations.id, id),
        isNull(teamInvitations.acceptedAt),
        gt(teamInvitations.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: teamInvitations.id });
  return renewed.length > 0;
}

/** Withdraws an invitation still open; false when there is none (accepted meanwhile, or gone). */
export async function withdrawInvitation(tx: Transaction, id: string): Promise<boolean> {
  const gone = await tx
    .delete(teamInvitations)
    .where(and(eq(teamInvitations.id, id), isNull(teamInvitations.acceptedAt)))
    .returning({ id: teamInvitations.id });
  return gone.length === 1;
}

/** Spends an invitation: once, and only while it is open. */
export async function spendInvitation(tx: Transaction, id: string): Promise<boolean> {
  const spent = await tx
    .update(teamInvitations)
    .set({ acceptedAt: sql`now()` })
    .where(
      and(
        eq(teamInvitations.id, id),
        isNull(teamInvitations.acceptedAt),
        gt(teamInvitations.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: teamInvitations.id });
  return spent.length === 1;
}

/** The kinds of record a member looks after, as `POST /team/reassign/` names their ids. */
export type AssignedKind = 'customers' | 'policies' | 'claims' | 'leads';

/** A column naming the member who looks after a row of the book (customers, policies, claims, leads). */
export interface AssignedColumn {
  kind: AssignedKind;
  /** The record as the audit log names it ("customer"). */
  entity: string;
  table: PgTable;
  id: AnyPgColumn;
  tenantId: AnyPgColumn;
  assignee: AnyPgColumn;
  updatedAt?: AnyPgColumn;
}

const assignedColumns: AssignedColumn[] = [];

/**
 * The book's modules name the columns that assign their rows to a member (modules/wiring.ts): the
 * team, below them, hands a leaving member's rows to a successor without knowing the tables.
 */
export function registerAssignedColumn(column: AssignedColumn): void {
  assignedColumns.push(column);
}

/** Hands every row assigned to `from` to `to`, in the agency's transaction; how many rows moved. */
export async function reassignBook(
  tx: Transaction,
  tenantId: string,
  from: string,
  to: string,
): Promise<number> {
  let moved = 0;
  for (const { table, tenantId: tenantColumn, assignee } of assignedColumns) {
    const result = await tx.execute(
      sql`update ${table} set ${sql.identifier(assignee.name)} = ${to}
        where ${tenantColumn} = ${tenantId} and ${assignee} = ${from}`,
    );
    moved += result.rowCount ?? 0;
  }
  return moved;
}

function assignedColumnOf(kind: AssignedKind): AssignedColumn {
  const column = assignedColumns.find((registered) => registered.kind === kind);
  if (!column) throw new Error(`no assigned column registered for ${kind}`);
  return column;
}

/**
 * Locks the agency's rows of `kind` with these ids and answers the ids it has none of: the rows of
 * another agency are invisible here (row-level security), so they read as missing.
 */
export async function lockAssigned(
  tx: Transaction,
  tenantId: string,
  kind: AssignedKind,
  ids: string[],
): Promise<{ missing: string[]; before: Map<string, string | null> }> {
  const { table, id, tenantId: tenantColumn, assignee } = assignedColumnOf(kind);
  const { rows } = await tx.execute<{ id: string; assignee: string | null }>(
    sql`select ${id} as id, ${assignee} as assignee from ${table}
      where ${tenantColumn} = ${tenantId} and ${id} = any(${sql.param(ids)}::uuid[])
      order by ${id} for update`,
  );
  const before = new Map(rows.map((row) => [row.id, row.assignee]));
  return { missing: ids.filter((given) => !before.has(given)), before };
}

/** Assigns the rows of `kind` with these ids to `to`; answers the ids that changed hands. */
export async function assignRows(
  tx: Transaction,
  tenantId: string,
  kind: AssignedKind,
  ids: string[],
  to: string,
): Promise<string[]> {
  const { table, id, tenantId: tenantColumn, assignee, updatedAt } = assignedColumnOf(kind);
  const touched = updatedAt ? sql`, ${sql.identifier(updatedAt.name)} = now()` : sql``;
  const { rows } = await tx.execute<{ id: string }>(
    sql`update ${table} set ${sql.identifier(assignee.name)} = ${to}${touched}
      where ${tenantColumn} = ${tenantId} and ${id} = any(${sql.param(ids)}::uuid[])
        and ${assignee} is distinct from ${to}
      returning ${id} as id`,
  );
  return rows.map((row) => row.id);
}

/** The audit log's name for a record of `kind`, and its assignee field. */
export function assignedEntity(kind: AssignedKind): { entity: string; field: string } {
  const { entity, assignee } = assignedColumnOf(kind);
  return { entity, field: assignee.name };
}

type MemberLeft = (tx: Transaction, userId: string) => Promise<unknown>;
const onMemberLeft: MemberLeft[] = [];

/**
 * What else ends when a member leaves, registered by the module that keeps it (their calendar feed),
 * in modules/wiring.ts. Runs in the agency's transaction as the connecting role.
 */
export function whenMemberLeaves(hook: MemberLeft): void {
  onMemberLeft.push(hook);
}

export async function memberLeft(tx: Transaction, userId: string): Promise<void> {
  for (const hook of onMemberLeft) await hook(tx, userId);
}

/**
 * Records a member's new share from a day on (a second change for the same day replaces the
 * first). Terms already written keep the share they recorded.
 */
export async function changeShare(
  tx: Transaction,
  tenantId: string,
  userId: string,
  share: string,
  effectiveFrom: string,
): Promise<void> {
  await tx
    .insert(memberCommissionShares)
    .values({ tenantId, userId, share, effectiveFrom })
    .onConflictDoUpdate({
      target: [memberCommissionShares.userId, memberCommissionShares.effectiveFrom],
      set: { share, createdAt: sql`now()` },
    });
}

/** A member's share in force on a day. */
export async function shareOn(tx: Transaction, userId: string, day: string): Promise<string> {
  const { rows } = await tx.execute<{ share: string }>(
    sql`select member_share_on(${userId}, ${day}::date)::text as share`,
  );
  return rows[0]?.share ?? '0.00';
}
