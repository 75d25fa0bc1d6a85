import { detailResponse, secureDeleteBody } from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { withTenant } from '../../db/tenant.js';
import { bearerAuth } from '../../http/authenticate.js';
import { conflict, fieldError, notFound, unauthorized } from '../../http/errors.js';
import { verifyPassword } from '../accounts/passwords.js';
import { findUserById } from '../accounts/queries.js';
import { auditTrail } from '../audit/trail.js';
import { authorizeModule, withModule } from '../billing/access.js';
import { consumeAttempt, refundAttempt, type ThrottleRule } from '../throttle/throttle.js';
import { claimsOnPolicy } from './in-use.js';
import { findPolicyForChange } from './queries.js';
import {
  errors,
  idParams,
  MODULE,
  NOT_FOUND,
  requirePolicy,
  requirePolicyForChange,
  tags,
} from './routes-shared.js';
import { deletePolicy } from './writes.js';

const DELETE_PAID =
  'Payments have been recorded on this policy. Use secure delete, which asks for your password, to delete it with its payment history.';

/** Deleting a policy: plainly while nothing is paid on it, or with its payments once the broker's password confirms it. */
export const policyDeleteRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = ctx;

    app.delete(
      '/policies/:id/',
      {
        schema: {
          tags,
          summary: 'Delete a policy nothing has been paid on and no claim is on',
          description:
            'Once payments are recorded this answers 409; secure delete removes it with its history. A policy with claims answers 409 whichever way it is deleted: claims are never deleted with their policy.',
          security: bearerAuth,
          params: idParams,
          response: { 204: z.null(), 409: detailResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        await withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const stored = await requirePolicyForChange(tx, tenantId, id);
          await claimsOnPolicy().refuse(tx, tenantId, stored);
          if (stored.hasPayments) throw conflict({ detail: DELETE_PAID });
          await auditTrail(tx, request)
            .changed('policy', id, () => deletePolicy(tx, tenantId, id))
            .catch(claimsOnPolicy().raceConflict(stored.policyNumber));
        });
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/policies/:id/secure-delete/',
      {
        config: { action: 'secure_delete' },
        schema: {
          tags,
          summary: 'Delete a policy with its instalments and payments, confirmed by password',
          description:
            'A policy with claims answers 409 before any password is weighed: claims are never deleted with their policy.',
          security: bearerAuth,
          params: idParams,
          body: secureDeleteBody,
          response: { 204: z.null(), 409: detailResponse, 429: detailResponse, ...errors },
        },
      },
      async (request, reply) => {
        const auth = await authorizeModule(ctx, request, MODULE);
        const { tenantId } = auth;
        const { id } = request.params;
        // Another agency's id reads as missing, and a policy with claims is refused, before any
        // password is weighed.
        await withTenant(db, tenantId, async (tx) => {
          const found = await requirePolicy(tx, tenantId, id);
          await claimsOnPolicy().refuse(tx, tenantId, { id, policyNumber: found.policy_number });
        });
        const user = await findUserById(db, auth.userId);
        if (!user) throw unauthorized('User not found');
        // The same bucket as the profile's password check: a stolen access token gets five guesses
        // in all, whichever form it guesses through.
        const guesses: ThrottleRule = {
          key: `password-check:user:${user.id}`,
          limit: 5,
          windowSeconds: 15 * 60,
        };
        await consumeAttempt(db, [guesses]);
        if (!(await verifyPassword(user.passwordHash, request.body.password))) {
          throw fieldError('password', 'Your password is incorrect.');
        }
        await refundAttempt(db, [guesses]);
        const deleted = await withTenant(db, tenantId, async (tx) => {
          const stored = await findPolicyForChange(tx, tenantId, id);
          if (!stored) return false;
          await claimsOnPolicy().refuse(tx, tenantId, stored);
          return auditTrail(tx, request)
            .changed('policy', id, () => deletePolicy(tx, tenantId, id))
            .catch(claimsOnPolicy().raceConflict(stored.policyNumber));
        });
        if (!deleted) throw notFound(NOT_FOUND);
        return reply.code(204).send(null);
      },
    );
  };
