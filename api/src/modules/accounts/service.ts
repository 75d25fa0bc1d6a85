import type { RegisterBody, UserProfile } from '@coverdesk/contract';
import type { Database, Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { enterTenant } from '../../db/tenant.js';
import { fieldError } from '../../http/errors.js';
import { TRIAL_PLAN } from '../billing/plan-catalogue.js';
import { startTrial } from '../billing/queries.js';
import { tenants } from '../tenants/tables.js';
import { hashPassword, passwordProblem } from './passwords.js';
import { findProfile, findUserByEmail, recordLogin } from './queries.js';
import { users } from './tables.js';
import { createRefreshToken, issueAccessToken } from './tokens.js';

export const EMAIL_TAKEN = 'A user with that email already exists.';

export interface NewAccount {
  email: string;
  /** Null makes an account that cannot sign in with a password (the demo user). */
  password: string | null;
  firstName: string;
  lastName: string;
  companyName: string;
  /** The agency's IANA time zone; UTC when not given. */
  timeZone?: string;
  isAdmin: boolean;
  isDemo?: boolean;
}

/** The password rule beyond length: not a common password, not the user's own details. */
export function assertAcceptablePassword(field: string, password: string, personal: string[]): void {
  const problem = passwordProblem(password, personal);
  if (problem) throw fieldError(field, problem);
}

/**
 * Creates an agency with its owner and starts the Professional trial, all or nothing. Tenant-owned
 * rows (the subscription) are written last, after the transaction is scoped to the new tenant.
 */
export async function createAgency(
  db: Database,
  account: NewAccount,
): Promise<{ userId: string; tenantId: string }> {
  const passwordHash = account.password === null ? null : await hashPassword(account.password);
  if (await findUserByEmail(db, account.email)) throw fieldError('email', EMAIL_TAKEN);
  try {
    return await db.transaction(async (tx) => {
      const [tenant] = await tx
        .insert(tenants)
        .values({ name: account.companyName, timeZone: account.timeZone, isDemo: account.isDemo ?? false })
        .returning({ id: tenants.id });
      if (!tenant) throw new Error('tenant insert returned nothing');
      const [user] = await tx
        .insert(users)
        .values({
          tenantId: tenant.id,
          email: account.email.toLowerCase(),
          passwordHash,
          firstName: account.firstName,
          lastName: account.lastName,
          isAdmin: account.isAdmin,
          isDemoUser: account.isDemo ?? false,
        })
        .returning({ id: users.id });
      if (!user) throw new Error('user insert returned nothing');
      await enterTenant(tx, tenant.id);
      await startTrial(tx, tenant.id, TRIAL_PLAN);
      return { userId: user.id, tenantId: tenant.id };
    });
  } catch (error) {
    // Two registrations for one email at the same moment: the unique index decides.
    if (isUniqueViolation(error)) throw fieldError('email', EMAIL_TAKEN);
    throw error;
  }
}

export async function registerAgency(
  db: Database,
  body: RegisterBody,
  adminEmails: string[],
  jwtSecret: Uint8Array,
) {
  assertAcceptablePassword('password', body.password, [
    body.email,
    body.email.split('@')[0] ?? '',
    body.first_name,
    body.last_name,
  ]);
  const { userId, tenantId } = await createAgency(db, {
    email: body.email,
    password: body.password,
    firstName: body.first_name,
    lastName: body.last_name,
    companyName: body.company_name,
    timeZone: body.time_zone,
    isAdmin: adminEmails.includes(body.email.toLowerCase()),
  });
  return db.transaction((tx) => startSession(tx, userId, tenantId, jwtSecret));
}

/** Signs a user in: a new refresh-token family, an access token bound to it, and the profile. */
export async function startSession(
  tx: Transaction,
  userId: string,
  tenantId: string,
  jwtSecret: Uint8Array,
): Promise<{ access: string; refresh: string; user: UserProfile }> {
  const { token: refresh, familyId } = await createRefreshToken(tx, userId);
  await recordLogin(tx, userId);
  const access = await issueAccessToken({ userId, tenantId, sessionId: familyId }, jwtSecret);
  const user = await findProfile(tx, userId);
  if (!user) throw new Error('profile missing for a user that was just signed in');
  return { access, refresh, user };
}
