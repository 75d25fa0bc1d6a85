import type { BillingCycle, BillingEventType } from '@coverdesk/contract';
import type { Database } from '../src/db/client.js';
import { withTenant } from '../src/db/tenant.js';
import { applyTransition, lockSubscription, type SubscriptionRow } from '../src/modules/billing/record.js';
import { billingEvents, plans, subscriptions } from '../src/modules/billing/tables.js';
import { tenants } from '../src/modules/tenants/tables.js';

/** One change of an agency's subscription, on a day of its choosing. */
export interface BillingStep {
  at: Date;
  type: BillingEventType;
  status?: SubscriptionRow['status'];
  plan?: string;
  cycle?: BillingCycle;
}

/** A moment `back` calendar months before `now` (UTC), at noon on the given day of that month. */
export const monthsBefore = (now: Date, back: number, day = 15) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, day, 12));

/** A paid period that has not run out whenever the test reads it. */
const FAR_FUTURE = new Date('2099-01-01T00:00:00Z');

/**
 * An agency that signed up at `createdAt` on a trial, then went through `steps`, recorded as billing
 * does, so the admin's figures can be read over months that have already passed.
 */
export async function seedAgencyHistory(
  db: Database,
  name: string,
  createdAt: Date,
  steps: BillingStep[],
  isDemo = false,
) {
  const catalogue = Object.fromEntries((await db.select().from(plans)).map((plan) => [plan.name, plan]));
  const [tenant] = await db.insert(tenants).values({ name, createdAt, isDemo }).returning();
  if (!tenant) throw new Error('the agency was not added');
  const trialPlan = catalogue.professional;
  if (!trialPlan) throw new Error('no professional plan');
  await withTenant(db, tenant.id, async (tx) => {
    await tx.insert(subscriptions).values({
      tenantId: tenant.id,
      planId: trialPlan.id,
      status: 'trial',
      trialStartedAt: createdAt,
      trialEndsAt: new Date(createdAt.getTime() + 14 * 86_400_000),
    });
    await tx.insert(billingEvents).values({
      tenantId: tenant.id,
      type: 'trial_started',
      toStatus: 'trial',
      planName: trialPlan.displayName,
      billingCycle: 'monthly',
      provider: 'manual',
      occurredAt: createdAt,
    });
    for (const step of steps) {
      const locked = await lockSubscription(tx, tenant.id);
      if (!locked) throw new Error('no subscription');
      const plan = step.plan ? catalogue[step.plan] : undefined;
      const scheduled = step.type === 'plan_change_scheduled';
      await applyTransition(tx, locked, {
        type: step.type,
        set: scheduled
          ? { scheduledPlanId: plan?.id, scheduledBillingCycle: step.cycle }
          : {
              status: step.status,
              planId: plan?.id,
              billingCycle: step.cycle,
              currentPeriodEnd: step.status === 'active' ? FAR_FUTURE : undefined,
            },
        plan,
        cycle: step.cycle,
        provider: 'manual',
        actor: null,
        occurredAt: step.at,
      });
    }
  });
  return tenant;
}
