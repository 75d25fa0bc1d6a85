import { randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT, type TotpSetup } from '@coverdesk/contract';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type { Database, Executor, Transaction } from '../../db/client.js';
import { fieldError, HttpError } from '../../http/errors.js';
import { type AuditOrigin, recordAudit } from '../audit/record.js';
import { consumeAttempt } from '../throttle/throttle.js';
import { verifyPassword } from './passwords.js';
import { accountEntry, findUserById } from './queries.js';
import { mfaChallenges, mfaRecoveryCodes, users } from './tables.js';
import { hashToken, randomToken, revokeUserSessions } from './tokens.js';
import { newTotpSecret, otpauthUrl, stepOfCode } from './totp.js';

export const WRONG_CODE = 'That code is not right. Enter the newest code your authenticator app shows.';
const WRONG_RECOVERY_CODE = 'That recovery code is not right, or it was used already.';
const CHALLENGE_MINUTES = 5;
/** Tries of a code per half-done sign-in, and per account an hour, whatever the sign-in. */
export const CHALLENGE_TRIES = 5;
const TRIES_PER_HOUR = 20;

/** The second step as typed: the app's code, or one recovery code (both already normalised). */
export interface SecondStep {
  code?: string;
  recovery_code?: string;
}

type User = NonNullable<Awaited<ReturnType<typeof findUserById>>>;

/**
 * Counts a try of a code on the account, or refuses it with 429 saying when to try again: twenty an
 * hour, across sign-ins and settings, so guessing six digits never pays.
 */
export async function admitCodeTry(executor: Executor, userId: string): Promise<void> {
  await consumeAttempt(
    executor,
    [{ key: `mfa:user:${userId}`, limit: TRIES_PER_HOUR, windowSeconds: 3600 }],
    'Too many codes were tried.',
  );
}

/** Recovery codes read "ABCD-EFGH-JKLM": base32, which no one misreads (no 0, 1, 8 or 9). */
const RECOVERY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
function newRecoveryCode(): string {
  const characters = Array.from({ length: 12 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return [0, 4, 8].map((start) => characters.slice(start, start + 4).join('')).join('-');
}
/** The code as stored: hashed, without its dashes. */
const recoveryHash = (normalised: string) => hashToken(normalised);

/** Ten new codes in place of the old ones, which stop working; shown once, kept hashed. */
async function replaceRecoveryCodes(tx: Transaction, userId: string): Promise<string[]> {
  await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx
    .insert(mfaRecoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: recoveryHash(code.replaceAll('-', '')) })));
  return codes;
}

async function requireUser(executor: Executor, userId: string): Promise<User> {
  const user = await findUserById(executor, userId);
  if (!user) throw new HttpError(401, { detail: 'User not found' });
  return user;
}

/** A secret to set up, shown as a QR code and as text; it counts only once a right code confirms it. */
export async function beginTotpSetup(db: Database, userId: string): Promise<TotpSetup> {
  const user = await requireUser(db, userId);
  if (user.isDemoUser) {
    throw new HttpError(403, { detail: 'The demo account is shared: two-step sign-in stays off.' });
  }
  if (user.mfaSecret) {
    throw new HttpError(400, {
      detail: 'Two-step sign-in is already on. Turn it off first to set it up again.',
    });
  }
  const secret = newTotpSecret();
  await db.update(users).set({ mfaPendingSecret: secret }).where(eq(users.id, userId));
  return { secret, otpauth_url: otpauthUrl(secret, user.email) };
}

/**
 * Turns two-step sign-in on with a right code. The account's other sessions end (whoever held the
 * password may have one); the one that turned it on goes on. Answers the recovery codes and the
 * sessions ended.
 */
export async function confirmTotp(
  db: Database,
  auth: { userId: string; sessionId: string },
  code: string,
  origin: AuditOrigin,
) {
  const { userId } = auth;
  await admitCodeTry(db, userId);
  return db.transaction(async (tx) => {
    const user = await requireUser(tx, userId);
    if (user.mfaSecret) throw new HttpError(400, { detail: 'Two-step sign-in is already on.' });
    if (!user.mfaPendingSecret) {
      throw new HttpError(400, {
        detail: 'Start setting up two-step sign-in first: the secret to scan comes then.',
      });
    }
    const step = stepOfCode(user.mfaPendingSecret, code);
    if (step === null) throw fieldError('code', WRONG_CODE);
    const [turnedOn] = await tx
      .update(users)
      .set({
        mfaSecret: user.mfaPendingSecret,
        mfaPendingSecret: null,
        mfaEnabledAt: sql`now()`,
        mfaLastStep: step,
      })
      .where(and(eq(users.id, userId), isNull(users.mfaSecret)))
      .returning({ id: users.id });
    if (!turnedOn) throw new HttpError(400, { detail: 'Two-step sign-in is already on.' });
    const codes = await replaceRecoveryCodes(tx, userId);
    const ended = await revokeUserSessions(tx, userId, auth.sessionId);
    await recordAudit(tx, origin, accountEntry(user, 'mfa_enabled'));
    if (ended.length > 0) {
      await recordAudit(tx, origin, {
        ...accountEntry(user, 'sessions_ended'),
        reason: 'Two-step sign-in was turned on: the sessions signed in by password alone ended.',
      });
    }
    return { codes, ended };
  });
}

/**
 * Checks the second step and spends it: an app's code for a step no code was accepted for before
 * (so a code is good once), or a recovery code not used before. False when it is not right.
 */
