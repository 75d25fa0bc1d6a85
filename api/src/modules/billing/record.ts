import type { BillingCycle, BillingEventType, BillingProvider } from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import { users } from '../accounts/tables.js';
import { accessAt, termsOf } from './queries.js';
import { billingEvents, plans, subscriptions } from './tables.js';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type PlanRow = typeof plans.$inferSelect;

/** Who changed a subscription: a signed-in user, or null for Coverdesk's schedule and the provider. */
export interface Actor {
  userId: string;
  name: string;
}

/** The user as the billing history names them. Read as the connecting role: users is a platform table. */
export async function actorFor(db: Database, userId: string): Promise<Actor> {
  const [user] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  const name = `${user?.firstName ?? ''} ${user?.lastName ?? ''}`.trim();
  return { userId, name: name || (user?.email ?? '') };
}

/** A subscription locked for a change, with its plan. */
export interface Locked {
  row: SubscriptionRow;
  plan: PlanRow;
}

export function addCycle(from: Date, cycle: BillingCycle, times = 1): Date {
  const end = new Date(from);
  end.setUTCMonth(end.getUTCMonth() + (cycle === 'yearly' ? 12 : 1) * times);
  return end;
}

export const priceOf = (plan: PlanRow, cycle: BillingCycle) =>
  cycle === 'yearly' ? plan.priceYearly : plan.priceMonthly;

/** Locks the agency's subscription row for a change. `tx` must be scoped to the tenant. */
export async function lockSubscription(tx: Transaction, tenantId: string): Promise<Locked | undefined> {
  const [found] = await tx
    .select({ row: subscriptions, plan: plans })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(eq(subscriptions.tenantId, tenantId))
    .for('update', { of: subscriptions });
  return found;
}

interface Transition {
  type: BillingEventType;
  set: Partial<typeof subscriptions.$inferInsert>;
  plan?: PlanRow;
  cycle?: BillingCycle;
  amount?: string | null;
  note?: string;
  provider: BillingProvider;
  providerEventId?: string | null;
  actor: Actor | null;
  occurredAt: Date;
}

/** Writes a change to the subscription and its line in `billing_events`, in the caller's transaction. */
export async function applyTransition(tx: Transaction, { row, plan }: Locked, change: Transition) {
  const toStatus = change.set.status ?? row.status;
  await tx
    .update(subscriptions)
    .set({ ...change.set, updatedAt: change.occurredAt })
    .where(eq(subscriptions.id, row.id));
  await tx.insert(billingEvents).values({
    tenantId: row.tenantId,
    type: change.type,
    fromStatus: row.status,
    toStatus,
    planName: (change.plan ?? plan).displayName,
    billingCycle: change.cycle ?? change.set.billingCycle ?? row.billingCycle,
    amount: change.amount ?? null,
    provider: change.provider,
    providerEventId: change.providerEventId ?? null,
    actorId: change.actor?.userId ?? null,
    actorName: change.actor?.name ?? null,
    note: change.note ?? '',
    occurredAt: change.occurredAt,
  });
}

/** The status a subscription is in at `now`: a trial or a period that has run out reads expired. */
export function statusAt(row: SubscriptionRow, now: Date): SubscriptionRow['status'] {
  return accessAt(termsOf(row), now.getTime()).lapsed ? 'expired' : row.status;
}

/**
 * Whether the provider's subscription has ended (cancelled at once, or run out), so that a new purchase
 * may take its place; until then the agency changes the one it has.
 */
export const isProviderSubscriptionOver = (row: SubscriptionRow, now: Date) =>
  statusAt(row, now) === 'expired' || (row.status === 'cancelled' && !row.cancelAtPeriodEnd);
