import type { Plan, SubscriptionState } from '@coverdesk/contract';
import { asc, eq, sql } from 'drizzle-orm';
import type { Executor, Transaction } from '../../db/client.js';
import { plans, subscriptions } from './tables.js';

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

/** Starts the trial a new agency gets. `tx` must be scoped to the tenant. */
export async function startTrial(tx: Transaction, tenantId: string, planName: string): Promise<void> {
  const [plan] = await tx.select().from(plans).where(eq(plans.name, planName));
  if (!plan) throw new Error(`The plan catalogue has no plan named ${planName}`);
  await tx.insert(subscriptions).values({
    tenantId,
    planId: plan.id,
    status: 'trial',
    trialStartedAt: sql`now()`,
    trialEndsAt: sql`now() + make_interval(days => ${plan.trialDays})`,
  });
}

/** The tenant's subscription with its plan, or undefined. `tx` must be scoped to the tenant. */
export async function findSubscription(tx: Transaction, tenantId: string, now = new Date()) {
  const [row] = await tx
    .select({ subscription: subscriptions, plan: plans })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(eq(subscriptions.tenantId, tenantId));
  return row ? toSubscriptionState(row.subscription, row.plan, now) : undefined;
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

/**
 * Trial expiry and period ends are derived from the clock at read time, so no job has to flip a
 * status for access to end on time.
 */
function toSubscriptionState(row: SubscriptionRow, plan: PlanRow, now: Date): SubscriptionState {
  const trialEndsAt = row.trialEndsAt?.getTime() ?? 0;
  const isTrialActive = row.status === 'trial' && trialEndsAt > now.getTime();
  const periodOpen = !row.currentPeriodEnd || row.currentPeriodEnd > now;
  const isActive = isTrialActive || (row.status === 'active' && periodOpen);
  const trialLapsed = row.status === 'trial' && !isTrialActive;
  const periodLapsed = row.status === 'active' && !periodOpen;
  const planDetails = toPlan(plan);
  return {
    id: row.id,
    plan_id: plan.id,
    plan_details: planDetails,
    status: trialLapsed || periodLapsed ? 'expired' : row.status,
    billing_cycle: row.billingCycle,
    trial_started_at: row.trialStartedAt?.toISOString() ?? null,
    trial_ends_at: row.trialEndsAt?.toISOString() ?? null,
    is_trial_active: isTrialActive,
    days_until_trial_expires: isTrialActive ? Math.ceil((trialEndsAt - now.getTime()) / DAY_MS) : 0,
    current_period_start: row.currentPeriodStart?.toISOString() ?? null,
    current_period_end: row.currentPeriodEnd?.toISOString() ?? null,
    cancel_at_period_end: row.cancelAtPeriodEnd,
    is_active: isActive,
    features: isActive
      ? planDetails.features.included.filter((m) => !planDetails.features.excluded.includes(m))
      : [],
  };
}
