import { z } from 'zod';
import {
  BILLING_CYCLES,
  BILLING_EVENT_TYPES,
  BILLING_PROVIDERS,
  CARD_BRANDS,
  PLAN_CHANGE_TYPES,
  PLAN_START_TYPES,
  SUBSCRIPTION_STATUSES,
  USAGE_METRICS,
} from './constants.js';
import { boundedText, requiredText, text } from './fields.js';
import { MODULES } from './modules.js';
import { paged } from './pagination.js';

/** Money travels as a string with two decimals, e.g. "1234.50". */
export const money = z.string().regex(/^-?\d+\.\d{2}$/);

export const billingCycle = z.enum(BILLING_CYCLES);

export const subscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);

export const moduleName = z.enum(MODULES);

export const planLimits = z.object({
  policies: z.number().int(),
  customers: z.number().int(),
  leads: z.number().int(),
  /** Members, active or invited. */
  users: z.number().int(),
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

/** What a plan costs a month in a cycle (a yearly price over 12), so cycles can be compared. */
export function monthlyPriceOf(
  prices: { price_monthly: string; price_yearly: string },
  cycle: z.infer<typeof billingCycle>,
): number {
  return cycle === 'yearly' ? Number(prices.price_yearly) / 12 : Number(prices.price_monthly);
}

export const planList = z.object({
  results: z.array(plan),
  /** Who takes payment for a plan: Paddle when configured, otherwise changes apply at once (manual). */
  provider: z.enum(BILLING_PROVIDERS),
});

/** A plan change waiting for the end of the paid period, or a plan chosen to start when the trial ends. */
export const scheduledChange = z.object({
  plan_id: z.string(),
  plan_name: z.string(),
  billing_cycle: billingCycle,
  effective_at: z.string(),
});

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
  cancel_reason: z.string(),
  paused_at: z.string().nullable(),
  scheduled_change: scheduledChange.nullable(),
  provider: z.enum(BILLING_PROVIDERS),
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
  users: usageMetric,
  /** Megabytes of documents kept, rounded up. */
  storage_mb: usageMetric,
});
export type UsageSummary = z.infer<typeof usageSummary>;

const planChoice = z.uuid({ error: 'Choose a plan.' });

/** `POST /billing/subscriptions/upgrade/` and `create_payment_intent/`. */
export const upgradeBody = z.object({
  plan_id: planChoice,
  billing_cycle: billingCycle.default('monthly'),
  /**
   * During the trial: `at_trial_end` keeps the trial's remaining days and starts the plan when it ends;
   * `immediate` (the default) ends the trial and starts the plan now. Outside a trial the plan starts now.
   */
  starts: z.enum(PLAN_START_TYPES).default('immediate'),
});
export type UpgradeBody = z.input<typeof upgradeBody>;

/**
 * Where the browser goes after a checkout: a path of this app, never another site. Browsers drop tabs
 * and newlines and read a backslash as a slash, so "/\t/evil.com" would lead away: such characters are
 * refused, and the path must resolve to this app's own origin.
 */
const returnPath = text()
  .trim()
  .max(500, 'Ensure this field has no more than 500 characters.')
  .refine(
    (value) =>
      value.startsWith('/') && !/[\p{Cc}\\]/u.test(value) && new URL(value, 'http://x').origin === 'http://x',
    { message: 'Enter a path of this app, starting with /.' },
  );

export const checkoutSessionBody = upgradeBody.extend({
  success_url: returnPath.default('/billing?checkout=success'),
  cancel_url: returnPath.default('/billing'),
});
export type CheckoutSessionBody = z.input<typeof checkoutSessionBody>;

export const subscriptionCancelBody = z.object({
  reason: boundedText(500).default('Cancelled by user'),
  immediate: z.boolean().default(false),
});
export type SubscriptionCancelBody = z.input<typeof subscriptionCancelBody>;

export const changePlanBody = z.object({
  plan_id: planChoice,
  /**
   * When left out: a dearer plan or cycle (per month) starts now, the difference prorated; a cheaper
   * one at the end of the period, the current plan kept until then.
   */
  change_type: z.enum(PLAN_CHANGE_TYPES).optional(),
  /** The cycle to bill on from the change; the current one when left out. */
  billing_cycle: billingCycle.optional(),
});
export type ChangePlanBody = z.input<typeof changePlanBody>;

