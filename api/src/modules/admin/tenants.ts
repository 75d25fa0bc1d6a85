import {
  adminSubscriptionUpdateBody,
  detailResponse,
  fieldErrorsResponse,
  subscriptionState,
} from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { withTenant } from '../../db/tenant.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { fieldError, notFound } from '../../http/errors.js';
import { findSubscription } from '../billing/queries.js';
import { actorFor, applyTransition, lockSubscription } from '../billing/record.js';
import { plans } from '../billing/tables.js';

/** Absent stays absent (no change), null clears, a timestamp sets. */
const toDate = (value: string | null | undefined): Date | null | undefined =>
  value === undefined || value === null ? value : new Date(value);

const tenantParams = z.object({ id: z.uuid('Not a valid id.') });

/** The agencies on the platform, and what an admin may change about one. */
export const adminTenantRoutes =
  ({ db }: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.patch(
      '/tenants/:id/subscription/',
      {
        schema: {
          tags: ['admin'],
          summary: "Change an agency's plan, status, trial end or period end",
          security: bearerAuth,
          params: tenantParams,
          body: adminSubscriptionUpdateBody,
          response: {
            200: subscriptionState,
            400: fieldErrorsResponse,
            403: detailResponse,
            404: detailResponse,
          },
        },
      },
      async (request) => {
        const admin = signedInUser(request);
        const { id: tenantId } = request.params;
        const { plan: planName, status, billing_cycle, trial_ends_at, current_period_end } = request.body;
        const [plan] = planName ? await db.select().from(plans).where(eq(plans.name, planName)) : [];
        if (planName && !plan) throw fieldError('plan', `There is no plan named "${planName}".`);

        const actor = await actorFor(db, admin.userId);
        const updated = await withTenant(db, tenantId, async (tx) => {
          const locked = await lockSubscription(tx, tenantId);
          if (!locked) return undefined;
          const now = new Date();
          await applyTransition(tx, locked, {
            type: 'changed_by_admin',
            set: {
              planId: plan?.id,
              status,
              billingCycle: billing_cycle,
              trialEndsAt: toDate(trial_ends_at),
              currentPeriodEnd: toDate(current_period_end),
            },
            plan,
            provider: locked.row.provider,
            actor,
            occurredAt: now,
          });
          return findSubscription(tx, tenantId, now);
        });
        if (!updated) throw notFound('No agency with this id.');
        return updated;
      },
    );
  };
