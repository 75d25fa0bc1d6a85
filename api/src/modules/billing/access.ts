import { keptToOwnBook, MODULE_LABELS, MODULES, type ModuleName } from '@coverdesk/contract';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { withTenant } from '../../db/tenant.js';
import { signedInUser } from '../../http/authenticate.js';
import { HttpError } from '../../http/errors.js';
import { isAdmin } from '../accounts/queries.js';
import type { AccessClaims } from '../accounts/tokens.js';
import { findModuleAccess } from './queries.js';
import { settle } from './settle.js';

/** The plan gate closed: 402 without an active subscription or trial, 403 without the module. */
export class PlanRefusal extends HttpError {}

/** One module, or several that a request works across (a lead converted into a customer). */
type Modules = ModuleName | readonly ModuleName[] | undefined;

/**
 * The server side of the plan gate the web app shows, inside the tenant transaction: without an
 * active subscription or trial 402, and 403 when the plan does not include a module named.
 */
async function requirePlan(
  tx: Transaction,
  tenantId: string,
  modules: Modules,
): Promise<readonly ModuleName[]> {
  let access = await findModuleAccess(tx, tenantId);
  if (access?.lapsed) {
    // A trial or period ran out since the schedule last looked: apply it now, then look again (a
    // manual subscription renews).
    await settle(tx, tenantId, new Date());
    access = await findModuleAccess(tx, tenantId);
  }
  if (!access?.isActive) {
    throw new PlanRefusal(402, {
      detail: 'Your subscription is not active. Choose a plan on the Billing page to continue.',
    });
  }
  const missing = ([] as ModuleName[])
    .concat(modules ?? [])
    .find((module) => !access.modules.includes(module));
  if (missing) {
    throw new PlanRefusal(403, {
      detail: `Your ${access.planName} plan does not include ${MODULE_LABELS[missing]}. Upgrade your plan on the Billing page to use it.`,
    });
  }
  return access.modules;
}

/** Who a request to a module works for: the signed-in user, or the owner of a calendar feed. */
type Caller = Pick<AccessClaims, 'tenantId' | 'userId'> & Partial<Pick<AccessClaims, 'role'>>;

/**
 * Runs a request to a module in one tenant transaction, after the plan check in the same
 * transaction; `work` also gets the modules the plan includes (every module for an admin). Without
 * a module, any active subscription or trial will do. Platform admins pass every gate; they are
 * looked up only when the plan refuses, so a broker's request costs no extra query, and outside the
 * refused transaction, so it never waits for a second connection.
 */
export async function withModule<T>(
  ctx: Pick<AppContext, 'db'>,
  request: FastifyRequest,
  module: Modules,
  work: (tx: Transaction, auth: AccessClaims, modules: readonly ModuleName[]) => Promise<T>,
): Promise<T> {
  return withModuleFor(ctx, signedInUser(request), module, work);
}

/** The same gate for a caller known by other means than a signed-in request (a feed's secret). */
export async function withModuleFor<T, C extends Caller>(
  { db }: Pick<AppContext, 'db'>,
  auth: C,
  module: Modules,
  work: (tx: Transaction, auth: C, modules: readonly ModuleName[]) => Promise<T>,
): Promise<T> {
  // An agent of an agency that shows agents their own book sees only that (db/tenant.ts).
  const options = { bookMember: auth.role && keptToOwnBook(auth.role) ? auth.userId : undefined };
  try {
    return await withTenant(
      db,
      auth.tenantId,
      async (tx) => {
        const modules = await requirePlan(tx, auth.tenantId, module);
        return work(tx, auth, modules);
      },
      options,
    );
  } catch (error) {
    if (!(error instanceof PlanRefusal) || !(await isAdmin(db, auth.userId))) throw error;
    return withTenant(
      db,
      auth.tenantId,
      (tx) => {
        return work(tx, auth, MODULES);
      },
      options,
    );
  }
}

/** The signed-in user of a request to a module once the plan lets them in, for work outside a tenant transaction. */
export const authorizeModule = (ctx: Pick<AppContext, 'db'>, request: FastifyRequest, module?: ModuleName) =>
  withModule(ctx, request, module, async (_tx, auth) => auth);
