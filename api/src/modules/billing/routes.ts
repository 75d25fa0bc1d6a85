import {
  billingActionResult,
  billingEventList,
  changePlanBody,
  checkoutSession,
  checkoutSessionBody,
  detailResponse,
  fieldErrorsResponse,
  pageQuery,
  planList,
  subscription,
  subscriptionCancelBody,
  subscriptionState,
  upgradeBody,
  usageDetails,
  usageMetricName,
  usageSummary,
} from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { withTenant } from '../../db/tenant.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { conflict, fieldError, HttpError, notFound } from '../../http/errors.js';
import { pageOf } from '../../http/pagination.js';
import { users } from '../accounts/tables.js';
import { auditTrail } from '../audit/trail.js';
import { changingBilling } from './demo-guard.js';
import { listBillingEvents } from './events.js';
import {
  cancel,
  changePlan,
  changesNow,
  chooseAtTrialEnd,
  pause,
  reactivate,
  upgrade,
  withdrawScheduledChange,
} from './lifecycle.js';
import { isSignedByPaddle } from './paddle-signatures.js';
import { MalformedEvent, receivePaddleEvent } from './paddle-webhook.js';
import { paymentMethodRoutes } from './payment-methods.js';
import { currentProvider, paddleSettings } from './providers.js';
import { findSubscription, listActivePlans } from './queries.js';
import {
  type Actor,
  actorFor,
  isProviderSubscriptionOver,
  type Locked,
  lockSubscription,
  type PlanRow,
} from './record.js';
import { settle } from './settle.js';
import { plans } from './tables.js';
import { summarizeUsage, usageDetailsOf } from './usage.js';

/** What a broker's own billing action is called in the audit log. */
type SubscriptionAction =
  | 'subscription_upgraded'
  | 'plan_changed'
  | 'plan_change_withdrawn'
  | 'subscription_cancelled'
  | 'subscription_paused'
  | 'subscription_reactivated';

const noSubscription = () => notFound('This agency has no subscription.');

const refusals = { 400: fieldErrorsResponse, 404: detailResponse, 409: detailResponse };

