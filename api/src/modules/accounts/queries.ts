import { type TeamRole, TWO_STEP_GRACE_DAYS, type UserProfile } from '@coverdesk/contract';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor, Transaction } from '../../db/client.js';
import type { AuditEntry } from '../audit/record.js';
import { tenants } from '../tenants/tables.js';
import { passwordResetTokens, users } from './tables.js';
import { revokeUserSessions } from './tokens.js';

const profileColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  isAdmin: users.isAdmin,
  isDemoUser: users.isDemoUser,
  role: users.role,
  companyName: tenants.name,
  timeZone: tenants.timeZone,
  currency: tenants.currency,
  tenantId: users.tenantId,
  dateJoined: users.dateJoined,
  lastLogin: users.lastLogin,
  mfaEnabledAt: users.mfaEnabledAt,
  requireTwoStepSince: tenants.requireTwoStepSince,
};

const selectProfiles = (executor: Executor) =>
  executor.select(profileColumns).from(users).innerJoin(tenants, eq(tenants.id, users.tenantId));

type ProfileRow = Awaited<ReturnType<typeof selectProfiles>>[number];

function toProfile(row: ProfileRow): UserProfile {
  return {
    id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    is_admin: row.isAdmin,
    is_demo_user: row.isDemoUser,
    role: row.role,
    company_name: row.companyName,
    time_zone: row.timeZone,
    currency: row.currency,
    tenant_id: row.tenantId,
    date_joined: row.dateJoined.toISOString(),
    last_login: row.lastLogin?.toISOString() ?? null,
    mfa_enabled: row.mfaEnabledAt !== null,
    two_step_required_by: twoStepDeadline(row)?.toISOString() ?? null,
  };
}

/**
 * When a member must have two-step sign-in on by, while their agency requires it and it is off:
 * seven days from the requirement, or from their joining if later. Null when nothing is asked.
 */
export function twoStepDeadline(member: {
  requireTwoStepSince: Date | null;
  dateJoined: Date;
  mfaEnabledAt: Date | null;
}): Date | null {
  if (!member.requireTwoStepSince || member.mfaEnabledAt) return null;
  const from = Math.max(member.requireTwoStepSince.getTime(), member.dateJoined.getTime());
  return new Date(from + TWO_STEP_GRACE_DAYS * 86_400_000);
}

/** Whether a member still lacks two-step sign-in (turned on since their token was issued, they pass). */
export async function lacksTwoStep(executor: Executor, userId: string): Promise<boolean> {
  const [row] = await executor
    .select({ mfaEnabledAt: users.mfaEnabledAt })
    .from(users)
    .where(eq(users.id, userId));
  return !row?.mfaEnabledAt;
}

export async function findProfile(executor: Executor, userId: string): Promise<UserProfile | undefined> {
  const [row] = await selectProfiles(executor).where(eq(users.id, userId));
  return row && toProfile(row);
}

export async function findUserByEmail(executor: Executor, email: string) {
  const [row] = await executor
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
  return row;
}

/**
 * Why a user whose password was right may still not sign in or refresh a session: a platform admin
 * disabled the account, or the agency deactivated the member. Undefined when nothing stands in the way.
 */
export function signInRefusal(user: {
  disabledAt: Date | null;
  deactivatedAt: Date | null;
}): string | undefined {
  if (user.disabledAt)
    return 'This account has been disabled. Contact Coverdesk support to have it enabled again.';
  if (user.deactivatedAt)
    return 'Your agency has deactivated this account. Ask its owner or a manager to turn it back on.';
  return undefined;
}

export async function findUserById(executor: Executor, userId: string) {
  const [row] = await executor.select().from(users).where(eq(users.id, userId));
  return row;
}

/** The demo agency's shared account with a role: its owner unless another is asked for. */
export async function findDemoUser(executor: Executor, role: TeamRole = 'owner') {
  const [row] = await executor
    .select({ id: users.id, tenantId: users.tenantId, email: users.email })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(and(eq(tenants.isDemo, true), eq(users.isDemoUser, true), eq(users.role, role)))
    .orderBy(users.dateJoined)
    .limit(1);
  return row;
}

/**
 * A platform admin who may act now: a disabled admin is none, even with an access token issued
 * before they were disabled and not yet expired.
 */
export async function isAdmin(executor: Executor, userId: string): Promise<boolean> {
  const [row] = await executor
    .select({ isAdmin: users.isAdmin })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.disabledAt)));
  return row?.isAdmin ?? false;
}

export async function recordLogin(executor: Executor, userId: string): Promise<void> {
  await executor.update(users).set({ lastLogin: sql`now()` }).where(eq(users.id, userId));
}

/** What else a new password turns off, registered by the module that keeps it (a calendar feed). */
type PasswordReplaced = (tx: Transaction, userId: string) => Promise<unknown>;
const onPasswordReplaced: PasswordReplaced[] = [];

/**
 * A module keeping something a user's old password could have reached registers how to turn it
 * off, in modules/wiring.ts: accounts knows no module above it.
 */
export function whenPasswordReplaced(hook: PasswordReplaced): void {
  onPasswordReplaced.push(hook);
}

/**
 * Sets a new password, whatever the route: the reset links still open are spent, since they were
 * sent to replace the old password, every sign-in but `keepFamilyId` is revoked, and the calendar
 * feed address is turned off, since whoever knew the old password could have made it.
 */
export async function replacePassword(
  tx: Transaction,
  userId: string,
  passwordHash: string,
  keepFamilyId?: string,
): Promise<{ spentResetLinks: string[]; revokedSessions: string[] }> {
  await tx.update(users).set({ passwordHash }).where(eq(users.id, userId));
  const spent = await tx
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)))
    .returning({ tokenHash: passwordResetTokens.tokenHash });
  for (const hook of onPasswordReplaced) await hook(tx, userId);
  return {
    spentResetLinks: spent.map((link) => link.tokenHash),
    revokedSessions: await revokeUserSessions(tx, userId, keepFamilyId),
  };
}

/** Grants admin to every existing account whose email is configured in ADMIN_EMAILS. */
export async function promoteAdmins(executor: Executor, emails: string[]): Promise<void> {
  if (emails.length === 0) return;
  await executor
    .update(users)
    .set({ isAdmin: true })
    .where(
      inArray(
        sql`lower(${users.email})`,
        emails.map((email) => email.toLowerCase()),
      ),
    );
}

/** The name a user goes by where others read it: their full name, or their email when they gave none. */
export const displayName = (user: { firstName: string; lastName: string; email: string }) =>
  `${user.firstName} ${user.lastName}`.trim() || user.email;

/** Something a user did to their own account (a sign-in, a sign-out, two-step sign-in), as the log keeps it. */
export const accountEntry = (
  user: { id: string; tenantId: string; email: string },
  action: string,
): AuditEntry => ({
  tenantId: user.tenantId,
  userId: user.id,
  actorEmail: user.email,
  action,
  entity: 'user',
  entityId: user.id,
});
