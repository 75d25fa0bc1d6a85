import type { BillingCycle, BillingProvider, UsageMetric } from '@coverdesk/contract';
import { monthlyPriceOf, USAGE_METRICS } from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { conflict, fieldError } from '../../http/errors.js';
import { trialDaysLeft } from './queries.js';
import {
  type Actor,
  addCycle,
  applyTransition,
  type Locked,
  type PlanRow,
  priceOf,
  type SubscriptionRow,
  statusAt,
} from './record.js';
import { plans } from './tables.js';
import { countUsage } from './usage.js';

// The billing actions a user takes; each checks the transition is allowed, then records it.

const refuse = (detail: string) => conflict({ detail });

const count = new Intl.NumberFormat('en-US').format;
/** A day in the user's messages as the Billing page writes dates: "Dec 25, 2026". */
const dayOf = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format;

/** What the agency would have to remove to fit a plan's limits; empty when it fits. */
export async function excessOver(tx: Transaction, tenantId: string, plan: PlanRow): Promise<string[]> {
  const usage = await countUsage(tx, tenantId);
  return USAGE_METRICS.filter((metric: UsageMetric) => usage[metric] > plan.limits[metric]).map(
    (metric) => `${count(usage[metric] - plan.limits[metric])} ${metric}`,
  );
}

const joinAnd = (items: string[]) =>
  items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

async function requireFits(tx: Transaction, tenantId: string, plan: PlanRow, orElse: string) {
  const excess = await excessOver(tx, tenantId, plan);
  if (excess.length === 0) return;
  throw refuse(
    `Your agency has more than the ${plan.displayName} plan allows: remove ${joinAnd(excess)} first${orElse}.`,
  );
}

interface Context {
  tx: Transaction;
  locked: Locked;
  actor: Actor | null;
  provider: BillingProvider;
  now: Date;
}

/**
 * Chooses a plan during the trial that starts when the trial ends, so the trial's remaining days are
 * kept; the schedule starts it then (`settle`). Taken back with `withdrawScheduledChange`.
 */
