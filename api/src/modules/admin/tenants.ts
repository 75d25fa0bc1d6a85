import {
  adminCancelBody,
  adminChangePlanBody,
  adminSubscriptionResult,
  adminSubscriptionUpdateBody,
  adminTenantDetail,
  adminTenantList,
  adminTenantListQuery,
  adminTenantUsage,
  compPeriodBody,
  detailResponse,
  extendTrialBody,
  fieldErrorsResponse,
  subscriptionState,
  USAGE_METRICS,
} from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { readAcrossAgencies } from '../../db/platform-read.js';
import { withTenant } from '../../db/tenant.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { conflict, fieldError, notFound } from '../../http/errors.js';
import { pageOf } from '../../http/pagination.js';
import { findUserById } from '../accounts/queries.js';
import { auditOrigin, changedFields, recordAudit } from '../audit/record.js';
import { cancel } from '../billing/lifecycle.js';
import { findSubscription } from '../billing/queries.js';
import { actorFor, applyTransition, lockSubscription } from '../billing/record.js';
import { plans } from '../billing/tables.js';
import { countUsage, summarizeUsage } from '../billing/usage.js';
import { type AdminContext, changePlanAsAdmin, compPeriod, extendTrial } from './subscription-actions.js';
import {
  findTenant,
  listTenants,
  listTenantUsers,
  monthlyAdditions,
  recentActivity,
} from './tenant-queries.js';

/** Absent stays absent (no change), null clears, a timestamp sets. */
const toDate = (value: string | null | undefined): Date | null | undefined =>
  value === undefined || value === null ? value : new Date(value);

const tenantParams = z.object({ id: z.uuid('Not a valid id.') });
const tags = ['admin'];
const errors = { 400: fieldErrorsResponse, 403: detailResponse, 404: detailResponse, 409: detailResponse };

type Subscription = NonNullable<Awaited<ReturnType<typeof findSubscription>>>;

/** What the audit log keeps of a subscription, before and after an admin's change. */
const auditedTerms = (subscription: Subscription | undefined) =>
  subscription
    ? {
        plan: subscription.plan_details.name,
        status: subscription.status,
        trial_ends_at: subscription.trial_ends_at,
        current_period_end: subscription.current_period_end,
        cancel_at_period_end: subscription.cancel_at_period_end,
      }
    : null;

/** The admin acting, as the billing history names them and as the audit log keeps their email. */
async function adminOf(db: Database, request: FastifyRequest) {
  const { userId } = signedInUser(request);
  const [actor, user] = await Promise.all([actorFor(db, userId), findUserById(db, userId)]);
  return { actor, email: user?.email ?? null };
}

async function planNamed(db: Database, name: string) {
  const [plan] = await db.select().from(plans).where(eq(plans.name, name));
  if (!plan) throw fieldError('plan', `There is no plan named "${name}".`);
  return plan;
}

