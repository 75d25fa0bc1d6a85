import {
  AGENCY_MFA_REQUIRED,
  detailResponse,
  MFA_REQUIRED_CODE,
  mayHandleRole,
  roleCan,
  roleRefusal,
  TEAM_ROLES,
  type TeamAction,
  type TeamRole,
} from '@coverdesk/contract';
import type {
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  onRequestHookHandler,
  RouteOptions,
} from 'fastify';
import type { z } from 'zod';
import type { RevokedSessions } from '../modules/accounts/revoked-sessions.js';
import type { SessionActivity } from '../modules/accounts/session-activity.js';
import { type AccessClaims, verifyAccessToken } from '../modules/accounts/tokens.js';
import { HttpError, unauthorized } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, on routes that declare `security: bearerAuth`; null elsewhere. */
    accessClaims: AccessClaims | null;
  }
  interface FastifyContextConfig {
    /** What the route does, for the role check: a read for GET, work on the book otherwise. */
    action?: TeamAction;
  }
}

/** OpenAPI marker for routes that need a bearer token; it is also what makes them authenticate. */
export const bearerAuth = [{ bearerAuth: [] }];

const needsBearerToken = (schema: FastifySchema | undefined) =>
  Array.isArray(schema?.security) &&
  schema.security.some((requirement: Record<string, unknown>) => 'bearerAuth' in requirement);

/**
 * What a route does as far as roles go: the action it declares, else a read for GET and work on the
 * book for any other method. Undefined for the platform admin's routes, which the admin flag guards
 * whatever the admin's role in their own agency.
 */
export function actionOf(route: Pick<RouteOptions, 'url' | 'method' | 'config'>): TeamAction | undefined {
  if (route.url.startsWith('/api/admin/')) return undefined;
  const declared = (route.config as { action?: TeamAction } | undefined)?.action;
  if (declared) return declared;
  const methods = [route.method].flat();
  return methods.every((method) => method === 'GET' || method === 'HEAD') ? 'read' : 'work';
}

/**
 * Every route whose schema declares `bearerAuth`, now and in the future, checks its bearer token
 * first, when the request arrives: a signed-out caller gets 401 before the body is parsed or
 * validated, so it never learns the shape a body should have.
 */
export function registerAuthentication(
  app: FastifyInstance,
  jwtSecret: Uint8Array,
  revokedSessions: RevokedSessions,
  sessionActivity: SessionActivity,
  /** Whether a member still has two-step sign-in off (asked only once their agency's grace is over). */
  lacksTwoStep: (userId: string) => Promise<boolean>,
): void {
  app.decorateRequest('accessClaims', null);
  const authenticate: onRequestHookHandler = async (request) => {
    const claims = await verifyAccessToken(bearerToken(request), jwtSecret);
    if (revokedSessions.isRevoked(claims.sessionId)) throw unauthorized('Token has been revoked');
    request.accessClaims = claims;
    await sessionActivity.seen(claims.sessionId);
  };
  app.addHook('onRoute', (route) => {
    if (!needsBearerToken(route.schema)) return;
    const action = actionOf(route);
    const authorize: onRequestHookHandler = async (request) => {
      if (!action) return;
      const auth = signedInUser(request);
      requireRole(auth, action);
      // The agency requires two-step sign-in and the grace is over: the member's own account only,
      // to turn it on (the token says so; the database, whether it was turned on since).
      const overdue = auth.twoStepDeadline !== undefined && Date.now() > auth.twoStepDeadline;
      if (overdue && action !== 'own_account' && (await lacksTwoStep(auth.userId))) {
        throw new HttpError(403, { code: MFA_REQUIRED_CODE, detail: AGENCY_MFA_REQUIRED });
      }
    };
    route.onRequest = [authenticate, authorize, ...[route.onRequest ?? []].flat()];
    if (action && !TEAM_ROLES.every((role) => roleCan(role, action))) documentRefusal(route.schema);
  });
}

/**
 * The one place a member's role is weighed against what a request does (`TEAM_ACTIONS`): before the
 * handler for the route's own action, and from a handler for a change that takes more (a profile
 * change that renames the agency).
 */
export function requireRole(auth: Pick<AccessClaims, 'role'>, action: TeamAction): void {
  if (!roleCan(auth.role, action)) throw new HttpError(403, { detail: roleRefusal(auth.role) });
}

/**
 * Ownership (`mayHandleRole`), weighed by the team's routes once they know the roles a change
 * touches: the role it gives and the role of the member it changes.
 */
export function requireOwnership(
  auth: Pick<AccessClaims, 'role'>,
  roles: readonly (TeamRole | undefined)[],
): void {
  if (roles.some((role) => role !== undefined && !mayHandleRole(auth.role, role))) {
    throw new HttpError(403, {
      detail: 'Only an owner can make someone an owner, invite one or change one.',
    });
  }
}

/** A route some roles may not call answers them 403 `{detail}`, beside the 403 it documents already. */
function documentRefusal(schema: FastifySchema | undefined): void {
  if (!schema) return;
  const response = (schema.response ?? {}) as Record<string, z.ZodType>;
  const documented = response['403'];
  schema.response = {
    ...response,
    403: documented && documented !== detailResponse ? documented.or(detailResponse) : detailResponse,
  };
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
