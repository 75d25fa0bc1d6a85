import { detailResponse, planList, subscription, subscriptionState, usageSummary } from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { withTenant } from '../../db/tenant.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { notFound } from '../../http/errors.js';
import { findSubscription, listActivePlans } from './queries.js';
import { summarizeUsage } from './usage.js';

export const billingRoutes =
  ({ db }: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/billing/plans/',
      { schema: { tags: ['billing'], summary: 'Plans on sale (public)', response: { 200: planList } } },
      async () => ({ results: await listActivePlans(db) }),
    );

    const currentSubscription = async (tenantId: string) => {
      const found = await withTenant(db, tenantId, (tx) => findSubscription(tx, tenantId));
      if (!found) throw notFound('This agency has no subscription.');
      return found;
    };

    app.get(
      '/billing/subscriptions/current/',
      {
        schema: {
          tags: ['billing'],
          summary: "The agency's subscription",
          security: bearerAuth,
          response: { 200: subscription, 404: detailResponse },
        },
      },
      async (request) => {
        const auth = signedInUser(request);
        return currentSubscription(auth.tenantId);
      },
    );

    app.get(
      '/billing/subscriptions/status/',
      {
        schema: {
          tags: ['billing'],
          summary: 'Subscription state the web app gates modules on',
          security: bearerAuth,
          response: { 200: subscriptionState, 404: detailResponse },
        },
      },
      async (request) => {
        const auth = signedInUser(request);
        return currentSubscription(auth.tenantId);
      },
    );

    app.get(
      '/billing/usage/summary/',
      {
        schema: {
          tags: ['billing'],
          summary: 'How much of each plan limit the agency uses',
          security: bearerAuth,
          response: { 200: usageSummary, 404: detailResponse },
        },
      },
      async (request) => {
        const { tenantId } = signedInUser(request);
        const usage = await withTenant(db, tenantId, (tx) => summarizeUsage(tx, tenantId));
        if (!usage) throw notFound('This agency has no subscription.');
        return usage;
      },
    );
  };