export const billingRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db, settings } = ctx;
    const providerNow = currentProvider(settings);

    app.get(
      '/billing/plans/',
      { schema: { tags: ['billing'], summary: 'Plans on sale (public)', response: { 200: planList } } },
      async () => ({ results: await listActivePlans(db), provider: (await providerNow()).name }),
    );

    /** The agency's subscription after applying what fell due: a stopped schedule never extends access. */
    const currentSubscription = async (tenantId: string) => {
      const found = await withTenant(db, tenantId, async (tx) => {
        await settle(tx, tenantId, new Date());
        return findSubscription(tx, tenantId);
      });
      if (!found) throw noSubscription();
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
      async (request) => currentSubscription(signedInUser(request).tenantId),
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
      async (request) => currentSubscription(signedInUser(request).tenantId),
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
        if (!usage) throw noSubscription();
        return usage;
      },
    );

    app.get(
      '/billing/usage/:metric/details/',
      {
        schema: {
          tags: ['billing'],
          summary: "One plan limit: the agency's use and each plan's limit",
          security: bearerAuth,
          params: z.object({ metric: usageMetricName }),
          response: { 200: usageDetails, 400: fieldErrorsResponse, 404: detailResponse },
        },
      },
      async (request) => {
        const { tenantId } = signedInUser(request);
        const details = await withTenant(db, tenantId, (tx) =>
          usageDetailsOf(tx, tenantId, request.params.metric),
        );
        if (!details) throw noSubscription();
        return details;
      },
    );

    const planById = async (id: string): Promise<PlanRow> => {
      const [plan] = await db.select().from(plans).where(eq(plans.id, id));
      if (!plan?.isActive) throw fieldError('plan_id', 'Choose a plan on sale.');
      return plan;
    };

    /**
     * Runs a billing action on the agency's locked subscription, after applying what fell due, and
     * answers the subscription as it is afterwards with the action's sentence for the user.
     */
    const act = async (
      request: FastifyRequest,
      action: SubscriptionAction,
      work: (context: { tx: Transaction; locked: Locked; actor: Actor; now: Date }) => Promise<string>,
    ) => {
      const { userId, tenantId } = signedInUser(request);
      const actor = await actorFor(db, userId);
      return withTenant(db, tenantId, async (tx) => {
        const now = new Date();
        // What fell due is the schedule's doing, kept in the billing events: the log records only
        // what the user changed.
        await settle(tx, tenantId, now);
        const locked = await lockSubscription(tx, tenantId);
        if (!locked) throw noSubscription();
        const message = await auditTrail(tx, request).changed(
          'subscription',
          locked.row.id,
          () => work({ tx, locked, actor, now }),
          action,
        );
        const after = await findSubscription(tx, tenantId, now);
        if (!after) throw noSubscription();
        return { subscription: after, message };
      });
    };

    const actionSchema = (summary: string, body?: z.ZodType) =>
      changingBilling(db, {
        schema: {
          tags: ['billing'],
          summary,
          security: bearerAuth,
          ...(body ? { body } : {}),
          response: { 200: billingActionResult, ...refusals },
        },
      });

    app.post(
      '/billing/subscriptions/upgrade/',
      actionSchema('Start paying for a plan (manual provider: at once)', upgradeBody),
      async (request) => {
        const { plan_id, billing_cycle, starts } = upgradeBody.parse(request.body);
        if ((await providerNow()).name === 'paddle') {
          throw conflict({ detail: 'Payment goes through the checkout: use create_checkout_session.' });
        }
        const plan = await planById(plan_id);
        return act(request, 'subscription_upgraded', (context) =>
          startPlan({ ...context, provider: 'manual' }, plan, billing_cycle, starts),
        );
      },
    );

    /** A plan chosen: at once, or during the trial from its end, keeping its remaining days. */
    const startPlan = (
      context: Parameters<typeof upgrade>[0],
      plan: PlanRow,
      cycle: 'monthly' | 'yearly',
      starts: 'at_trial_end' | 'immediate',
    ) => (starts === 'at_trial_end' ? chooseAtTrialEnd(context, plan, cycle) : upgrade(context, plan, cycle));

    /**
     * A checkout for a plan: the manual provider applies the upgrade at once (or from the trial's end); Paddle answers what the
     * browser needs to open its overlay, and its webhook applies the subscription once paid.
     */
    const startCheckout = async (
      request: FastifyRequest,
      body: {
        plan_id: string;
        billing_cycle: 'monthly' | 'yearly';
        starts: 'at_trial_end' | 'immediate';
        success_url: string;
        cancel_url: string;
      },
    ) => {
      const { userId, tenantId } = signedInUser(request);
      const plan = await planById(body.plan_id);
      const urls = { success_url: body.success_url, cancel_url: body.cancel_url };
      const provider = await providerNow();
      if (provider.name === 'manual') {
        const { subscription: applied } = await act(request, 'subscription_upgraded', (context) =>
          startPlan({ ...context, provider: 'manual' }, plan, body.billing_cycle, body.starts),
        );
        return { provider: provider.name, subscription: applied, paddle: null, ...urls };
      }
      if (body.starts === 'at_trial_end') {
        // Paddle's checkout takes the first payment and starts the subscription as it is paid.
        throw conflict({
          detail: 'Paddle takes the first payment at checkout, so the plan starts now: choose Start now.',
        });
      }
      // Paddle would bill a second subscription, and its webhook would not follow it.
      await withTenant(db, tenantId, async (tx) => {
        const current = await lockSubscription(tx, tenantId);
        if (current?.row.providerSubscriptionId && !isProviderSubscriptionOver(current.row, new Date())) {
          throw conflict({
            detail: `Your ${current.plan.displayName} subscription is still running: change its plan, or take back its cancellation, on the Billing page.`,
          });
        }
      });
      const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
      const paddle = await provider.checkout(
        { tenantId, email: user?.email ?? '' },
        plan,
        body.billing_cycle,
      );
      return { provider: provider.name, subscription: null, paddle, ...urls };
    };

    const checkoutSchema = (summary: string, body: z.ZodType) =>
      changingBilling(db, {
        schema: {
          tags: ['billing'],
          summary,
          security: bearerAuth,
          body,
          response: { 200: checkoutSession, ...refusals },
        },
      });

    app.post(
      '/billing/subscriptions/create_checkout_session/',
      checkoutSchema('Checkout for a plan', checkoutSessionBody),
      async (request) => {
        return startCheckout(request, checkoutSessionBody.parse(request.body));
      },
    );

    app.post(
      '/billing/subscriptions/create_payment_intent/',
      // Paddle has no payment intents: its checkout takes the plan's price, so this is the checkout.
      checkoutSchema('Payment for a plan (the checkout, returning to Billing)', upgradeBody),
      async (request) => {
        return startCheckout(request, checkoutSessionBody.parse(request.body));
      },
    );

    app.post(
      '/billing/subscription/cancel/',
      actionSchema('Cancel now or at the end of the period', subscriptionCancelBody),
      async (request) => {
        const { reason, immediate } = subscriptionCancelBody.parse(request.body ?? {});
        return act(request, 'subscription_cancelled', async (context) => {
          const message = await cancel(
            { ...context, provider: context.locked.row.provider },
            reason,
            immediate,
          );
          await (await providerNow()).cancel(context.locked.row, immediate);
          return message;
        });
      },
    );

    app.post(
      '/billing/subscription/change-plan/',
      actionSchema('Change plan or billing cycle, at period end or now with proration', changePlanBody),
      async (request) => {
        const body = changePlanBody.parse(request.body);
        const plan = await planById(body.plan_id);
        return act(request, 'plan_changed', async (context) => {
          const cycle = body.billing_cycle ?? context.locked.row.billingCycle;
          const immediate = changesNow(context.locked, plan, cycle, body.change_type);
          const message = await changePlan(
            { ...context, provider: context.locked.row.provider },
            plan,
            cycle,
            immediate,
          );
          await (await providerNow()).changePlan(context.locked.row, plan, cycle, immediate);
          return message;
        });
      },
    );

    app.post(
      '/billing/subscription/withdraw-scheduled-change/',
      actionSchema('Take back a plan change waiting for the period end (or the trial end)'),
      async (request) => {
        return act(request, 'plan_change_withdrawn', async (context) => {
          const { row, plan } = context.locked;
          const message = await withdrawScheduledChange({ ...context, provider: row.provider });
          // Paddle bills the next period at the price on the subscription: it goes back to the plan kept.
          await (await providerNow()).changePlan(row, plan, row.billingCycle, false);
          return message;
        });
      },
    );

    app.post(
      '/billing/subscription/reactivate/',
      actionSchema('Take back a cancellation, or resume a paused subscription'),
      async (request) => {
        return act(request, 'subscription_reactivated', async (context) => {
          const message = await reactivate({ ...context, provider: context.locked.row.provider });
          await (await providerNow()).resume(context.locked.row);
          return message;
        });
      },
    );

    app.post('/billing/subscription/pause/', actionSchema('Pause billing and access'), async (request) => {
      return act(request, 'subscription_paused', async (context) => {
        const message = await pause({ ...context, provider: context.locked.row.provider });
        await (await providerNow()).pause(context.locked.row);
        return message;
      });
    });

    app.get(
      '/billing/events/',
      {
        schema: {
          tags: ['billing'],
          summary: 'The billing history: every change and payment, newest first',
          security: bearerAuth,
          querystring: pageQuery.pick({ page: true, page_size: true }),
          response: { 200: billingEventList, 400: fieldErrorsResponse },
        },
      },
      async (request) => {
        const { tenantId } = signedInUser(request);
        const { count, results } = await withTenant(db, tenantId, (tx) =>
          listBillingEvents(tx, tenantId, request.query),
        );
        return pageOf(request, request.query, count, results);
      },
    );

    await app.register(paymentMethodRoutes(ctx, providerNow));

    // Paddle signs the body as sent, so this route reads it as text rather than parsed JSON.
    await app.register(async (scope) => {
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
        done(null, body),
      );
      scope.post(
        '/billing/webhooks/paddle/',
        {
          schema: {
            tags: ['billing'],
            summary: "Paddle's notifications, verified by their Paddle-Signature",
            body: z.string(),
            response: {
              200: z.object({ outcome: z.string() }),
              400: detailResponse,
              401: detailResponse,
              404: detailResponse,
              503: detailResponse,
            },
          },
        },
        async (request) => {
          const secret = (await paddleSettings(settings))?.webhookSecret;
          if (!secret) throw notFound('Paddle is not configured.');
          const rawBody = typeof request.body === 'string' ? request.body : '';
          const signature = request.headers['paddle-signature'];
          if (!isSignedByPaddle(rawBody, typeof signature === 'string' ? signature : undefined, secret)) {
            throw new HttpError(401, { detail: 'The Paddle-Signature does not match.' });
          }
          try {
            return { outcome: await receivePaddleEvent(db, rawBody, secret) };
          } catch (error) {
            if (error instanceof MalformedEvent) throw new HttpError(400, { detail: 'Not a Paddle event.' });
            throw error;
          }
        },
      );
    });
  };
