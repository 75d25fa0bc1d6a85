import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { v7 as uuidv7 } from 'uuid';
import type { Executor } from '../../db/client.js';
import { unauthorized } from '../../http/errors.js';
import { refreshTokens } from './tables.js';

const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const REFRESH_TOKEN_TTL_DAYS = 30;
const ISSUER = 'coverdesk';
const AUDIENCE = 'coverdesk-api';
const ALGORITHM = 'HS256';

export interface AccessClaims {
  userId: string;
  tenantId: string;
  /** The sign-in (refresh token family) this access token belongs to. */
  sessionId: string;
}

export function issueAccessToken(claims: AccessClaims, secret: Uint8Array): Promise<string> {
  return new SignJWT({ tid: claims.tenantId, sid: claims.sessionId, token_type: 'access' })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
    .sign(secret);
}

/** Checks signature, algorithm, issuer, audience, expiry and that it is an access token. */
export async function verifyAccessToken(token: string, secret: Uint8Array): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ['sub', 'exp', 'tid', 'sid'],
    });
    if (
      payload.token_type !== 'access' ||
      typeof payload.tid !== 'string' ||
      typeof payload.sid !== 'string'
    ) {
      throw unauthorized('Given token not valid for any token type');
    }
    return { userId: payload.sub as string, tenantId: payload.tid, sessionId: payload.sid };
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

/** Starts a sign-in (a new family) or continues one, returning the opaque token to hand out. */
export async function createRefreshToken(executor: Executor, userId: string, familyId = uuidv7()) {
  const { token, tokenHash } = randomToken();
  await executor.insert(refreshTokens).values({
    userId,
    familyId,
    tokenHash,
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_DAYS * 86_400_000),
  });
  return { token, familyId };
}

export type RotationResult = { ok: true; userId: string; familyId: string } | { ok: false };

/**
 * Spends a refresh token. Presenting one that was already spent means it leaked: the whole family
 * (every token descended from that sign-in) is revoked.
 */
export async function spendRefreshToken(executor: Executor, token: string): Promise<RotationResult> {
  const tokenHash = hashToken(token);
  const [spent] = await executor
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
    .returning({ userId: refreshTokens.userId, familyId: refreshTokens.familyId });
  if (spent) return { ok: true, ...spent };

  const [known] = await executor
    .select({ familyId: refreshTokens.familyId, usedAt: refreshTokens.usedAt })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, tokenHash));
  if (known?.usedAt) await revokeFamily(executor, known.familyId);
  return { ok: false };
}

export async function revokeFamily(executor: Executor, familyId: string): Promise<void> {
  await executor
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Revokes the family a token belongs to (sign-out). Unknown tokens are ignored. */
export async function revokeRefreshToken(executor: Executor, token: string): Promise<void> {
  const [known] = await executor
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, hashToken(token)));
  if (known) await revokeFamily(executor, known.familyId);
}

/** Signs a user out everywhere, optionally keeping the sign-in that asked for it. */
export async function revokeUserSessions(executor: Executor, userId: string, keepFamilyId?: string) {
  await executor
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        keepFamilyId ? ne(refreshTokens.familyId, keepFamilyId) : undefined,
      ),
    );
}
