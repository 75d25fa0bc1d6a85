import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client.js';
import { isAdmin } from '../modules/accounts/queries.js';
import type { AccessClaims } from '../modules/accounts/tokens.js';
import { signedInUser } from './authenticate.js';
import { HttpError } from './errors.js';

/** Platform-admin calls: a valid token whose user has `is_admin` in the database right now. */
export async function requireAdmin(request: FastifyRequest, db: Database): Promise<AccessClaims> {
  const auth = signedInUser(request);
  if (!(await isAdmin(db, auth.userId)))
    throw new HttpError(403, { detail: 'Only platform admins can do this.' });
  return auth;
}
