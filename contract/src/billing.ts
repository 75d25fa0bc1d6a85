import { z } from 'zod';
import { BILLING_CYCLES, SUBSCRIPTION_STATUSES } from './constants.js';
import { MODULES } from './modules.js';

/** Money travels as a string with two decimals, e.g. "1234.50". */
export const money = z.string().regex(/^-?\d+\.\d{2}$/);

export const billingCycle = z.enum(BILLING_CYCLES);

export const subscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);

export const moduleName = z.enum(MODULES);

export const planLimits = z.object({
  policies: z.number().int(),
  customers: z.number().int(),
  leads: z.number().int(),
  storage_mb: z.number().int(),
});
export type PlanLimits = z.infer<typeof planLimits>;

export const planFeatures = z.object({
  included: z.array(moduleName),
  excluded: z.array(moduleName),
});

/** Coverdesk's plans are priced in US dollars, whatever currency an agency keeps its books in. */
export const PLAN_CURRENCY = 'USD';

export const plan = z.object({
  id: z.string(),
  name: z.string(),
  display_name: z.string(),
  description: z.string(),
  price_monthly: money,
  price_yearly: money,
  trial_days: z.number().int(),
  paddle_product_id: z.string().nullable(),
  paddle_price_monthly_id: z.string().nullable(),
  paddle_price_yearly_id: z.string().nullable(),
  paddle_environment: z.string(),
  features: planFeatures,
  limits: planLimits,
  is_active: z.boolean(),
  is_popular: z.boolean(),
});
export type Plan = z.infer<typeof plan>;

export const planList = z.object({ results: z.array(plan) });

export const subscription = z.object({
  id: z.string(),
  plan_details: plan,
  status: subscriptionStatus,
  billing_cycle: billingCycle,
  trial_started_at: z.string().nullable(),
  trial_ends_at: z.string().nullable(),
  is_trial_active: z.boolean(),
  days_until_trial_expires: z.number().int(),
  current_period_start: z.string().nullable(),
  current_period_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  is_active: z.boolean(),
});
export type Subscription = z.infer<typeof subscription>;

/** The subscription plus what the web app gates on: the plan id and the modules it may open. */
export const subscriptionState = subscription.extend({
  plan_id: z.string(),
  features: z.array(moduleName),
});
export type SubscriptionState = z.infer<typeof subscriptionState>;

/** How much of one plan limit the agency uses. */
export const usageMetric = z.object({
  current_value: z.number().int(),
  limit_value: z.number().int(),
  is_over_limit: z.boolean(),
  usage_percentage: z.number(),
  remaining_usage: z.number().int(),
});
export type UsageMetricValue = z.infer<typeof usageMetric>;

export const usageSummary = z.object({
  policies: usageMetric,
  customers: usageMetric,
  leads: usageMetric,
});
export type UsageSummary = z.infer<typeof usageSummary>;
