import type { ModuleName, PlanLimits } from '@coverdesk/contract';
import { BILLING_CYCLES, SUBSCRIPTION_STATUSES } from '@coverdesk/contract';
import { boolean, index, integer, jsonb, numeric, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz } from '../../db/columns.js';
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
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('subscriptions_plan_idx').on(t.planId)],
);
