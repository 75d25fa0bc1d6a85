import type { Plan, SubscriptionState } from '@coverdesk/contract';
import { type AnyColumn, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor, Transaction } from '../../db/client.js';
import { reusableStatement, statementBuilder } from '../../db/reusable-statement.js';
import type { CreatedAgency } from '../accounts/service.js';
import { TRIAL_PLAN } from './plan-catalogue.js';
import { billingEvents, plans, subscriptions } from './tables.js';

type PlanRow = typeof plans.$inferSelect;
type SubscriptionRow = typeof subscriptions.$inferSelect;

export async function listActivePlans(executor: Executor): Promise<Plan[]> {
  const rows = await executor
    .select()
    .from(plans)
    .where(eq(plans.isActive, true))
    .orderBy(asc(plans.sortOrder));
  return rows.map(toPlan);
}

/**
 * Starts the trial of the trial plan a new agency gets, the first line of its billing history:
 * `trialDays` long when the platform's settings say so, else the plan's own. `tx` must be scoped to
 * the tenant.
 */
export async function startTrial(
  tx: Transaction,
  { tenantId, owner: actor, account }: CreatedAgency,
): Promise<void> {
  const [plan] = await tx.select().from(plans).where(eq(plans.name, TRIAL_PLAN));
  if (!plan) throw new Error(`The plan catalogue has no plan named ${TRIAL_PLAN}`);
  const days = account.trialDays ?? plan.trialDays;
  await tx.insert(subscriptions).values({
    tenantId,
    planId: plan.id,
    status: 'trial',
    trialStartedAt: sql`now()`,
    trialEndsAt: sql`now() + make_interval(days => ${days})`,
  });
  await tx.insert(billingEvents).values({
    tenantId,
    type: 'trial_started',
    toStatus: 'trial',
    planName: plan.displayName,
    billingCycle: 'monthly',
    provider: 'manual',
    actorId: actor.userId,
    actorName: actor.name,
    note: `${days}-day free trial`,
  });
}

/** The tenant's subscription with its plan, or undefined. `tx` must be scoped to the tenant. */
export async function findSubscription(tx: Transaction, tenantId: string, now = new Date()) {
  const scheduledPlans = alias(plans, 'scheduled_plans');
  const [row] = await tx
    .select({ subscription: subscriptions, plan: plans, scheduled: scheduledPlans })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .leftJoin(scheduledPlans, eq(scheduledPlans.id, subscriptions.scheduledPlanId))
    .where(eq(subscriptions.tenantId, tenantId));
  return row ? toSubscriptionState(row.subscription, row.plan, row.scheduled, now) : undefined;
}

function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    display_name: row.displayName,
    description: row.description,
    price_monthly: row.priceMonthly,
    price_yearly: row.priceYearly,
    trial_days: row.trialDays,
    paddle_product_id: row.paddleProductId,
    paddle_price_monthly_id: row.paddlePriceMonthlyId,
    paddle_price_yearly_id: row.paddlePriceYearlyId,
    paddle_environment: row.paddleEnvironment,
    features: row.features,
    limits: row.limits,
    is_active: row.isActive,
    is_popular: row.isPopular,
  };
}

const DAY_MS = 86_400_000;

/** Whole days left of a trial ending at `trialEndsAt`, a part day counted as one. */
export const trialDaysLeft = (trialEndsAt: Date, now: Date) =>
  Math.max(0, Math.ceil((trialEndsAt.getTime() - now.getTime()) / DAY_MS));

/** A subscription's state as its access depends on it; times in milliseconds since the epoch. */
interface AccessTerms {
  status: string;
  cancelAtPeriodEnd: boolean;
  trialEndsAt: number | null;
  currentPeriodEnd: number | null;
}

/**
 * Whether the agency may work now: a trial until it ends, a paid plan until its period ends. Derived
 * from the clock at read time, so no job has to flip a status for access to end on time.
 */
