import type { ProfileUpdateBody, UserProfile } from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/errors.js';
import { fieldError, HttpError, unauthorized } from '../../http/errors.js';
import { type AuditOrigin, changedFields, recordAudit } from '../audit/record.js';
import { tenants } from '../tenants/tables.js';
import { consumeAttempt, refundAttempt, type ThrottleRule } from '../throttle/throttle.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { findProfile, findUserByEmail, findUserById, replacePassword } from './queries.js';
import { assertAcceptablePassword, EMAIL_TAKEN } from './service.js';
import { users } from './tables.js';
import type { AccessClaims } from './tokens.js';

const REQUIRED = 'This field is required.';

/** What a profile change can touch and the audit log shows; never a password or its hash. */
const PROFILE_FIELDS = ['first_name', 'last_name', 'email', 'company_name', 'time_zone', 'currency'] as const;
const pick = (profile: UserProfile, fields: readonly (keyof UserProfile)[]) =>
  Object.fromEntries(fields.map((field) => [field, profile[field]]));
const RESERVED_EMAIL = 'This email address cannot be used.';

/**
 * Updates names, the agency's name, time zone and currency, email or password. Email and password
 * changes need the current password; demo users can change neither. A new password signs out every
 * other session.
 */
export async function updateProfile(
  { config, db, revokedSessions }: AppContext,
  auth: AccessClaims,
  body: ProfileUpdateBody,
  origin: AuditOrigin,
): Promise<{ user: UserProfile; message: string }> {
  const user = await findUserById(db, auth.userId);
  if (!user) throw unauthorized('User not found');

  // Every visitor shares the demo agency: nobody may rename it or lock others out of it.
  if (user.isDemoUser) throw new HttpError(403, { error: 'The demo account cannot be changed.' });

  const changesEmail = body.email !== undefined && body.email !== user.email;
  const changesPassword = body.new_password !== undefined;
  let passwordHash: string | undefined;
  if (changesEmail || changesPassword) {
    if (!body.current_password) throw fieldError('current_password', REQUIRED);
    // A stolen access token must not become a way to guess the password.
    const guesses: ThrottleRule = { key: `password-check:user:${user.id}`, limit: 5, windowSeconds: 15 * 60 };
    await consumeAttempt(db, [guesses]);
    if (!(await verifyPassword(user.passwordHash, body.current_password))) {
      throw new HttpError(400, { error: 'Your current password is incorrect.' });
    }
    await refundAttempt(db, [guesses]);
  }
  if (body.new_password) {
    assertAcceptablePassword('new_password', body.new_password, [
      body.email ?? user.email,
      body.first_name ?? user.firstName,
      body.last_name ?? user.lastName,
    ]);
    passwordHash = await hashPassword(body.new_password);
  }
  if (changesEmail && body.email) {
    // ADMIN_EMAILS makes whoever holds a listed address an admin at the next start: a broker must not
    // take one over.
    if (!user.isAdmin && config.adminEmails.includes(body.email.toLowerCase())) {
      throw fieldError('email', RESERVED_EMAIL);
    }
    if (await findUserByEmail(db, body.email)) throw fieldError('email', EMAIL_TAKEN);
  }

  try {
    const revoked = await db.transaction(async (tx) => {
      const before = await findProfile(tx, user.id);
      const changes = {
        firstName: body.first_name,
        lastName: body.last_name,
        email: changesEmail ? body.email : undefined,
      };
      if (Object.values(changes).some((value) => value !== undefined)) {
        await tx.update(users).set(changes).where(eq(users.id, user.id));
      }
      const agency = { name: body.company_name, timeZone: body.time_zone, currency: body.currency };
      if (Object.values(agency).some((value) => value !== undefined)) {
        await tx.update(tenants).set(agency).where(eq(tenants.id, user.tenantId));
      }
      const after = await findProfile(tx, user.id);
      const audited = {
        tenantId: user.tenantId,
        userId: user.id,
        actorEmail: user.email,
        entity: 'user',
        entityId: user.id,
      };
      const changed = changedFields(
        before ? pick(before, PROFILE_FIELDS) : null,
        after ? pick(after, PROFILE_FIELDS) : null,
      );
      if (Object.keys(changed).length > 0) {
        await recordAudit(tx, origin, { ...audited, action: 'profile_changed', changes: changed });
      }
      if (!passwordHash) return [];
      await recordAudit(tx, origin, { ...audited, action: 'password_changed' });
      return (await replacePassword(tx, user.id, passwordHash, auth.sessionId)).revokedSessions;
    });
    revokedSessions.add(revoked);
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('email', EMAIL_TAKEN);
    throw error;
  }

  const profile = await findProfile(db, user.id);
  if (!profile) throw unauthorized('User not found');
  return {
    user: profile,
    message: passwordHash ? 'Your password has been changed.' : 'Your profile has been updated.',
  };
}