/** The agencies on the platform, and what an admin may change about one. */
export const adminTenantRoutes =
  ({ db }: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    /**
     * Runs one admin action on the agency's locked subscription and writes its audit line (with the
     * reason, and the terms before and after) in the same transaction.
     */
    async function actOnSubscription(
      request: FastifyRequest,
      tenantId: string,
      audit: { action: string; reason: string | null },
      act: (ctx: AdminContext) => Promise<string>,
    ) {
      if (!(await findTenant(db, tenantId))) throw notFound('No agency with this id.');
      const admin = await adminOf(db, request);
      return withTenant(db, tenantId, async (tx) => {
        const now = new Date();
        const locked = await lockSubscription(tx, tenantId);
        if (!locked) throw conflict({ detail: 'This agency has no subscription to change.' });
        const before = await findSubscription(tx, tenantId, now);
        const detail = await act({
          tx,
          locked,
          actor: admin.actor,
          provider: locked.row.provider,
          reason: audit.reason ?? '',
          now,
        });
        const after = await findSubscription(tx, tenantId, now);
        if (!after) throw new Error('the subscription vanished while it was changed');
        await recordAudit(tx, auditOrigin(request), {
          tenantId,
          userId: admin.actor.userId,
          actorEmail: admin.email,
          action: audit.action,
          entity: 'subscription',
          entityId: locked.row.id,
          changes: changedFields(auditedTerms(before), auditedTerms(after)),
          reason: audit.reason,
        });
        return { detail, subscription: after };
      });
    }

    app.get(
      '/tenants/',
      {
        schema: {
          tags,
          summary: 'Every agency: searched by name or a user’s email, filtered by plan and status, sorted',
          security: bearerAuth,
          querystring: adminTenantListQuery,
          response: { 200: adminTenantList, 400: fieldErrorsResponse, 403: detailResponse },
        },
      },
      async (request) => {
        const { count, results } = await readAcrossAgencies(db, (tx) => listTenants(tx, request.query));
        return pageOf(request, request.query, count, results);
      },
    );

    app.get(
      '/tenants/:id/',
      {
        schema: {
          tags,
          summary: 'One agency: its people, plan, subscription, usage and latest activity',
          security: bearerAuth,
          params: tenantParams,
          response: { 200: adminTenantDetail, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        const tenant = await findTenant(db, id);
        if (!tenant) throw notFound('No agency with this id.');
        const users = await listTenantUsers(db, id);
        const own = await withTenant(db, id, async (tx) => ({
          subscription: (await findSubscription(tx, id)) ?? null,
          usage: (await summarizeUsage(tx, id)) ?? null,
          recent_activity: await recentActivity(tx, id),
        }));
        return {
          id: tenant.id,
          name: tenant.name,
          is_demo: tenant.isDemo,
          currency: tenant.currency,
          time_zone: tenant.timeZone,
          created_at: tenant.createdAt.toISOString(),
          users,
          ...own,
        };
      },
    );

    app.get(
      '/tenants/:id/usage/',
      {
        schema: {
          tags,
          summary: "One agency's use of each plan limit, and how much it added each month of the last year",
          security: bearerAuth,
          params: tenantParams,
          response: { 200: adminTenantUsage, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        if (!(await findTenant(db, id))) throw notFound('No agency with this id.');
        return withTenant(db, id, async (tx) => {
          const subscription = await findSubscription(tx, id);
          const usage = await summarizeUsage(tx, id);
          const monthly = await monthlyAdditions(tx, id);
          const held = await countUsage(tx, id);
          return {
            plan_name: subscription?.plan_details.display_name ?? null,
            metrics: USAGE_METRICS.map((metric) => ({
              metric,
              // A part of a megabyte of documents counts as a whole one.
              used: Math.ceil(held[metric]),
              limit: usage?.[metric].limit_value ?? null,
              percentage: usage?.[metric].usage_percentage ?? null,
              is_over_limit: usage?.[metric].is_over_limit ?? false,
              monthly: monthly[metric],
            })),
          };
        });
      },
    );

    app.post(
      '/tenants/:id/subscription/extend-trial/',
      {
        schema: {
          tags,
          summary: "Extend an agency's trial by some days (409 once it has paid)",
          security: bearerAuth,
          params: tenantParams,
          body: extendTrialBody,
          response: { 200: adminSubscriptionResult, ...errors },
        },
      },
      async (request) =>
        actOnSubscription(
          request,
          request.params.id,
          { action: 'trial_extended', reason: request.body.reason },
          (ctx) => extendTrial(ctx, request.body.days),
        ),
    );

    app.post(
      '/tenants/:id/subscription/change-plan/',
      {
        schema: {
          tags,
          summary: 'Move an agency to another plan at once, at no charge',
          security: bearerAuth,
          params: tenantParams,
          body: adminChangePlanBody,
          response: { 200: adminSubscriptionResult, ...errors },
        },
      },
      async (request) => {
        const plan = await planNamed(db, request.body.plan);
        return actOnSubscription(
          request,
          request.params.id,
          { action: 'plan_changed', reason: request.body.reason },
          (ctx) => changePlanAsAdmin(ctx, plan),
        );
      },
    );

    app.post(
      '/tenants/:id/subscription/comp-period/',
      {
        schema: {
          tags,
          summary: 'Give an agency some months free: active until then, recorded at 0',
          security: bearerAuth,
          params: tenantParams,
          body: compPeriodBody,
          response: { 200: adminSubscriptionResult, ...errors },
        },
      },
      async (request) =>
        actOnSubscription(
          request,
          request.params.id,
          { action: 'period_comped', reason: request.body.reason },
          (ctx) => compPeriod(ctx, request.body.months),
        ),
    );

    app.post(
      '/tenants/:id/subscription/cancel/',
      {
        schema: {
          tags,
          summary: "Cancel an agency's subscription at the end of its period, or at once",
          security: bearerAuth,
          params: tenantParams,
          body: adminCancelBody,
          response: { 200: adminSubscriptionResult, ...errors },
        },
      },
      async (request) =>
        actOnSubscription(
          request,
          request.params.id,
          { action: 'subscription_cancelled', reason: request.body.reason },
          (ctx) => cancel(ctx, request.body.reason, request.body.immediate),
        ),
    );

    app.patch(
      '/tenants/:id/subscription/',
      {
        schema: {
          tags,
          summary: "Change an agency's plan, status, trial end or period end",
          security: bearerAuth,
          params: tenantParams,
          body: adminSubscriptionUpdateBody,
          response: {
            200: subscriptionState,
            400: fieldErrorsResponse,
            403: detailResponse,
            404: detailResponse,
            409: detailResponse,
          },
        },
      },
      async (request) => {
        const { id: tenantId } = request.params;
        const {
          plan: planName,
          status,
          billing_cycle,
          trial_ends_at,
          current_period_end,
          reason,
        } = request.body;
        const plan = planName ? await planNamed(db, planName) : undefined;
        const { subscription } = await actOnSubscription(
          request,
          tenantId,
          { action: 'subscription_changed', reason: reason ?? null },
          async ({ tx, locked, actor, now }) => {
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
              note: reason ?? '',
              provider: locked.row.provider,
              actor,
              occurredAt: now,
            });
            return 'The subscription is changed.';
          },
        );
        return subscription;
      },
    );
  };