/** What a billing action did: the subscription after it, and a sentence to show the user. */
export const billingActionResult = z.object({
  subscription: subscriptionState,
  message: z.string(),
});
export type BillingActionResult = z.infer<typeof billingActionResult>;

/** What the browser needs to open Paddle's checkout overlay. */
export const paddleCheckout = z.object({
  environment: z.enum(['sandbox', 'production']),
  client_token: z.string(),
  price_id: z.string().nullable(),
  transaction_id: z.string().nullable(),
  customer_email: z.string(),
  custom_data: z.record(z.string(), z.string()),
});
export type PaddleCheckout = z.infer<typeof paddleCheckout>;

/**
 * A checkout: with the manual provider it has been applied already (`subscription` set); with Paddle
 * the browser opens the overlay from `paddle` and the webhook applies it once paid.
 */
export const checkoutSession = z.object({
  provider: z.enum(BILLING_PROVIDERS),
  subscription: subscriptionState.nullable(),
  paddle: paddleCheckout.nullable(),
  success_url: z.string(),
  cancel_url: z.string(),
});
export type CheckoutSession = z.infer<typeof checkoutSession>;

export const savedPaymentMethod = z.object({
  id: z.string(),
  provider: z.enum(BILLING_PROVIDERS),
  type: z.string(),
  brand: z.string(),
  last4: z.string(),
  expiry_month: z.number().int().nullable(),
  expiry_year: z.number().int().nullable(),
  holder_name: z.string(),
  is_default: z.boolean(),
  created_at: z.string(),
});
export type SavedPaymentMethod = z.infer<typeof savedPaymentMethod>;

export const paymentMethodList = paged(savedPaymentMethod);

const expiryMonth = z
  .number({ error: 'Enter the month the card expires, 1 to 12.' })
  .int('Enter the month the card expires, 1 to 12.')
  .min(1, 'Enter the month the card expires, 1 to 12.')
  .max(12, 'Enter the month the card expires, 1 to 12.');
const expiryYear = z
  .number({ error: 'Enter the year the card expires.' })
  .int('Enter the year the card expires.')
  .min(2000, 'Enter the year the card expires.')
  .max(2100, 'Enter the year the card expires.');

/** A card recorded with the manual provider: its description only, never its number. */
export const paymentMethodBody = z.object({
  brand: z.enum(CARD_BRANDS, { error: 'Choose the card brand.' }),
  last4: text({ error: 'Enter the last four digits of the card.' })
    .trim()
    .regex(/^\d{4}$/, 'Enter the last four digits of the card.'),
  expiry_month: expiryMonth,
  expiry_year: expiryYear,
  holder_name: requiredText(120),
});
export type PaymentMethodBody = z.input<typeof paymentMethodBody>;

export const paymentMethodUpdateBody = paymentMethodBody.pick({
  expiry_month: true,
  expiry_year: true,
  holder_name: true,
});
export type PaymentMethodUpdateBody = z.input<typeof paymentMethodUpdateBody>;

/** With Paddle, a card is added in Paddle's own checkout for the subscription's payment method. */
export const paymentMethodCheckout = z.object({
  provider: z.enum(BILLING_PROVIDERS),
  paddle: paddleCheckout.nullable(),
});

export const billingEvent = z.object({
  id: z.string(),
  type: z.enum(BILLING_EVENT_TYPES),
  from_status: subscriptionStatus.nullable(),
  to_status: subscriptionStatus.nullable(),
  plan_name: z.string().nullable(),
  billing_cycle: billingCycle.nullable(),
  amount: money.nullable(),
  provider: z.enum(BILLING_PROVIDERS),
  provider_event_id: z.string().nullable(),
  /** Who did it: a user's name, or null for Coverdesk's own schedule or the payment provider. */
  actor: z.string().nullable(),
  note: z.string(),
  occurred_at: z.string(),
});
export type BillingEvent = z.infer<typeof billingEvent>;

export const billingEventList = paged(billingEvent);

export const usageMetricName = z.enum(USAGE_METRICS, {
  error: 'Not a metric: policies, customers or leads.',
});

/** One metric in detail: the agency's use, and the limit each plan on sale sets for it. */
export const usageDetails = usageMetric.extend({
  metric: usageMetricName,
  plans: z.array(
    z.object({
      plan_id: z.string(),
      display_name: z.string(),
      limit_value: z.number().int(),
      fits: z.boolean(),
    }),
  ),
});
export type UsageDetails = z.infer<typeof usageDetails>;
