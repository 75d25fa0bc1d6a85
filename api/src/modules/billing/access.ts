import { MODULE_LABELS, type ModuleName } from '@coverdesk/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { withTenant } from '../../db/tenant.js';
import { authenticate } from '../../http/authenticate.js';
import { HttpError } from '../../http/errors.js';
import { isAdmin } from '../accounts/queries.js';
import type { AccessClaims } from '../accounts/tokens.js';
import { findSubscription } from './queries.js';

/**
 * The server side of the plan gate the web app shows: 402 without an active subscription or trial,
 * 403 when the plan does not include the module (when one is named). Platform admins pass.
 */
export async function requireModule(db: Database, auth: AccessClaims, module?: ModuleName): Promise<void> {
  if (await isAdmin(db, auth.userId)) return;
  const subscription = await withTenant(db, auth.tenantId, (tx) => findSubscription(tx, auth.tenantId));
  if (!subscription?.is_active) {
    throw new HttpError(402, {
      detail: 'Your subscription is not active. Choose a plan on the Billing page to continue.',
    });
  }
  if (module && !subscription.features.includes(module)) {
    throw new HttpError(403, {
      detail: `Your ${subscription.plan_details.display_name} plan does not include ${MODULE_LABELS[module]}. Upgrade your plan on the Billing page to use it.`,
    });
  }
}

/**
 * The signed-in user of a request to a module, once their plan lets them in. Without a module, any
 * active subscription or trial will do.
 */
export async function authorizeModule(
  { config, db }: AppContext,
  request: FastifyRequest,
  module?: ModuleName,
): Promise<AccessClaims> {
  const auth = await authenticate(request, config.jwtSecret);
  await requireModule(db, auth, module);
  return auth;
}
