import type { BillingCycle, BillingEventType } from '@coverdesk/contract';
import { eq, or } from 'drizzle-orm';
import { z } from 'zod';
import type { Database, Transaction } from '../../db/client.js';
import { asConnectingRole, enterTenant } from '../../db/tenant.js';
import { isTenantSigned } from './paddle-signatures.js';
import {
  applyTransition,
  isProviderSubscriptionOver,
  type Locked,
  lockSubscription,
  type PlanRow,
} from './record.js';
import { paddleEvents, plans, type subscriptions } from './tables.js';

const moment = z.iso.datetime({ offset: true });
/** What Coverdesk's checkout gave Paddle: the agency and the server's signature on it. */
const tenantData = z
  .object({ tenant_id: z.uuid().optional(), tenant_sig: z.string().max(200).optional() })
  .nullish();

/** The envelope of every Paddle event. */
const paddleEvent = z.object({
  event_id: z.string().min(1).max(100),
  event_type: z.string().max(100),
  occurred_at: moment,
  data: z.record(z.string(), z.unknown()),
});

/** The fields of a Paddle subscription that Coverdesk's record follows. */
const paddleSubscription = z.object({
  id: z.string(),
  status: z.enum(['active', 'canceled', 'past_due', 'paused', 'trialing']),
  customer_id: z.string().nullish(),
  custom_data: tenantData,
  current_billing_period: z.object({ starts_at: moment, ends_at: moment }).nullish(),
  scheduled_change: z
    .object({ action: z.enum(['cancel', 'pause', 'resume']), effective_at: moment })
    .nullish(),
  paused_at: moment.nullish(),
  canceled_at: moment.nullish(),
  items: z.array(z.object({ price: z.object({ id: z.string() }).nullish() })),
});

const paddleTransaction = z.object({
  id: z.string(),
  subscription_id: z.string().nullish(),
  custom_data: tenantData,
  currency_code: z.string().nullish(),
  details: z.object({ totals: z.object({ grand_total: z.string() }) }).nullish(),
});

export type WebhookOutcome =
  | 'applied'
  | 'duplicate'
  | 'ignored_older'
  | 'ignored_unknown_agency'
  | 'ignored_unsigned_agency'
  | 'ignored_unknown_price'
  | 'ignored_type'
  | 'ignored_other_subscription';

export class MalformedEvent extends Error {}

/**
 * Stores a verified Paddle event once by its id and applies it in the same transaction, so a failure
 * leaves nothing stored and Paddle's retry applies it. Subscription events are applied in the order
 * they occurred: one older than the last applied is stored but changes nothing.
 */
export async function receivePaddleEvent(
  db: Database,
  rawBody: string,
  secret: string,
): Promise<WebhookOutcome> {
  let parsed: z.infer<typeof paddleEvent>;
  try {
    parsed = paddleEvent.parse(JSON.parse(rawBody));
  } catch {
    throw new MalformedEvent();
  }
  const event = parsed;
  return db.transaction(async (tx) => {
    const stored = await tx
      .insert(paddleEvents)
      .values({
        eventId: event.event_id,
        eventType: event.event_type,
        occurredAt: new Date(event.occurred_at),
        payload: event,
        outcome: 'received',
      })
      .onConflictDoNothing()
      .returning({ eventId: paddleEvents.eventId });
    if (stored.length === 0) return 'duplicate';
    const outcome = await applyEvent(tx, event, secret);
    await asConnectingRole(tx, () =>
      tx.update(paddleEvents).set({ outcome }).where(eq(paddleEvents.eventId, event.event_id)),
    );
    return outcome;
  });
}

async function applyEvent(
  tx: Transaction,
  event: z.infer<typeof paddleEvent>,
  secret: string,
): Promise<WebhookOutcome> {
  const isSubscription = event.event_type.startsWith('subscription.');
  const isPayment =
    event.event_type === 'transaction.completed' || event.event_type === 'transaction.payment_failed';
  if (!isSubscription && !isPayment) return 'ignored_type';
  const data = (isSubscription ? paddleSubscription : paddleTransaction).safeParse(event.data);
  if (!data.success) throw new MalformedEvent();
  const tenantId = data.data.custom_data?.tenant_id ?? null;
  if (!tenantId) return 'ignored_unknown_agency';
  // The browser wrote the custom data: only the server's signature says the agency is the payer's.
  const signature = data.data.custom_data?.tenant_sig;
  if (!signature || !isTenantSigned(secret, tenantId, signature)) return 'ignored_unsigned_agency';
  const [plan] = isSubscription ? await planForPrices(tx, data.data as PaddleSubscription) : [];
  if (isSubscription && !plan) return 'ignored_unknown_price';
  await enterTenant(tx, tenantId);
  const locked = await lockSubscription(tx, tenantId);
  if (!locked) return 'ignored_unknown_agency';
  if (plan) return applySubscription(tx, locked, event, data.data as PaddleSubscription, plan);
  return recordPayment(tx, locked, event, data.data as PaddleTransaction);
}

type PaddleSubscription = z.infer<typeof paddleSubscription>;
type PaddleTransaction = z.infer<typeof paddleTransaction>;

