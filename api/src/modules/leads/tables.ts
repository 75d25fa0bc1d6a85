import { LEAD_ACTIVITY_TYPES, LEAD_SOURCES, LEAD_STATUSES } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import { foreignKey, index, numeric, pgTable, text, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, timestamptz, updatedAt } from '../../db/columns.js';
import { emailKey, nameKey, phoneDigits, trigramIndex } from '../../db/search-columns.js';
import { tenantId } from '../../db/tenant-columns.js';

/** What lists show and sort by: the business name, or first and last name. */
const DISPLAY_NAME = sql`case when business_name <> '' then business_name else trim(first_name || ' ' || last_name) end`;

/**
 * People who may buy: the agency's pipeline. Tenant-owned. The links to a policy type of interest
 * and to the customer a lead became are foreign keys on (tenant_id, id) that clear only their own
 * column when that row goes (`ON DELETE SET NULL (...)`, which drizzle cannot express), so they
 * live in the custom migration 0022 with the triggers that keep `closed_at` and the timeline.
 */
export const leads = pgTable(
  'leads',
  {
    id: id(),
    tenantId: tenantId(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    businessName: text('business_name').notNull().default(''),
    /** What lists show and sort by: the business name, or first and last name. */
    displayName: text('display_name').notNull().generatedAlwaysAs(DISPLAY_NAME),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    source: text('source', { enum: LEAD_SOURCES }).notNull().default('other'),
    policyTypeId: uuid('policy_type_id'),
    estimatedPremium: numeric('estimated_premium', { precision: 14, scale: 2 }),
    status: text('status', { enum: LEAD_STATUSES }).notNull().default('new'),
    lostReason: text('lost_reason').notNull().default(''),
    nextFollowUpAt: timestamptz('next_follow_up_at'),
    /** A user of the agency (`agency_users`); checked on every write, as users are platform rows. */
    assignedUserId: uuid('assigned_user_id'),
    notes: text('notes').notNull().default(''),
    customerId: uuid('customer_id'),
    /** Set by the status trigger when the lead moves to won or lost, cleared when it reopens. */
    closedAt: timestamptz('closed_at'),
    // A generated column cannot read another, so the name is written out again.
    nameKey: nameKey(DISPLAY_NAME),
    emailKey: emailKey(),
    phoneDigits: phoneDigits(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('leads_tenant_id_id_key').on(t.tenantId, t.id),
    // One lead per customer: a conversion never links a second lead to the same customer.
    uniqueIndex('leads_customer_key').on(t.tenantId, t.customerId).where(sql`customer_id is not null`),
    index('leads_tenant_name_idx').on(t.tenantId, sql`lower(${t.displayName})`, t.id),
    index('leads_tenant_created_idx').on(t.tenantId, t.createdAt),
    // Also carries the estimated premium (INCLUDE, which drizzle cannot express: migration
    // lead-pipeline-index), so the open pipeline on the dashboard is summed from the index alone.
    index('leads_tenant_status_idx').on(t.tenantId, t.status),
    index('leads_tenant_follow_up_idx').on(t.tenantId, t.nextFollowUpAt),
    index('leads_tenant_closed_idx').on(t.tenantId, t.closedAt).where(sql`closed_at is not null`),
    index('leads_tenant_email_idx').on(t.tenantId, t.email),
    trigramIndex('leads_name_key_idx', t.tenantId, t.nameKey),
    trigramIndex('leads_email_key_idx', t.tenantId, t.emailKey),
    trigramIndex('leads_phone_digits_idx', t.tenantId, t.phoneDigits),
  ],
);

/**
 * A lead's timeline: calls, emails, meetings and notes a broker logs, and status changes, which the
 * trigger on `leads` writes whatever changed the status (migration 0022). Tenant-owned.
 */
export const leadActivities = pgTable(
  'lead_activities',
  {
    id: id(),
    tenantId: tenantId(),
    leadId: uuid('lead_id').notNull(),
    activityType: text('activity_type', { enum: LEAD_ACTIVITY_TYPES }).notNull(),
    summary: text('summary').notNull().default(''),
    fromStatus: text('from_status', { enum: LEAD_STATUSES }),
    toStatus: text('to_status', { enum: LEAD_STATUSES }),
    /** Who: the signed-in user of the request (`app.user_id`), or null when unknown. */
    userId: uuid('user_id'),
    occurredAt: timestamptz('occurred_at').notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    index('lead_activities_lead_idx').on(t.tenantId, t.leadId, t.occurredAt),
    foreignKey({
      name: 'lead_activities_lead_fk',
      columns: [t.tenantId, t.leadId],
      foreignColumns: [leads.tenantId, leads.id],
    }).onDelete('cascade'),
  ],
);
