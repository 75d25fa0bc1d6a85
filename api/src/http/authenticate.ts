import type { FastifyInstance, FastifyRequest, FastifySchema, onRequestHookHandler } from 'fastify';
import type { RevokedSessions } from '../modules/accounts/revoked-sessions.js';
import { type AccessClaims, verifyAccessToken } from '../modules/accounts/tokens.js';
import { unauthorized } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, on routes that declare `security: bearerAuth`; null elsewhere. */
    accessClaims: AccessClaims | null;
  }
}

/** OpenAPI marker for routes that need a bearer token; it is also what makes them authenticate. */
export const bearerAuth = [{ bearerAuth: [] }];

const needsBearerToken = (schema: FastifySchema | undefined) =>
  Array.isArray(schema?.security) &&
  schema.security.some((requirement: Record<string, unknown>) => 'bearerAuth' in requirement);

/**
 * Every route whose schema declares `bearerAuth`, now and in the future, checks its bearer token
 * first, when the request arrives: a signed-out caller gets 401 before the body is parsed or
 * validated, so it never learns the shape a body should have.
 */
export function registerAuthentication(
  app: FastifyInstance,
  jwtSecret: Uint8Array,
  revokedSessions: RevokedSessions,
): void {
  app.decorateRequest('accessClaims', null);
  const authenticate: onRequestHookHandler = async (request) => {
    const claims = await verifyAccessToken(bearerToken(request), jwtSecret);
    if (revokedSessions.isRevoked(claims.sessionId)) throw unauthorized('Token has been revoked');
    request.accessClaims = claims;
  };
  app.addHook('onRoute', (route) => {
    if (!needsBearerToken(route.schema)) return;
    route.onRequest = [authenticate, ...[route.onRequest ?? []].flat()];
  });
}

/** Exactly `Bearer <token>`: anything after the token is refused rather than ignored. */
function bearerToken(request: FastifyRequest): string {
  const [scheme, token, ...rest] = (request.headers.authorization ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !token || rest.length > 0) {
    throw unauthorized('Authentication credentials were not provided.');
  }
  return token;
}

/** The signed-in user behind a request to a route that declares `bearerAuth`. */
export function signedInUser(request: FastifyRequest): AccessClaims {
  if (!request.accessClaims) {
    throw new Error(`${request.routeOptions.url} authenticates but does not declare security: bearerAuth`);
  }
  return request.accessClaims;
}
