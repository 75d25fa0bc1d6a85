import type { FastifyRequest } from 'fastify';
import { type AccessClaims, verifyAccessToken } from '../modules/accounts/tokens.js';
import { unauthorized } from './errors.js';

/** The signed-in user behind a request's bearer token; 401 without a valid access token. */
export function authenticate(request: FastifyRequest, jwtSecret: Uint8Array): Promise<AccessClaims> {
  const header = request.headers.authorization ?? '';
  const [scheme, token] = header.split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !token) {
    return Promise.reject(unauthorized('Authentication credentials were not provided.'));
  }
  return verifyAccessToken(token, jwtSecret);
}

/** OpenAPI marker for routes that need a bearer token. */
export const bearerAuth = [{ bearerAuth: [] }];
