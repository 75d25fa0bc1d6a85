import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { TEAM_ROLES, type TeamRole } from '@coverdesk/contract';
import { and, asc, eq, gte, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { v7 as uuidv7 } from 'uuid';
import { namedCache } from '../../db/bounded-cache.js';
import type { Executor, Transaction } from '../../db/client.js';
import { lockUntilCommit } from '../../db/query-helpers.js';
import { unauthorized } from '../../http/errors.js';
import { refreshTokens } from './tables.js';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const REFRESH_TOKEN_TTL_DAYS = 30;
const ISSUER = 'coverdesk';
const AUDIENCE = 'coverdesk-api';
const ALGORITHM = 'HS256';

export interface AccessClaims {
  userId: string;
  tenantId: string;
  /** The sign-in (refresh token family) this access token belongs to. */
  sessionId: string;
  /** The sign-in came through both steps (password and an authenticator's code). */
  twoStep: boolean;
  /**
   * The member's role when the token was issued. A change of role ends the member's sessions, so a
   * token never outlives the role it carries.
   */
  role: TeamRole;
  /**
   * When the agency requires two-step sign-in and the member has it off: the moment (milliseconds
   * since the epoch) after which only their own account's routes answer them.
   */
  twoStepDeadline?: number;
}

// Importing the raw secret as a key costs more than the signature itself; do it once per secret.
const signingKeys = new WeakMap<Uint8Array, Promise<webcrypto.CryptoKey>>();
function signingKey(secret: Uint8Array): Promise<webcrypto.CryptoKey> {
  let key = signingKeys.get(secret);
  if (!key) {
    key = webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    signingKeys.set(secret, key);
  }
  return key;
}

export async function issueAccessToken(claims: AccessClaims, secret: Uint8Array): Promise<string> {
  return new SignJWT({
    tid: claims.tenantId,
    sid: claims.sessionId,
    mfa: claims.twoStep,
    role: claims.role,
    ...(claims.twoStepDeadline ? { mfa_by: Math.floor(claims.twoStepDeadline / 1000) } : {}),
    token_type: 'access',
  })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .sign(await signingKey(secret));
}

/**
 * Checks signature, algorithm, issuer, audience, expiry and that it is an access token. A token is
 * verified once per secret: a signed-in user sends the same one with every request until it
 * expires, and checking its signature cost as much as the rest of a list request's own work. Expiry
 * is checked on every use.
 */
export async function verifyAccessToken(token: string, secret: Uint8Array): Promise<AccessClaims> {
  const key = verifiedTokenKey(secret, token);
  const { claims, expiresAt } = await verifiedTokens.get(key, () =>
    // A rejected token is forgotten, so that made-up tokens cannot push good ones out of the cache.
    verifySignedToken(token, secret).catch((error: unknown) => {
      verifiedTokens.delete(key);
      throw error;
    }),
  );
  if (Date.now() >= expiresAt) throw unauthorized('Token is expired');
  return claims;
}

/**
 * Verified tokens, up to a bound (and those being verified), keyed by the secret they were verified
 * with as well: a token checked under one secret proves nothing under another.
 */
const verifiedTokens = namedCache<string, Promise<VerifiedToken>>(
  'verified-tokens',
  "Access tokens whose signature was checked, so a signed-in user's next requests skip the check.",
  10_000,
);
const secretNumbers = new WeakMap<Uint8Array, number>();
let secretsSeen = 0;
function verifiedTokenKey(secret: Uint8Array, token: string): string {
  let number = secretNumbers.get(secret);
  if (number === undefined) {
    secretsSeen += 1;
    number = secretsSeen;
    secretNumbers.set(secret, number);
  }
  return `${number} ${token}`;
}

interface VerifiedToken {
  claims: AccessClaims;
  /** When it expires, in milliseconds since the epoch. */
  expiresAt: number;
}

async function verifySignedToken(token: string, secret: Uint8Array): Promise<VerifiedToken> {
  try {
    const { payload } = await jwtVerify(token, await signingKey(secret), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['sub', 'exp', 'tid', 'sid'],
    });
    if (
      payload.token_type !== 'access' ||
      typeof payload.tid !== 'string' ||
      typeof payload.sid !== 'string' ||
      // Tokens from before roles carry none: refused, so the client refreshes into one that does.
      !TEAM_ROLES.includes(payload.role as TeamRole)
    ) {
      throw unauthorized('Given token not valid for any token type');
    }
    return {
      claims: {
        userId: payload.sub as string,
        tenantId: payload.tid,
        sessionId: payload.sid,
        twoStep: payload.mfa === true,
        role: payload.role as TeamRole,
        ...(typeof payload.mfa_by === 'number' ? { twoStepDeadline: payload.mfa_by * 1000 } : {}),
      },
      expiresAt: (payload.exp as number) * 1000,
    };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw unauthorized('Token is expired');
    throw unauthorized('Given token not valid for any token type');
  }
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A fresh 256-bit opaque token and its stored hash. */
export function randomToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

/** Where a token is handed out to: what the user's list of sessions shows of it. */
export interface Device {
  ipAddress: string | null;
  userAgent: string | null;
}

export const deviceOf = (request: FastifyRequest): Device => ({
  ipAddress: request.ip,
  // Bounded: a header is the client's to make up.
  userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
});

/** What a sign-in is: whether it came through both steps, and from where. */
export interface SessionStart extends Device {
  twoStep: boolean;
}

/** Starts a sign-in (a new family) or continues one, returning the opaque token to hand out. */
export async function createRefreshToken(
  executor: Executor,
  userId: string,
  start: SessionStart,
  familyId = uuidv7(),
) {
  const { token, tokenHash } = randomToken();
  await executor.insert(refreshTokens).values({
    userId,
    familyId,
    tokenHash,
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_DAYS * 86_400_000),
    twoStep: start.twoStep,
    ipAddress: start.ipAddress,
    userAgent: start.userAgent,
  });
  return { token, familyId };
}