/** The plan and cycle whose Paddle price the subscription's first item is. */
async function planForPrices(
  tx: Transaction,
  subscription: PaddleSubscription,
): Promise<{ plan: PlanRow; cycle: BillingCycle }[]> {
  const priceId = subscription.items[0]?.price?.id;
  if (!priceId) return [];
  const [plan] = await tx
    .select()
    .from(plans)
    .where(or(eq(plans.paddlePriceMonthlyId, priceId), eq(plans.paddlePriceYearlyId, priceId)));
  return plan ? [{ plan, cycle: plan.paddlePriceYearlyId === priceId ? 'yearly' : 'monthly' }] : [];
}

type Status = (typeof subscriptions.$inferSelect)['status'];

async function applySubscription(
  tx: Transaction,
  locked: Locked,
  event: z.infer<typeof paddleEvent>,
  subscription: PaddleSubscription,
  priced: { plan: PlanRow; cycle: BillingCycle },
): Promise<WebhookOutcome> {
  const { row } = locked;
  const occurredAt = new Date(event.occurred_at);
  // A new purchase replaces a Paddle subscription only once that one has ended.
  if (
    row.providerSubscriptionId &&
    row.providerSubscriptionId !== subscription.id &&
    !isProviderSubscriptionOver(row, occurredAt)
  ) {
    return 'ignored_other_subscription';
  }
  if (row.providerEventAt && occurredAt <= row.providerEventAt) return 'ignored_older';

  const period = subscription.current_billing_period;
  const cancelling = subscription.status === 'active' && subscription.scheduled_change?.action === 'cancel';
  const canceledAt = subscription.canceled_at ? new Date(subscription.canceled_at) : occurredAt;
  const status: Status = cancelling
    ? 'cancelled'
    : (
        {
          active: 'active',
          trialing: 'trial',
          past_due: 'past_due',
          paused: 'paused',
          canceled: 'cancelled',
        } as const
      )[subscription.status];
  const periodEnd =
    subscription.status === 'canceled' ? canceledAt : period ? new Date(period.ends_at) : null;
  // A change chosen for the period end is Paddle's price at once (unbilled until the renewal): the
  // agency keeps the plan it paid for until the period it is in ends.
  const awaitsPeriodEnd =
    row.scheduledPlanId === priced.plan.id &&
    (row.scheduledBillingCycle ?? row.billingCycle) === priced.cycle &&
    subscription.status !== 'canceled' &&
    period != null &&
    row.currentPeriodEnd !== null &&
    new Date(period.starts_at) < row.currentPeriodEnd;
  const applied = awaitsPeriodEnd ? { plan: locked.plan, cycle: row.billingCycle } : priced;
  const planChanged = applied.plan.id !== row.planId || applied.cycle !== row.billingCycle;
  await applyTransition(tx, locked, {
    type: eventType(row.status, status, cancelling, planChanged),
    set: {
      status,
      planId: applied.plan.id,
      billingCycle: applied.cycle,
      ...(planChanged ? { scheduledPlanId: null, scheduledBillingCycle: null } : {}),
      ...(status === 'trial' ? { trialEndsAt: periodEnd } : {}),
      currentPeriodStart: period ? new Date(period.starts_at) : row.currentPeriodStart,
      currentPeriodEnd: periodEnd,
      cancelAtPeriodEnd: cancelling,
      pausedAt: subscription.paused_at ? new Date(subscription.paused_at) : null,
      provider: 'paddle',
      providerSubscriptionId: subscription.id,
      providerCustomerId: subscription.customer_id ?? row.providerCustomerId,
      providerEventAt: occurredAt,
    },
    plan: applied.plan,
    cycle: applied.cycle,
    provider: 'paddle',
    providerEventId: event.event_id,
    actor: null,
    occurredAt,
  });
  return 'applied';
}

/** The history line a provider's change of status reads as. */
function eventType(from: Status, to: Status, cancelling: boolean, planChanged: boolean): BillingEventType {
  if (to === 'cancelled') return cancelling ? 'cancellation_scheduled' : 'cancelled';
  if (to === 'paused') return 'paused';
  if (to === 'past_due') return 'past_due';
  if (to === 'active' && (from === 'paused' || from === 'cancelled')) return 'reactivated';
  if (to === 'active' && from !== 'active' && from !== 'past_due') return 'upgraded';
  if (planChanged) return 'plan_changed';
  return 'provider_updated';
}

/**
 * A payment made or failed for the agency's Paddle subscription: a line in the history, the
 * subscription's state left to its own events.
 */
async function recordPayment(
  tx: Transaction,
  locked: Locked,
  event: z.infer<typeof paddleEvent>,
  transaction: PaddleTransaction,
): Promise<WebhookOutcome> {
  const { providerSubscriptionId } = locked.row;
  if (!providerSubscriptionId || transaction.subscription_id !== providerSubscriptionId) {
    return 'ignored_other_subscription';
  }
  const total = transaction.details?.totals.grand_total;
  await applyTransition(tx, locked, {
    type: event.event_type === 'transaction.completed' ? 'payment_completed' : 'payment_failed',
    set: {},
    // Paddle gives amounts in the currency's smallest unit ("7999" is 79.99).
    amount: total && /^\d+$/.test(total) ? (Number(total) / 100).toFixed(2) : null,
    note: `Paddle transaction ${transaction.id}`,
    provider: 'paddle',
    providerEventId: event.event_id,
    actor: null,
    occurredAt: new Date(event.occurred_at),
  });
  return 'applied';
}
