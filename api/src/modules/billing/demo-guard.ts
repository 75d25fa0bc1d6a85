import { detailResponse } from '@coverdesk/contract';
import type { onRequestHookHandler } from 'fastify';
import type { Executor } from '../../db/client.js';
import { signedInUser } from '../../http/authenticate.js';
import { HttpError } from '../../http/errors.js';
import { isDemoAgency } from '../tenants/queries.js';

export const DEMO_PLAN_FIXED = "The demo agency's plan cannot be changed; register to try billing";

/**
 * Refuses the demo agency's visitors. They all share one agency, so one visitor's change to its
 * subscription or cards would be every later visitor's: a demo cancelled at once answered 402 to
 * everyone until the nightly reset.
 */
const refuseDemoAgency =
  (db: Executor): onRequestHookHandler =>
  async (request) => {
    if (await isDemoAgency(db, signedInUser(request).tenantId)) {
      throw new HttpError(403, { detail: DEMO_PLAN_FIXED });
    }
  };

/**
 * The options of a billing route that changes something (the subscription, a checkout, the cards on
 * file): owners only; the demo agency is refused right after authentication, which `bearerAuth` puts first, and
 * before the body is read, and the refusal is documented beside the route's other answers. Reading
 * billing stays open to the demo.
 */
export function changingBilling<Options extends { schema: { response: object } }>(
  db: Executor,
  options: Options,
) {
  return {
    ...options,
    // Only owners pay, change the plan or the cards (the role check that bearerAuth puts first).
    config: { action: 'billing' as const },
    onRequest: refuseDemoAgency(db),
    schema: { ...options.schema, response: { ...options.schema.response, 403: detailResponse } },
  };
}
