import type { BillingProvider } from '@coverdesk/contract';
import type { Transaction } from '../../db/client.js';
import { conflict } from '../../http/errors.js';
import { excessOver } from '../billing/lifecycle.js';
import {
  type Actor,
  addCycle,
  applyTransition,
  type Locked,
  type PlanRow,
  statusAt,
} from '../billing/record.js';

// What an admin may do to an agency's subscription, beyond what the agency does itself. Each checks
// that the change makes sense for the subscription as it is now, then records it through the billing
// module, so the agency's billing history shows it beside its own changes.

const refuse = (detail: string) => conflict({ detail });
const DAY_MS = 86_400_000;
const dayOf = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format;

export interface AdminContext {
  tx: Transaction;
  locked: Locked;
  actor: Actor;
  provider: BillingProvider;
  reason: string;
  now: Date;
}

/** Whether the agency has ever had a paid period: only one that has not can be given more trial. */
const hasPaid = (locked: Locked) => locked.row.currentPeriodStart !== null;

/** Lengthens a running trial, or opens a new one from today after it ran out. */
export async function extendTrial(ctx: AdminContext, days: number): Promise<string> {
  const { locked, now } = ctx;
  const { row } = locked;
  const status = statusAt(row, now);
  if (hasPaid(locked) || (status !== 'trial' && status !== 'expired')) {
    throw refuse(
      `Only a trial can be extended, and this agency's subscription is ${status.replace('_', ' ')}${hasPaid(locked) ? ' after a paid period' : ''}: comp a period instead.`,
    );
  }
  const from = status === 'trial' && row.trialEndsAt ? row.trialEndsAt : now;
  const trialEndsAt = new Date(from.getTime() + days * DAY_MS);
  await applyTransition(ctx.tx, locked, {
    type: 'changed_by_admin',
    set: { status: 'trial', trialEndsAt, cancelAtPeriodEnd: false, cancelReason: '', currentPeriodEnd: null },
    note: `Trial extended by ${days} ${days === 1 ? 'day' : 'days'}: ${ctx.reason}`,
    provider: ctx.provider,
    actor: ctx.actor,
    occurredAt: now,
  });
  return `The trial now ends on ${dayOf(trialEndsAt)}.`;
}

/** Moves the agency to another plan at once, at no charge; the trial or paid period runs on as it was. */
export async function changePlanAsAdmin(ctx: AdminContext, plan: PlanRow): Promise<string> {
  const { tx, locked, now } = ctx;
  const { row } = locked;
  const status = statusAt(row, now);
  if (plan.id === locked.plan.id) throw refuse(`The agency is already on the ${plan.displayName} plan.`);
  if (status === 'expired' || (status === 'cancelled' && !row.cancelAtPeriodEnd)) {
    throw refuse('The subscription has ended: extend the trial or comp a period first.');
  }
  const excess = await excessOver(tx, row.tenantId, plan);
  if (excess.length > 0) {
    throw refuse(
      `The agency has more than the ${plan.displayName} plan allows (${excess.join(', ')} too many); it must remove them first.`,
    );
  }
  await applyTransition(tx, locked, {
    type: 'changed_by_admin',
    set: { planId: plan.id, scheduledPlanId: null, scheduledBillingCycle: null },
    plan,
    note: `Plan changed from ${locked.plan.displayName} to ${plan.displayName}: ${ctx.reason}`,
    provider: ctx.provider,
    actor: ctx.actor,
    occurredAt: now,
  });
  return `The agency is now on the ${plan.displayName} plan.`;
}

/**
 * Gives the agency paid months free: active until the end of them, counted from the end of the
 * period it has paid for (or from today), recorded at an amount of 0.
 */
export async function compPeriod(ctx: AdminContext, months: number): Promise<string> {
  const { locked, now } = ctx;
  const { row } = locked;
  const status = statusAt(row, now);
  if (row.provider === 'paddle' && (status === 'active' || status === 'past_due')) {
    throw refuse('Paddle bills this agency: give it free time in Paddle, which tells Coverdesk.');
  }
  const paidUntil =
    status === 'active' && row.currentPeriodEnd && row.currentPeriodEnd > now ? row.currentPeriodEnd : now;
  const currentPeriodEnd = addCycle(paidUntil, 'monthly', months);
  await applyTransition(ctx.tx, locked, {
    type: 'changed_by_admin',
    set: {
      status: 'active',
      currentPeriodStart: status === 'active' ? (row.currentPeriodStart ?? now) : now,
      currentPeriodEnd,
      cancelAtPeriodEnd: false,
      cancelReason: '',
      pausedAt: null,
    },
    amount: '0.00',
    note: `${months} free ${months === 1 ? 'month' : 'months'}: ${ctx.reason}`,
    provider: ctx.provider,
    actor: ctx.actor,
    occurredAt: now,
  });
  return `The agency is active, free of charge, until ${dayOf(currentPeriodEnd)}.`;
}