/** A refused token names the sign-in it ended and its user, when it was a spent one presented again. */
export type RotationResult =
  | { ok: true; userId: string; familyId: string; twoStep: boolean }
  | { ok: false; revoked?: { familyId: string; userId: string } };

/**
 * A spent token presented again this soon, from the address and browser its successor was handed
 * to, is taken for a second tab refreshing at the same moment, not for theft: it is refused, but the
 * sign-in survives. From anywhere else, or later, it ends the sign-in.
 */
const REUSE_GRACE_SECONDS = 10;

/** Serialises refresh and sign-out within one sign-in, so a sign-out cannot miss a new token. */
export async function lockFamily(tx: Transaction, familyId: string): Promise<void> {
  await lockUntilCommit(tx, familyId);
}

/**
 * Spends a refresh token. Presenting one that was spent earlier means it leaked (OAuth 2.0 Security
 * BCP, rotation with reuse detection): the whole family, every token descended from that sign-in,
 * is revoked, whoever spent it first.
 */
export async function spendRefreshToken(
  tx: Transaction,
  token: string,
  device: Device,
): Promise<RotationResult> {
  const tokenHash = hashToken(token);
  const [known] = await tx
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash));
  if (!known) return { ok: false };
  await lockFamily(tx, known.familyId);

  const [spent] = await tx
    .update(refreshTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        isNull(refreshTokens.usedAt),
        isNull(refreshTokens.revokedAt),
        sql`${refreshTokens.expiresAt} > now()`,
      ),
    )
    .returning({
      userId: refreshTokens.userId,
      familyId: refreshTokens.familyId,
      twoStep: refreshTokens.twoStep,
    });
  if (spent) return { ok: true, ...spent };

  const [reused] = await tx
    .select({
      userId: refreshTokens.userId,
      recent: sql<boolean>`${refreshTokens.usedAt} > now() - make_interval(secs => ${REUSE_GRACE_SECONDS})`,
      usedAt: refreshTokens.usedAt,
    })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.tokenHash, tokenHash), sql`${refreshTokens.usedAt} is not null`));
  if (!reused?.usedAt) return { ok: false };
  if (reused.recent) {
    // The token handed out when this one was spent: where it went says who spent it.
    const [successor] = await tx
      .select({ ipAddress: refreshTokens.ipAddress, userAgent: refreshTokens.userAgent })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.familyId, known.familyId), gte(refreshTokens.createdAt, reused.usedAt)))
      .orderBy(asc(refreshTokens.createdAt))
      .limit(1);
    const sameDevice = successor?.ipAddress === device.ipAddress && successor.userAgent === device.userAgent;
    if (sameDevice) return { ok: false };
  }
  if (!(await revokeFamily(tx, known.familyId))) return { ok: false };
  return { ok: false, revoked: { familyId: known.familyId, userId: reused.userId } };
}

/** Revokes a sign-in's tokens still live; whether there were any. */
async function revokeFamily(executor: Executor, familyId: string): Promise<boolean> {
  const revoked = await executor
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return revoked.length > 0;
}

/** Revokes the family a token belongs to (sign-out), returning it and its user. Unknown tokens are ignored. */
export async function revokeRefreshToken(
  tx: Transaction,
  token: string,
): Promise<{ familyId: string; userId: string } | undefined> {
  const [known] = await tx
    .select({ familyId: refreshTokens.familyId, userId: refreshTokens.userId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(token)));
  if (!known) return undefined;
  await lockFamily(tx, known.familyId);
  await revokeFamily(tx, known.familyId);
  return known;
}

/**
 * Signs a user out everywhere, optionally keeping the sign-in that asked for it; returns the sign-ins
 * revoked.
 */
export async function revokeUserSessions(
  executor: Executor,
  userId: string,
  keepFamilyId?: string,
): Promise<string[]> {
  const revoked = await executor
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        keepFamilyId ? ne(refreshTokens.familyId, keepFamilyId) : undefined,
      ),
    )
    .returning({ familyId: refreshTokens.familyId });
  return [...new Set(revoked.map((row) => row.familyId))];
}
