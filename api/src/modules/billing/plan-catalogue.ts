import { MODULES, type ModuleName, type PlanLimits, PREMIUM_MODULES } from '@coverdesk/contract';
import { eq, sql } from 'drizzle-orm';
import type { PaddleConfig } from '../../config.js';
import type { Executor } from '../../db/client.js';
import { plans } from './tables.js';

interface CataloguePlan {
  name: string;
  displayName: string;
  description: string;
  priceMonthly: string;
  priceYearly: string;
  trialDays: number;
  excluded: readonly ModuleName[];
  limits: PlanLimits;
  isPopular: boolean;
}

/** New agencies start a trial of this plan. */
export const TRIAL_PLAN = 'professional';

/** The plans Coverdesk sells. Written to the database at every start, so code is the source of truth. */
const PLAN_CATALOGUE: CataloguePlan[] = [
  {
    name: 'starter',
    displayName: 'Starter',
    description: 'For the independent agent: customers, policies, payments, renewals and commissions.',
    priceMonthly: '29.99',
    priceYearly: '299.99',
    trialDays: 14,
    excluded: PREMIUM_MODULES,
    limits: { policies: 100, customers: 250, leads: 50, users: 2, storage_mb: 1000 },
    isPopular: false,
  },
  {
    name: 'professional',
    displayName: 'Professional',
    description: 'For a growing brokerage: everything in Starter plus customer and portfolio analytics.',
    priceMonthly: '79.99',
    priceYearly: '799.99',
    trialDays: 14,
    excluded: [],
    limits: { policies: 500, customers: 1000, leads: 200, users: 10, storage_mb: 5000 },
    isPopular: true,
  },
  {
    name: 'agency',
    displayName: 'Agency',
    description: 'For agencies with a large book of business: every module and room for it to grow.',
    priceMonthly: '199.99',
    priceYearly: '1999.99',
    trialDays: 14,
    excluded: [],
    limits: { policies: 5000, customers: 10000, leads: 2000, users: 50, storage_mb: 50000 },
    isPopular: false,
  },
];

export async function seedPlans(executor: Executor): Promise<void> {
  const rows = PLAN_CATALOGUE.map((plan, index) => ({
    name: plan.name,
    displayName: plan.displayName,
    description: plan.description,
    priceMonthly: plan.priceMonthly,
    priceYearly: plan.priceYearly,
    trialDays: plan.trialDays,
    features: {
      included: MODULES.filter((module) => !plan.excluded.includes(module)),
      excluded: [...plan.excluded],
    },
    limits: plan.limits,
    isPopular: plan.isPopular,
    sortOrder: index,
  }));
  await executor
    .insert(plans)
    .values(rows)
    .onConflictDoUpdate({
      target: plans.name,
      // Paddle ids are set per installation, so the catalogue leaves them alone.
      set: {
        displayName: sql`excluded.display_name`,
        description: sql`excluded.description`,
        priceMonthly: sql`excluded.price_monthly`,
        priceYearly: sql`excluded.price_yearly`,
        trialDays: sql`excluded.trial_days`,
        features: sql`excluded.features`,
        limits: sql`excluded.limits`,
        isPopular: sql`excluded.is_popular`,
        sortOrder: sql`excluded.sort_order`,
      },
    });
}

/**
 * Writes Paddle's price ids onto the plans they belong to: from PADDLE_PRICES at start, or as saved
 * in /admin/paddle-setup. A blank id takes the plan off sale online in that cycle.
 */
export async function applyPaddlePrices(
  executor: Executor,
  paddle: Pick<PaddleConfig, 'environment' | 'prices'> | undefined,
): Promise<void> {
  if (!paddle) return;
  for (const [name, price] of Object.entries(paddle.prices)) {
    await executor
      .update(plans)
      .set({
        paddlePriceMonthlyId: price.monthly || null,
        paddlePriceYearlyId: price.yearly || null,
        paddleEnvironment: paddle.environment,
      })
      .where(eq(plans.name, name));
  }
}
