import { ADMIN_MFA_REQUIRED, MFA_REQUIRED_CODE } from '@coverdesk/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { isAdmin } from '../modules/accounts/queries.js';
import type { AccessClaims } from '../modules/accounts/tokens.js';
import { signedInUser } from './authenticate.js';
import { HttpError } from './errors.js';

/**
 * Platform-admin calls: a valid token whose user has `is_admin` in the database right now, from a
 * sign-in through both steps (unless ADMIN_MFA_REQUIRED=false): an admin reaches every agency, so
 * a stolen password alone must not.
 */
export async function requireAdmin(
  request: FastifyRequest,
  { config, db }: AppContext,
): Promise<AccessClaims> {
  const auth = signedInUser(request);
  if (!(await isAdmin(db, auth.userId)))
    throw new HttpError(403, { detail: 'Only platform admins can do this.' });
  if (config.adminMfaRequired && !auth.twoStep) {
    throw new HttpError(403, { code: MFA_REQUIRED_CODE, detail: ADMIN_MFA_REQUIRED });
  }
  return auth;
}