export async function spendSecondStep(tx: Transaction, user: User, proof: SecondStep): Promise<boolean> {
  if (!user.mfaSecret) return false;
  if (proof.code !== undefined) {
    const step = stepOfCode(user.mfaSecret, proof.code);
    if (step === null) return false;
    const [accepted] = await tx
      .update(users)
      .set({ mfaLastStep: step })
      .where(and(eq(users.id, user.id), or(isNull(users.mfaLastStep), sql`${users.mfaLastStep} < ${step}`)))
      .returning({ id: users.id });
    return accepted !== undefined;
  }
  if (proof.recovery_code === undefined) return false;
  const [spent] = await tx
    .update(mfaRecoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(mfaRecoveryCodes.userId, user.id),
        eq(mfaRecoveryCodes.codeHash, recoveryHash(proof.recovery_code)),
        isNull(mfaRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: mfaRecoveryCodes.id });
  return spent !== undefined;
}

/** The 400 for a second step that was not right, on the field it was typed in. */
export const wrongSecondStep = (proof: SecondStep) =>
  proof.code !== undefined
    ? fieldError('code', WRONG_CODE)
    : fieldError('recovery_code', WRONG_RECOVERY_CODE);

/** Clears two-step sign-in: the secret, the one being set up and the recovery codes. */
async function clearMfa(tx: Transaction, userId: string): Promise<void> {
  await tx
    .update(users)
    .set({ mfaSecret: null, mfaPendingSecret: null, mfaEnabledAt: null, mfaLastStep: null })
    .where(eq(users.id, userId));
  await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
}

/** Turns two-step sign-in off, with the password and a current code. */
export async function disableTotp(
  db: Database,
  userId: string,
  body: { password: string; code: string },
  origin: AuditOrigin,
): Promise<void> {
  await admitCodeTry(db, userId);
  const user = await requireUser(db, userId);
  if (!user.mfaSecret) throw new HttpError(400, { detail: 'Two-step sign-in is already off.' });
  if (!(await verifyPassword(user.passwordHash, body.password))) {
    throw fieldError('password', 'That password is not right.');
  }
  await db.transaction(async (tx) => {
    if (!(await spendSecondStep(tx, user, { code: body.code }))) throw fieldError('code', WRONG_CODE);
    await clearMfa(tx, userId);
    await recordAudit(tx, origin, accountEntry(user, 'mfa_disabled'));
  });
}

/** Ten new recovery codes for a current code; the old ones stop working. */
export async function renewRecoveryCodes(
  db: Database,
  userId: string,
  code: string,
  origin: AuditOrigin,
): Promise<string[]> {
  await admitCodeTry(db, userId);
  const user = await requireUser(db, userId);
  if (!user.mfaSecret) throw new HttpError(400, { detail: 'Turn two-step sign-in on first.' });
  return db.transaction(async (tx) => {
    if (!(await spendSecondStep(tx, user, { code }))) throw fieldError('code', WRONG_CODE);
    const codes = await replaceRecoveryCodes(tx, userId);
    await recordAudit(tx, origin, accountEntry(user, 'mfa_recovery_codes_renewed'));
    return codes;
  });
}

/** A platform admin clears a user's two-step sign-in (a lost phone); the caller records why. */
export async function resetMfa(tx: Transaction, userId: string): Promise<void> {
  await clearMfa(tx, userId);
}

/** Starts the second step of a sign-in whose password was right: a token good for five minutes. */
export async function startChallenge(db: Database, userId: string): Promise<string> {
  const { token, tokenHash } = randomToken();
  // The account's spent and lapsed challenges go as it starts a new one: a few rows at most remain.
  await db
    .delete(mfaChallenges)
    .where(
      and(
        eq(mfaChallenges.userId, userId),
        sql`(${mfaChallenges.usedAt} is not null or ${mfaChallenges.expiresAt} < now())`,
      ),
    );
  await db.insert(mfaChallenges).values({
    userId,
    tokenHash,
    expiresAt: sql`now() + make_interval(mins => ${CHALLENGE_MINUTES})`,
  });
  return token;
}

/**
 * Counts a try on a half-done sign-in: its user, or undefined when the token is unknown, spent or
 * past its five minutes. 429 once its five tries are used.
 */
export async function tryChallenge(db: Database, token: string): Promise<User | undefined> {
  const live = and(
    eq(mfaChallenges.tokenHash, hashToken(token)),
    isNull(mfaChallenges.usedAt),
    sql`${mfaChallenges.expiresAt} > now()`,
  );
  const [found] = await db.select({ userId: mfaChallenges.userId }).from(mfaChallenges).where(live);
  if (!found) return undefined;
  const [counted] = await db
    .update(mfaChallenges)
    .set({ attempts: sql`${mfaChallenges.attempts} + 1` })
    .where(and(live, sql`${mfaChallenges.attempts} < ${CHALLENGE_TRIES}`))
    .returning({ userId: mfaChallenges.userId });
  if (!counted)
    throw new HttpError(429, { detail: 'Too many codes were tried for this sign-in. Sign in again.' });
  return findUserById(db, counted.userId);
}

/** Ends a half-done sign-in once its second step was right: the token is good once. */
export async function spendChallenge(tx: Transaction, token: string): Promise<boolean> {
  const [spent] = await tx
    .update(mfaChallenges)
    .set({ usedAt: sql`now()` })
    .where(and(eq(mfaChallenges.tokenHash, hashToken(token)), isNull(mfaChallenges.usedAt)))
    .returning({ id: mfaChallenges.id });
  return spent !== undefined;
}
