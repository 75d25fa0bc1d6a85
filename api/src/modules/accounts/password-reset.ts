import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import { fieldError } from '../../http/errors.js';
import { type AuditOrigin, recordAudit } from '../audit/record.js';
import { linkEmail } from '../mail/html.js';
import { consumeAttempt, withinLimit } from '../throttle/throttle.js';
import { hashPassword } from './passwords.js';
import { findUserByEmail, findUserById, replacePassword } from './queries.js';
import { assertAcceptablePassword } from './service.js';
import { passwordResetTokens } from './tables.js';
import { hashToken, randomToken } from './tokens.js';

const RESET_TOKEN_TTL_MINUTES = 60;
const INVALID_LINK = 'This password reset link is invalid or has expired.';

/**
 * Emails a reset link when the address belongs to an account. The caller answers at once and the
 * same way either way; the lookup and the email happen afterwards, so neither the answer nor its
 * timing tells anyone which addresses have accounts.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  email: string,
  ip: string,
  log: FastifyBaseLogger,
) {
  await consumeAttempt(ctx.db, [{ key: `reset:ip:${ip}`, limit: 10, windowSeconds: 3600 }]);
  void sendResetLink(ctx, email).catch((err: unknown) => log.error({ err }, 'password reset email failed'));
}

/**
 * Emails the account a reset link, unless it has none to reset (the demo user) or was sent three in
 * the last hour; says which. Also how a platform admin sends one on a user's behalf.
 */
export async function sendResetLink(
  { config, db, mailer }: AppContext,
  email: string,
): Promise<'sent' | 'no-account' | 'too-many'> {
  const user = await findUserByEmail(db, email);
  if (!user || user.isDemoUser) return 'no-account';
  // A quiet per-account cap, so the form cannot be used to flood someone's inbox.
  if (!(await withinLimit(db, [{ key: `reset:user:${user.id}`, limit: 3, windowSeconds: 3600 }]))) {
    return 'too-many';
  }

  const { token, tokenHash } = randomToken();
  await db.insert(passwordResetTokens).values({
    userId: user.id,
    tokenHash,
    expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MINUTES * 60_000),
  });
  const link = `${config.appUrl}/reset-password/${token}`;
  await mailer.send(
    linkEmail({
      to: user.email,
      subject: 'Reset your Coverdesk password',
      paragraphs: [
        `Hello ${user.firstName || 'there'},`,
        'Someone asked to reset the password of your Coverdesk account. To choose a new password, open this link.',
      ],
      link: { url: link, label: 'Choose a new password' },
      after: [
        `The link works once and expires in ${RESET_TOKEN_TTL_MINUTES} minutes. If you did not ask for this, you can ignore this email; your password stays as it is.`,
      ],
    }),
  );
  return 'sent';
}

/** Sets a new password from a reset link; the link is spent and every session is signed out. */
export async function confirmPasswordReset(
  { db, revokedSessions }: AppContext,
  token: string,
  newPassword: string,
  origin: AuditOrigin,
) {
  const [candidate] = await db
    .select({ userId: passwordResetTokens.userId })
    .from(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.tokenHash, hashToken(token)),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, sql`now()`),
      ),
    );
  if (!candidate) throw fieldError('token', INVALID_LINK);
  const user = await findUserById(db, candidate.userId);
  if (!user) throw fieldError('token', INVALID_LINK);
  assertAcceptablePassword('new_password', newPassword, [user.email, user.firstName, user.lastName]);
  const passwordHash = await hashPassword(newPassword);

  const revoked = await db.transaction(async (tx) => {
    const replaced = await replacePassword(tx, candidate.userId, passwordHash);
    // Replacing the password spends every open link of the account at once, so the one used here
    // is single-use even when two requests race with it: the one that did not spend it rolls back.
    if (!replaced.spentResetLinks.includes(hashToken(token))) throw fieldError('token', INVALID_LINK);
    await recordAudit(tx, origin, {
      tenantId: user.tenantId,
      userId: user.id,
      actorEmail: user.email,
      action: 'password_changed',
      entity: 'user',
      entityId: user.id,
      reason: 'Reset with a link sent by email.',
    });
    return replaced.revokedSessions;
  });
  revokedSessions.add(revoked);
}
