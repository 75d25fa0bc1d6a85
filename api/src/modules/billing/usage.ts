import {
  USAGE_METRIC_UNITS,
  USAGE_METRICS,
  type UsageDetails,
  type UsageMetric,
  type UsageMetricValue,
  type UsageSummary,
} from '@coverdesk/contract';
import { asc, eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { withWholeBook } from '../../db/tenant.js';
import { HttpError } from '../../http/errors.js';
import { plans, subscriptions } from './tables.js';

type Counter = (tx: Transaction, tenantId: string) => Promise<number>;

/** How many of each limited resource an agency holds, told by the module that holds it. */
const COUNTERS: Partial<Record<UsageMetric, Counter>> = {};

/**
 * The module holding a resource the plans limit (policies, customers, leads, members, documents'
 * megabytes) registers how to count an agency's, in modules/wiring.ts: the plan gate knows no
 * module above the platform. Storage is counted in megabytes, not rounded.
 */
export function registerUsageCounter(metric: UsageMetric, counter: Counter): void {
  COUNTERS[metric] = counter;
}

/** The agency's count, whatever part of its book the member asking sees: the plan limits the whole. */
function countOf(tx: Transaction, tenantId: string, metric: UsageMetric): Promise<number> {
  const counter = COUNTERS[metric];
  if (!counter) throw new Error(`No usage counter is registered for ${metric}.`);
  return withWholeBook(tx, () => counter(tx, tenantId));
}

const planOf = (tx: Transaction, tenantId: string) =>
  tx
    .select({ displayName: plans.displayName, limits: plans.limits })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(eq(subscriptions.tenantId, tenantId));

const formatCount = new Intl.NumberFormat('en-US').format;

/**
 * Refuses with 402 to add `adding` more of a resource (one, a whole import, a file's megabytes) past
 * the agency's plan limit, saying how many still fit and which plan would take them. Locks the
 * agency's subscription row first, so parallel requests count one after another and cannot both slip
 * under the limit; call it in the transaction that adds the rows. An agency without a subscription
 * (only an admin's gets this far) has no plan to limit it.
 */
export async function assertBelowLimit(
  tx: Transaction,
  tenantId: string,
  metric: UsageMetric,
  adding = 1,
): Promise<void> {
  const [plan] = await planOf(tx, tenantId).for('update', { of: subscriptions });
  if (!plan || adding === 0) return;
  const held = await countOf(tx, tenantId, metric);
  // Within the limit, as nearly every request is, the plans on sale are never read.
  if (held + adding <= plan.limits[metric]) return;
  throw new HttpError(402, {
    detail: overLimitDetail(await roomUnder(tx, plan, metric, held), metric, adding),
  });
}

/** Where the agency stands against a plan limit; undefined without a subscription. */
export interface LimitRoom {
  plan: string;
  limit: number;
  held: number;
  /** The plans on sale with their limit of the resource, cheapest first: where to move to grow. */
  offers: { plan: string; limit: number }[];
}

/** The agency's plan limit of a resource and how many it holds, read without a lock (for a dry run). */
export async function limitRoom(
  tx: Transaction,
  tenantId: string,
  metric: UsageMetric,
): Promise<LimitRoom | undefined> {
  const [plan] = await planOf(tx, tenantId);
  return plan && roomUnder(tx, plan, metric, await countOf(tx, tenantId, metric));
}

async function roomUnder(
  tx: Transaction,
  plan: { displayName: string; limits: Record<UsageMetric, number> },
  metric: UsageMetric,
  held: number,
): Promise<LimitRoom> {
  const onSale = await tx
    .select({ displayName: plans.displayName, limits: plans.limits })
    .from(plans)
    .where(eq(plans.isActive, true))
    .orderBy(asc(plans.priceMonthly), asc(plans.sortOrder));
  return {
    plan: plan.displayName,
    limit: plan.limits[metric],
    held,
    offers: onSale.map((each) => ({ plan: each.displayName, limit: each.limits[metric] })),
  };
}

/** How many of `adding` new records fit under the limit. */
export const fitting = (room: LimitRoom, adding: number) =>
  Math.min(adding, Math.max(0, room.limit - room.held));

/**
 * Why `adding` more of a resource would pass the plan's limit, the cheapest plan on sale it would
 * fit ("Your Starter plan allows up to 2 users; Professional allows 10."), and how many still fit.
 */
export function overLimitDetail(room: LimitRoom, metric: UsageMetric, adding: number): string {
  const fits = room.offers.find((offer) => offer.limit >= room.held + adding);
  const unit = metric === 'storage_mb' ? ' MB' : '';
  const elsewhere = fits ? `; ${fits.plan} allows ${formatCount(fits.limit)}${unit}` : '';
  const allows = `Your ${room.plan} plan allows up to ${formatCount(room.limit)} ${USAGE_METRIC_UNITS[metric]}${elsewhere}.`;
  const upgrade = 'Upgrade your plan on the Billing page to add more.';
  if (metric === 'storage_mb') {
    const megabytes = (value: number) => formatCount(Math.ceil(value * 10) / 10);
    return `${allows} The agency keeps ${megabytes(room.held)} MB and this file is ${megabytes(adding)} MB. ${upgrade}`;
  }
  if (adding === 1) return `${allows} ${upgrade}`;
  return `${allows} The agency has ${formatCount(room.held)}, so ${formatCount(fitting(room, adding))} of the ${formatCount(adding)} new ${metric} in this file fit. ${upgrade}`;
}

/** How many of each limited resource the agency holds. */
export async function countUsage(tx: Transaction, tenantId: string): Promise<Record<UsageMetric, number>> {
  const counts = {} as Record<UsageMetric, number>;
  for (const metric of USAGE_METRICS) counts[metric] = await countOf(tx, tenantId, metric);
  return counts;
}

/** One use against its limit; a part of a megabyte counts as a whole one. */
export function usageOf(held: number, limit: number): UsageMetricValue {
  const current = Math.ceil(held);
  return {
    current_value: current,
    limit_value: limit,
    is_over_limit: current > limit,
    usage_percentage: limit > 0 ? Math.round((current / limit) * 1000) / 10 : 0,
    remaining_usage: Math.max(0, limit - current),
  };
}

/** How much of each plan limit the agency uses, or undefined without a subscription. */
export async function summarizeUsage(tx: Transaction, tenantId: string): Promise<UsageSummary | undefined> {
  const [plan] = await planOf(tx, tenantId);
  if (!plan) return undefined;
  const held = await countUsage(tx, tenantId);
  const summary = {} as UsageSummary;
  for (const metric of USAGE_METRICS) summary[metric] = usageOf(held[metric], plan.limits[metric]);
  return summary;
}

/** One metric in detail: the agency's use against its plan, and whether it fits each plan on sale. */
export async function usageDetailsOf(
  tx: Transaction,
  tenantId: string,
  metric: UsageMetric,
): Promise<UsageDetails | undefined> {
  const [plan] = await planOf(tx, tenantId);
  if (!plan) return undefined;
  const held = await countOf(tx, tenantId, metric);
  const onSale = await tx.select().from(plans).where(eq(plans.isActive, true)).orderBy(asc(plans.sortOrder));
  return {
    metric,
    ...usageOf(held, plan.limits[metric]),
    plans: onSale.map((each) => ({
      plan_id: each.id,
      display_name: each.displayName,
      limit_value: each.limits[metric],
      fits: held <= each.limits[metric],
    })),
  };
}