export async function chooseAtTrialEnd(ctx: Context, plan: PlanRow, cycle: BillingCycle) {
  const { tx, locked, now } = ctx;
  const { row } = locked;
  const trialEnd = row.trialEndsAt;
  if (statusAt(row, now) !== 'trial' || !trialEnd) return upgrade(ctx, plan, cycle);
  await requireFits(tx, row.tenantId, plan, '');
  const days = trialDaysLeft(trialEnd, now);
  await applyTransition(tx, locked, {
    type: 'plan_change_scheduled',
    set: { scheduledPlanId: plan.id, scheduledBillingCycle: cycle },
    plan,
    cycle,
    note: `Starts when the trial ends: ${plural(days, 'trial day')} kept.`,
    provider: ctx.provider,
    actor: ctx.actor,
    occurredAt: now,
  });
  return `Your trial's ${plural(days, 'remaining day')} ${days === 1 ? 'is' : 'are'} kept: ${plan.displayName}, billed ${cycle}, starts on ${dayOf(trialEnd)}.`;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** Starts paying for a plan: from a trial, or again after the subscription ended. */
export async function upgrade(ctx: Context, plan: PlanRow, cycle: BillingCycle, providerEventId?: string) {
  const { tx, locked, now } = ctx;
  const status = statusAt(locked.row, now);
  if (status === 'active' || status === 'past_due') {
    throw refuse('Your agency already pays for a plan: use Change plan to move to another one.');
  }
  if (status === 'paused') throw refuse('Your subscription is paused: reactivate it instead.');
  await requireFits(tx, locked.row.tenantId, plan, '');
  await applyTransition(tx, locked, {
    type: 'upgraded',
    set: {
      planId: plan.id,
      status: 'active',
      billingCycle: cycle,
      currentPeriodStart: now,
      currentPeriodEnd: addCycle(now, cycle),
      cancelAtPeriodEnd: false,
      cancelReason: '',
      pausedAt: null,
      scheduledPlanId: null,
      scheduledBillingCycle: null,
      provider: ctx.provider,
    },
    plan,
    cycle,
    amount: priceOf(plan, cycle),
    provider: ctx.provider,
    providerEventId,
    actor: ctx.actor,
    occurredAt: now,
  });
  return `You are now on the ${plan.displayName} plan, billed ${cycle}.`;
}

/** Cancels now (access ends at once) or at the end of the paid period (access until then). */
export async function cancel(ctx: Context, reason: string, immediate: boolean) {
  const { locked, now } = ctx;
  const { row } = locked;
  const status = statusAt(row, now);
  if (status === 'cancelled') throw refuse('Your subscription is already cancelled.');
  if (status === 'expired') throw refuse('Your subscription has already ended.');
  const periodEnd = status === 'trial' ? row.trialEndsAt : row.currentPeriodEnd;
  const atPeriodEnd = !immediate && status !== 'paused' && periodEnd !== null;
  await applyTransition(ctx.tx, locked, {
    type: atPeriodEnd ? 'cancellation_scheduled' : 'cancelled',
    set: {
      status: 'cancelled',
      cancelAtPeriodEnd: atPeriodEnd,
      cancelReason: reason,
      currentPeriodEnd: atPeriodEnd ? periodEnd : now,
      scheduledPlanId: null,
      scheduledBillingCycle: null,
    },
    note: reason,
    provider: ctx.provider,
    actor: ctx.actor,
    occurredAt: now,
  });
  return atPeriodEnd
    ? `Your subscription is cancelled. You keep access until ${dayOf(periodEnd ?? now)}.`
    : 'Your subscription is cancelled and access has ended.';
}

const monthly = (plan: PlanRow, cycle: BillingCycle) =>
  monthlyPriceOf({ price_monthly: plan.priceMonthly, price_yearly: plan.priceYearly }, cycle);

/**
 * Whether a change of plan takes effect now: as asked, else an upgrade (dearer per month) now, with
 * the difference prorated, and a downgrade at the period end, the plan paid for kept until then.
 */
export function changesNow(
  locked: Locked,
  plan: PlanRow,
  cycle: BillingCycle,
  asked?: 'at_period_end' | 'immediate',
) {
  if (asked) return asked === 'immediate';
  return monthly(plan, cycle) > monthly(locked.plan, locked.row.billingCycle);
}

/**
 * Moves a paid subscription to another plan or cycle: at the period end (scheduled, with a warning
 * when the agency would be over the new limits), or now with the unused part of the period credited.
 */
export async function changePlan(ctx: Context, plan: PlanRow, cycle: BillingCycle, immediate: boolean) {
  const { tx, locked, now } = ctx;
  const { row } = locked;
  const status = statusAt(row, now);
  if (status === 'trial') throw refuse('During the trial, choose a plan with Upgrade.');
  if (status === 'cancelled') throw refuse('Your subscription is cancelled: reactivate it first.');
  if (status !== 'active') throw refuse('Only an active subscription can change plan.');
  if (plan.id === row.planId && cycle === row.billingCycle) {
    throw fieldError('plan_id', 'This is already your plan and billing cycle.');
  }
  if (!immediate) {
    const excess = await excessOver(tx, row.tenantId, plan);
    const effective = row.currentPeriodEnd ?? now;
    await applyTransition(tx, locked, {
      type: 'plan_change_scheduled',
      set: { scheduledPlanId: plan.id, scheduledBillingCycle: cycle },
      plan,
      cycle,
      provider: ctx.provider,
      actor: ctx.actor,
      occurredAt: now,
    });
    const warning =
      excess.length > 0
        ? ` Your agency is over its limits: remove ${joinAnd(excess)} by then, or adding more will be refused.`
        : '';
    const kept = plan.id === row.planId ? '' : `; you keep ${locked.plan.displayName} until then`;
    return `You move to the ${plan.displayName} plan, billed ${cycle}, on ${dayOf(effective)}${kept}.${warning}`;
  }
  await requireFits(tx, row.tenantId, plan, ', or schedule the change for the end of the period');
  const credit = unusedCredit(row, locked.plan, now);
  const charge = Math.max(0, Number(priceOf(plan, cycle)) - credit);
  await applyTransition(tx, locked, {
    type: 'plan_changed',
    set: {
      planId: plan.id,
      billingCycle: cycle,
      currentPeriodStart: now,
      currentPeriodEnd: addCycle(now, cycle),
      scheduledPlanId: null,
      scheduledBillingCycle: null,
    },
    plan,
    cycle,
    amount: charge.toFixed(2),
    note: `Prorated: ${credit.toFixed(2)} credited for the unused part of the ${locked.plan.displayName} plan.`,
    provider: ctx.provider,
    actor: ctx.actor,
    occurredAt: now,
  });
  return `You are now on the ${plan.displayName} plan, billed ${cycle}: ${charge.toFixed(2)} charged now, ${credit.toFixed(2)} of the ${locked.plan.displayName} plan credited for the unused part of the period.`;
}

/** Takes back a plan change waiting for the period end, or a plan chosen to start when the trial ends. */
export async function withdrawScheduledChange(ctx: Context) {
  const { tx, locked, now } = ctx;
  const { row } = locked;
  const [scheduled] = row.scheduledPlanId
    ? await tx.select().from(plans).where(eq(plans.id, row.scheduledPlanId))
    : [];
  if (!scheduled) throw refuse('No plan change is waiting.');
  const onTrial = statusAt(row, now) === 'trial';
  const day = dayOf((onTrial ? row.trialEndsAt : row.currentPeriodEnd) ?? now);
  await applyTransition(tx, locked, {
    type: 'plan_change_withdrawn',
    set: { scheduledPlanId: null, scheduledBillingCycle: null },
    plan: scheduled,
    cycle: row.scheduledBillingCycle ?? row.billingCycle,
    note: `${scheduled.displayName} no longer starts on ${day}.`,
    provider: ctx.provider,
    actor: ctx.actor,
    occurredAt: now,
  });
  return onTrial
    ? `${scheduled.displayName} no longer starts when your trial ends on ${day}: choose a plan before then to keep your agency open.`
    : `You stay on the ${locked.plan.displayName} plan: the move to ${scheduled.displayName} on ${day} is withdrawn.`;
}

/** The part of the current period's price not yet used, in dollars. */
function unusedCredit(row: SubscriptionRow, plan: PlanRow, now: Date): number {
  const start = row.currentPeriodStart?.getTime();
  const end = row.currentPeriodEnd?.getTime();
  if (start === undefined || end === undefined || end <= start) return 0;
  const unused = Math.min(1, Math.max(0, (end - now.getTime()) / (end - start)));
  return Math.round(Number(priceOf(plan, row.billingCycle)) * unused * 100) / 100;
}

/** Takes back a cancellation before the period ends, or resumes a paused subscription. */
export async function reactivate(ctx: Context) {
  const { locked, now } = ctx;
  const { row } = locked;
  const status = statusAt(row, now);
  if (status === 'cancelled' && row.cancelAtPeriodEnd) {
    // A trial cancelled before any payment goes back to being a trial.
    const wasTrial = row.currentPeriodStart === null;
    await applyTransition(ctx.tx, locked, {
      type: 'reactivated',
      set: {
        status: wasTrial ? 'trial' : 'active',
        cancelAtPeriodEnd: false,
        cancelReason: '',
        currentPeriodEnd: wasTrial ? null : row.currentPeriodEnd,
      },
      provider: ctx.provider,
      actor: ctx.actor,
      occurredAt: now,
    });
    return 'Your subscription is active again and renews as before.';
  }
  if (status === 'paused') {
    await applyTransition(ctx.tx, locked, {
      type: 'reactivated',
      set: {
        status: 'active',
        pausedAt: null,
        currentPeriodStart: now,
        currentPeriodEnd: addCycle(now, row.billingCycle),
      },
      amount: priceOf(locked.plan, row.billingCycle),
      provider: ctx.provider,
      actor: ctx.actor,
      occurredAt: now,
    });
    return 'Your subscription is active again.';
  }
  if (status === 'active' || status === 'trial') throw refuse('Your subscription is already active.');
  throw refuse('Your subscription has ended: choose a plan to subscribe again.');
}

/** Pauses a paid subscription: no billing and no access until it is reactivated. */
export async function pause(ctx: Context) {
  const { locked, now } = ctx;
  const status = statusAt(locked.row, now);
  if (status === 'paused') throw refuse('Your subscription is already paused.');
  if (status !== 'active') throw refuse('Only an active paid subscription can be paused.');
  await applyTransition(ctx.tx, locked, {
    type: 'paused',
    set: { status: 'paused', pausedAt: now, scheduledPlanId: null, scheduledBillingCycle: null },
    provider: ctx.provider,
    actor: ctx.actor,
    occurredAt: now,
  });
  return 'Your subscription is paused. Reactivate it to open your screens again.';
}
