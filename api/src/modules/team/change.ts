import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { lockUntilCommit } from '../../db/query-helpers.js';
import { asConnectingRole } from '../../db/tenant.js';
import { HttpError } from '../../http/errors.js';
import { findUserById } from '../accounts/queries.js';
import { withModule } from '../billing/access.js';
import { isDemoAgency } from '../tenants/queries.js';

const DEMO_TEAM =
  "The demo agency's team is fixed: register your own agency to invite colleagues and give them roles.";

/**
 * Runs a change to the team in the agency's transaction (its audit line and plan count are tenant
 * rows), as the connecting role: members, invitations and the agency are platform rows. Growing or
 * changing the team takes an active subscription or trial, like the book does; the demo agency's
 * team, shared by every visitor, is not theirs to change.
 */
export const changeTeam = <T>(
  ctx: Pick<AppContext, 'db'>,
  request: FastifyRequest,
  work: (tx: Transaction) => Promise<T>,
) =>
  withModule(ctx, request, undefined, (tx, { tenantId }) =>
    asConnectingRole(tx, async () => {
      if (await isDemoAgency(tx, tenantId)) throw new HttpError(403, { detail: DEMO_TEAM });
      // One change to an agency's team at a time: two owners demoting each other at once would
      // otherwise each lock one and wait on the other (a deadlock); now the second sees the first's
      // outcome, and is refused as the last owner's demotion (409).
      await lockUntilCommit(tx, `team:${tenantId}`);
      return work(tx);
    }),
  );

/** Who did it, for the audit line. */
export const actorEmail = async (tx: Transaction, userId: string) =>
  (await findUserById(tx, userId))?.email ?? null;