export function accessAt(
  { status, cancelAtPeriodEnd, trialEndsAt, currentPeriodEnd }: AccessTerms,
  now: number,
) {
  const isTrialActive = status === 'trial' && (trialEndsAt ?? 0) > now;
  const periodOpen = currentPeriodEnd === null || currentPeriodEnd > now;
  // Paid until the period ends: active, a failed payment being retried, or cancelled at period end.
  const paidUp = (status === 'active' || status === 'past_due' || status === 'cancelled') && periodOpen;
  return {
    isTrialActive,
    isActive: isTrialActive || paidUp,
    // A cancellation made at once stays cancelled; one at period end runs out like a paid period.
    lapsed:
      (status === 'trial' && !isTrialActive) ||
      (!periodOpen &&
        (status === 'active' || status === 'past_due' || (status === 'cancelled' && cancelAtPeriodEnd))),
  };
}

/** The modules a plan includes. */
const modulesOf = (features: PlanRow['features']) =>
  features.included.filter((module) => !features.excluded.includes(module));

/**
 * What the plan gate needs to know of the agency's subscription: every request to a module asks,
 * so the statement is built once and reads only these columns. `tx` must be scoped to the tenant.
 */
export async function findModuleAccess(tx: Transaction, tenantId: string) {
  const [row] = await accessStatement(tx, null, { tenant_id: tenantId });
  if (!row) return undefined;
  const { isActive, lapsed } = accessAt(row, Date.now());
  return {
    isActive,
    lapsed,
    modules: isActive ? modulesOf(row.features) : [],
    planName: row.display_name,
  };
}

const epochMs = (time: AnyColumn) => sql<number | null>`(extract(epoch from ${time}) * 1000)::float8`;

const PLAN_ACCESS = {
  name: 'plan-access',
  description: "The statement that reads an agency's plan and what it allows, on every request to a module.",
};
const accessStatement = reusableStatement<
  null,
  AccessTerms & { features: PlanRow['features']; display_name: string }
>(PLAN_ACCESS, () =>
  statementBuilder
    .select({
      status: subscriptions.status,
      cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
      trialEndsAt: epochMs(subscriptions.trialEndsAt).as('trialEndsAt'),
      currentPeriodEnd: epochMs(subscriptions.currentPeriodEnd).as('currentPeriodEnd'),
      features: plans.features,
      display_name: plans.displayName,
    })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(eq(subscriptions.tenantId, sql.placeholder('tenant_id'))),
);

/** The access terms of a subscription row. */
export const termsOf = (row: SubscriptionRow): AccessTerms => ({
  status: row.status,
  cancelAtPeriodEnd: row.cancelAtPeriodEnd,
  trialEndsAt: row.trialEndsAt?.getTime() ?? null,
  currentPeriodEnd: row.currentPeriodEnd?.getTime() ?? null,
});

function toSubscriptionState(
  row: SubscriptionRow,
  plan: PlanRow,
  scheduled: PlanRow | null,
  now: Date,
): SubscriptionState {
  const { isTrialActive, isActive, lapsed } = accessAt(termsOf(row), now.getTime());
  const planDetails = toPlan(plan);
  // A plan chosen during the trial starts when the trial ends; a change of a paid plan at the period end.
  const scheduledFrom = row.status === 'trial' ? row.trialEndsAt : row.currentPeriodEnd;
  return {
    id: row.id,
    plan_id: plan.id,
    plan_details: planDetails,
    status: lapsed ? 'expired' : row.status,
    billing_cycle: row.billingCycle,
    trial_started_at: row.trialStartedAt?.toISOString() ?? null,
    trial_ends_at: row.trialEndsAt?.toISOString() ?? null,
    is_trial_active: isTrialActive,
    days_until_trial_expires: isTrialActive && row.trialEndsAt ? trialDaysLeft(row.trialEndsAt, now) : 0,
    current_period_start: row.currentPeriodStart?.toISOString() ?? null,
    current_period_end: row.currentPeriodEnd?.toISOString() ?? null,
    cancel_at_period_end: row.cancelAtPeriodEnd,
    cancel_reason: row.cancelReason,
    paused_at: row.pausedAt?.toISOString() ?? null,
    scheduled_change:
      scheduled && scheduledFrom
        ? {
            plan_id: scheduled.id,
            plan_name: scheduled.displayName,
            billing_cycle: row.scheduledBillingCycle ?? row.billingCycle,
            effective_at: scheduledFrom.toISOString(),
          }
        : null,
    provider: row.provider,
    is_active: isActive,
    features: isActive ? modulesOf(planDetails.features) : [],
  };
}
