import { eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { addCycle, applyTransition, lockSubscription, priceOf, statusAt } from './record.js';
import { plans } from './tables.js';

/**
 * Applies what falls due by `now`: an ended trial or cancelled period expires; a manual paid period
 * renews (with a scheduled plan change) and a provider's that was not renewed expires. Run by the
 * schedule and on each billing request, so a stopped schedule never extends access.
 */
export async function settle(tx: Transaction, tenantId: string, now: Date): Promise<void> {
  const locked = await lockSubscription(tx, tenantId);
  if (!locked) return;
  const { row } = locked;
  if (statusAt(row, now) !== 'expired' || row.status === 'expired') return;
  const system = { actor: null, provider: row.provider, occurredAt: now };
  if (row.status === 'trial') {
    const [chosen] = row.scheduledPlanId
      ? await tx.select().from(plans).where(eq(plans.id, row.scheduledPlanId))
      : [];
    if (!chosen || !row.trialEndsAt) {
      await applyTransition(tx, locked, { ...system, type: 'trial_expired', set: { status: 'expired' } });
      return;
    }
    // The plan chosen during the trial starts when it ends; periods run out since are renewed next.
    const cycle = row.scheduledBillingCycle ?? row.billingCycle;
    await applyTransition(tx, locked, {
      ...system,
      type: 'upgraded',
      set: {
        planId: chosen.id,
        status: 'active',
        billingCycle: cycle,
        currentPeriodStart: row.trialEndsAt,
        currentPeriodEnd: addCycle(row.trialEndsAt, cycle),
        scheduledPlanId: null,
        scheduledBillingCycle: null,
      },
      plan: chosen,
      cycle,
      amount: priceOf(chosen, cycle),
      note: 'Started when the trial ended.',
      occurredAt: row.trialEndsAt,
    });
    return settle(tx, tenantId, now);
  }
  if (row.status === 'active' && row.provider === 'manual' && row.currentPeriodEnd) {
    const [scheduled] = row.scheduledPlanId
      ? await tx.select().from(plans).where(eq(plans.id, row.scheduledPlanId))
      : [];
    const plan = scheduled ?? locked.plan;
    const cycle = row.scheduledBillingCycle ?? row.billingCycle;
    let start = row.currentPeriodEnd;
    while (addCycle(start, cycle) <= now) start = addCycle(start, cycle);
    await applyTransition(tx, locked, {
      ...system,
      type: 'renewed',
      set: {
        planId: plan.id,
        billingCycle: cycle,
        currentPeriodStart: start,
        currentPeriodEnd: addCycle(start, cycle),
        scheduledPlanId: null,
        scheduledBillingCycle: null,
      },
      plan,
      cycle,
      amount: priceOf(plan, cycle),
    });
    return;
  }
  await applyTransition(tx, locked, { ...system, type: 'period_ended', set: { status: 'expired' } });
}
