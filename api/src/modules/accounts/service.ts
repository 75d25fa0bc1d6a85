import type { RegisterBody, UserProfile } from '@coverdesk/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Database, Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { enterTenant } from '../../db/tenant.js';
import { fieldError, HttpError } from '../../http/errors.js';
import { tenants } from '../tenants/tables.js';
import { withinLimit } from '../throttle/throttle.js';
import { hashPassword, passwordProblem } from './passwords.js';
import { displayName, findProfile, findUserByEmail, recordLogin } from './queries.js';
import { users } from './tables.js';
import { createRefreshToken, type Device, issueAccessToken, type SessionStart } from './tokens.js';

export const EMAIL_TAKEN = 'A user with that email already exists.';

/** Registration refused because the email has an account already. */
class EmailTaken extends HttpError {
  constructor() {
    super(400, { email: [EMAIL_TAKEN] });
  }
}

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
  /** Days of the first trial, when the platform sets them; otherwise the plan's own. */
  trialDays?: number | null;
}

/** The password rule beyond length: not a common password, not the user's own details. */
export function assertAcceptablePassword(field: string, password: string, personal: string[]): void {
  const problem = passwordProblem(password, personal);
  if (problem) throw fieldError(field, problem);
}

/** A new agency and its owner, as the modules that give an agency something at its start see them. */
export interface CreatedAgency {
  tenantId: string;
  owner: { userId: string; name: string };
  account: NewAccount;
}

/** What a new agency gets in its first transaction, from a module above the platform's accounts. */
type AgencyCreated = (tx: Transaction, agency: CreatedAgency) => Promise<unknown>;
const onAgencyCreated: AgencyCreated[] = [];

/**
 * A module that gives every new agency something registers it here (billing starts the trial), in
 * modules/wiring.ts: accounts knows no module above it.
 */
export function whenAgencyCreated(hook: AgencyCreated): void {
  onAgencyCreated.push(hook);
}

/**
 * Creates an agency with its owner and what the modules give a new agency (the trial), all or
 * nothing. Tenant-owned rows (the subscription) are written last, after the transaction is scoped to
 * the new tenant.
 */
export async function createAgency(
  db: Database,
  account: NewAccount,
): Promise<{ userId: string; tenantId: string }> {
  const passwordHash = account.password === null ? null : await hashPassword(account.password);
  if (await findUserByEmail(db, account.email)) throw new EmailTaken();
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
          // The registrant owns the agency. The demo's shared account is its owner too, with the
          // limits the demo keeps for itself (no activity log, no emails to strangers).
          role: 'owner',
        })
        .returning({ id: users.id });
      if (!user) throw new Error('user insert returned nothing');
      await enterTenant(tx, tenant.id);
      const created = {
        tenantId: tenant.id,
        owner: { userId: user.id, name: displayName(account) },
        account,
      };
      for (const hook of onAgencyCreated) await hook(tx, created);
      return { userId: user.id, tenantId: tenant.id };
    });
  } catch (error) {
    // Two registrations for one email at the same moment: the unique index decides.
    if (isUniqueViolation(error)) throw new EmailTaken();
    throw error;
  }
}

/**
 * Registers an agency and signs its owner in. Registration signs in at once (the spec's flow), so an
 * email that has an account must be refused, which tells the caller it exists; the route throttles
 * attempts per address, and the account's owner is told by email that someone tried.
 */
export async function registerAgency(
  ctx: AppContext,
  body: RegisterBody,
  log: FastifyBaseLogger,
  device: Device,
) {
  const { config, db, settings } = ctx;
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
    isAdmin: config.adminEmails.includes(body.email.toLowerCase()),
    trialDays: (await settings.general()).defaultTrialDays,
  }).catch((error: unknown) => {
    if (error instanceof EmailTaken) {
      void warnOwnerOfRegistration(ctx, body.email).catch((err: unknown) =>
        log.error({ err }, 'registration warning email failed'),
      );
    }
    throw error;
  });
  return db.transaction((tx) =>
    startSession(tx, userId, tenantId, config.jwtSecret, { ...device, twoStep: false }),
  );
}

/** Tells an account's owner that someone tried to register with their address. */
async function warnOwnerOfRegistration({ config, db, mailer }: AppContext, email: string) {
  const user = await findUserByEmail(db, email);
  if (!user || user.isDemoUser) return;
  // A quiet per-account cap, so the form cannot be used to flood someone's inbox.
  if (!(await withinLimit(db, [{ key: `register:user:${user.id}`, limit: 3, windowSeconds: 3600 }]))) return;
  await mailer.send({
    to: user.email,
    subject: 'Someone tried to register with your email address',
    text: [
      `Hello ${user.firstName || 'there'},`,
      '',
      'Someone just tried to register a new Coverdesk agency with this email address, which already has an account.',
      '',
      `If it was you, sign in at ${config.appUrl}/login, or choose a new password at ${config.appUrl}/forgot-password if you have forgotten it.`,
      '',
      'If it was not you, you can ignore this email: nothing has changed in your account.',
      '',
      'Coverdesk',
    ].join('\n'),
  });
}

/** The moment a profile's agency wants two-step sign-in on by, for the access token. */
export const deadlineOf = (user: UserProfile) =>
  user.two_step_required_by ? Date.parse(user.two_step_required_by) : undefined;

/** Signs a user in: a new refresh-token family, an access token bound to it, and the profile. */
export async function startSession(
  tx: Transaction,
  userId: string,
  tenantId: string,
  jwtSecret: Uint8Array,
  start: SessionStart,
): Promise<{ access: string; refresh: string; user: UserProfile }> {
  const { token: refresh, familyId } = await createRefreshToken(tx, userId, start);
  await recordLogin(tx, userId);
  const user = await findProfile(tx, userId);
  if (!user) throw new Error('profile missing for a user that was just signed in');
  const access = await issueAccessToken(
    {
      userId,
      tenantId,
      sessionId: familyId,
      twoStep: start.twoStep,
      role: user.role,
      twoStepDeadline: deadlineOf(user),
    },
    jwtSecret,
  );
  return { access, refresh, user };
}
