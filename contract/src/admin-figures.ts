import { z } from 'zod';
import { billingCycle, billingEvent, money, subscriptionStatus } from './billing.js';
import { BILLING_EVENT_TYPES } from './constants.js';
import { isoDate, uuid } from './fields.js';
import { ordering, paged, pageQuery } from './pagination.js';

// The platform's figures, read by the admin dashboard, billing, revenue and analytics screens. Months
// are calendar months in UTC, "2026-11", oldest first; the demo agency is left out of every figure.

const month = z.string().regex(/^\d{4}-\d{2}$/);

/** How many agencies' subscriptions are in each state now. */
export const subscriptionCounts = z.object({
  active: z.number().int(),
  trial: z.number().int(),
  past_due: z.number().int(),
  paused: z.number().int(),
  cancelled: z.number().int(),
  expired: z.number().int(),
});
export type SubscriptionCounts = z.infer<typeof subscriptionCounts>;

/** `GET /admin/dashboard/`. */
export const adminDashboard = z.object({
  agencies: z.object({ total: z.number().int(), new_this_month: z.number().int() }),
  subscriptions: subscriptionCounts,
  /** Monthly recurring revenue of the paying subscriptions (active or past due), in the plans' currency. */
  mrr: money,
  /** The last 12 months: agencies that signed up, and subscriptions that ended (cancelled or expired). */
  months: z.array(z.object({ month, sign_ups: z.number().int(), churned: z.number().int() })),
  /** Support tickets not yet resolved, from agencies and the contact form. */
  open_tickets: z.number().int(),
});
export type AdminDashboard = z.infer<typeof adminDashboard>;

/** An agency whose last payment failed and is being retried. */
export const pastDueSubscription = z.object({
  tenant_id: z.string(),
  agency: z.string(),
  plan: z.string(),
  billing_cycle: billingCycle,
  /** When the subscription fell past due. */
  since: z.string(),
  /** What one period of its plan costs: the payment outstanding. */
  amount: money,
});
export type PastDueSubscription = z.infer<typeof pastDueSubscription>;

/** `GET /admin/billing/`. */
export const adminBilling = z.object({
  subscriptions: subscriptionCounts,
  past_due: z.array(pastDueSubscription),
});
export type AdminBilling = z.infer<typeof adminBilling>;

/** `GET /admin/billing/events/`: every agency's billing history, newest first. */
export const adminBillingEventQuery = pageQuery.extend({
  search: pageQuery.shape.search.describe('Agencies whose name contains this.'),
  type: z.enum(BILLING_EVENT_TYPES, { error: 'Not a billing event type.' }).optional(),
  tenant_id: uuid.optional().describe('One agency.'),
  date_from: isoDate.optional().describe('Events on or after this day (UTC).'),
  date_to: isoDate.optional().describe('Events on or before this day (UTC).'),
});
export type AdminBillingEventQuery = z.input<typeof adminBillingEventQuery>;

export const adminBillingEvent = billingEvent.extend({
  tenant_id: z.string(),
  agency: z.string(),
  /** The plan after the agency's previous event, to show a change of plan; null for its first. */
  from_plan_name: z.string().nullable(),
});
export type AdminBillingEvent = z.infer<typeof adminBillingEvent>;

export const adminBillingEventPage = paged(adminBillingEvent);

/** One month of recurring revenue: where it stood at the month's end and how it moved during it. */
export const revenueMonth = z.object({
  month,
  mrr: money,
  arr: money,
  new_mrr: money,
  expansion: money,
  contraction: money,
  churned: money,
});
export type RevenueMonth = z.infer<typeof revenueMonth>;

/** `GET /admin/revenue/`. */
export const adminRevenue = z.object({
  mrr: money,
  arr: money,
  by_plan: z.array(
    z.object({
      plan: z.string(),
      display_name: z.string(),
      subscriptions: z.number().int(),
      mrr: money,
      arr: money,
    }),
  ),
  months: z.array(revenueMonth),
});
export type AdminRevenue = z.infer<typeof adminRevenue>;

/** `GET /admin/analytics/`: records across the platform and who signs in. */
export const adminAnalytics = z.object({
  totals: z.object({
    agencies: z.number().int(),
    policies: z.number().int(),
    customers: z.number().int(),
    leads: z.number().int(),
    claims: z.number().int(),
  }),
  /** The last 30 days, oldest first: distinct users who signed in each day (UTC). */
  active_users: z.array(z.object({ day: z.string(), users: z.number().int() })),
});
export type AdminAnalytics = z.infer<typeof adminAnalytics>;

export const AGENCY_USAGE_ORDERINGS = [
  'agency',
  'policies',
  'customers',
  'leads',
  'claims',
  'users',
] as const;

/** `GET /admin/analytics/agencies/`. */
export const agencyUsageQuery = pageQuery.extend({
  search: pageQuery.shape.search.describe('Agencies whose name contains this.'),
  ordering: ordering(AGENCY_USAGE_ORDERINGS, '-policies'),
});
export type AgencyUsageQuery = z.input<typeof agencyUsageQuery>;

export const agencyUsage = z.object({
  /** The agency's id. */
  id: z.string(),
  agency: z.string(),
  plan: z.string().nullable(),
  status: subscriptionStatus.nullable(),
  policies: z.number().int(),
  customers: z.number().int(),
  leads: z.number().int(),
  claims: z.number().int(),
  users: z.number().int(),
});
export type AgencyUsage = z.infer<typeof agencyUsage>;

export const agencyUsagePage = paged(agencyUsage);
