import type { ModuleName, PlanLimits } from '@coverdesk/contract';
import {
  BILLING_CYCLES,
  BILLING_EVENT_TYPES,
  BILLING_PROVIDERS,
  SUBSCRIPTION_STATUSES,
} from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz } from '../../db/columns.js';
import { tenantId } from '../../db/tenant-columns.js';
import { users } from '../accounts/tables.js';
import { tenants } from '../tenants/tables.js';

/** Subscription plans; the catalogue in `plan-catalogue.ts` is written here at every start. */
export const plans = pgTable('plans', {
  id: id(),
  name: text('name').notNull().unique(),
  displayName: text('display_name').notNull(),
  description: text('description').notNull(),
  priceMonthly: numeric('price_monthly', { precision: 14, scale: 2 }).notNull(),
  priceYearly: numeric('price_yearly', { precision: 14, scale: 2 }).notNull(),
  trialDays: integer('trial_days').notNull(),
  paddleProductId: text('paddle_product_id'),
  paddlePriceMonthlyId: text('paddle_price_monthly_id'),
  paddlePriceYearlyId: text('paddle_price_yearly_id'),
  paddleEnvironment: text('paddle_environment').notNull().default('sandbox'),
  features: jsonb('features').$type<{ included: ModuleName[]; excluded: ModuleName[] }>().notNull(),
  limits: jsonb('limits').$type<PlanLimits>().notNull(),
  isActive: boolean('is_active').notNull().default(true),
  isPopular: boolean('is_popular').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(0),
});

/** One subscription per agency. Tenant-owned: read and written only inside `withTenant`. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .unique()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull(),
    billingCycle: text('billing_cycle', { enum: BILLING_CYCLES }).notNull().default('monthly'),
    trialStartedAt: timestamptz('trial_started_at'),
    trialEndsAt: timestamptz('trial_ends_at'),
    currentPeriodStart: timestamptz('current_period_start'),
    currentPeriodEnd: timestamptz('current_period_end'),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    cancelReason: text('cancel_reason').notNull().default(''),
    pausedAt: timestamptz('paused_at'),
    /** A plan change waiting for the period end; applied by `settleSubscription`. */
    scheduledPlanId: uuid('scheduled_plan_id').references(() => plans.id),
    scheduledBillingCycle: text('scheduled_billing_cycle', { enum: BILLING_CYCLES }),
    provider: text('provider', { enum: BILLING_PROVIDERS }).notNull().default('manual'),
    providerCustomerId: text('provider_customer_id'),
    providerSubscriptionId: text('provider_subscription_id'),
    /** When the newest provider event applied here occurred: an older one arriving later is ignored. */
    providerEventAt: timestamptz('provider_event_at'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('subscriptions_plan_idx').on(t.planId)],
);

/**
 * Every change of an agency's subscription: who (a user, or null for the schedule and the payment
 * provider), what, when, and the provider's event id. Tenant-owned; rows are only ever added.
 */
export const billingEvents = pgTable(
  'billing_events',
  {
    id: id(),
    tenantId: tenantId(),
    type: text('type', { enum: BILLING_EVENT_TYPES }).notNull(),
    fromStatus: text('from_status', { enum: SUBSCRIPTION_STATUSES }),
    toStatus: text('to_status', { enum: SUBSCRIPTION_STATUSES }),
    planName: text('plan_name'),
    billingCycle: text('billing_cycle', { enum: BILLING_CYCLES }),
    amount: numeric('amount', { precision: 14, scale: 2 }),
    provider: text('provider', { enum: BILLING_PROVIDERS }).notNull(),
    providerEventId: text('provider_event_id'),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** The user's name as it was, since the tenant role cannot read the users table. */
    actorName: text('actor_name'),
    note: text('note').notNull().default(''),
    occurredAt: timestamptz('occurred_at').notNull().defaultNow(),
  },
  (t) => [index('billing_events_tenant_idx').on(t.tenantId, t.occurredAt.desc(), t.id.desc())],
);

/** Cards an agency recorded with the manual provider (Paddle keeps its own). Tenant-owned. */
export const paymentMethods = pgTable(
  'billing_payment_methods',
  {
    id: id(),
    tenantId: tenantId(),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expiryMonth: integer('expiry_month').notNull(),
    expiryYear: integer('expiry_year').notNull(),
    holderName: text('holder_name').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('billing_payment_methods_tenant_idx').on(t.tenantId),
    uniqueIndex('billing_payment_methods_one_default').on(t.tenantId).where(sql`is_default`),
  ],
);

/**
 * Paddle's webhook deliveries, one row per event id however often it is delivered. A platform table:
 * an event names its agency only in its payload, so it is stored before any tenant is known.
 */
export const paddleEvents = pgTable('paddle_events', {
  eventId: text('event_id').primaryKey(),
  eventType: text('event_type').notNull(),
  occurredAt: timestamptz('occurred_at').notNull(),
  payload: jsonb('payload').notNull(),
  /** applied, ignored_older, ignored_unknown_agency or ignored_type. */
  outcome: text('outcome').notNull(),
  receivedAt: createdAt(),
});
