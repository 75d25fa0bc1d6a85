import { z } from 'zod';
import { auditEntry } from './audit.js';
import { emailField } from './auth.js';
import { billingCycle, subscriptionState, subscriptionStatus, usageSummary } from './billing.js';
import { USAGE_METRICS } from './constants.js';
import { boundedText, EARLIEST_DATE, LATEST_DATE, queryBoolean, requiredText, text } from './fields.js';
import { ordering, paged, pageQuery } from './pagination.js';
import { teamRole } from './roles.js';

/** A moment an admin sets, in the years the app's dates allow. */
const isoDateTime = z.iso
  .datetime({ offset: true, error: 'Enter a date and time in ISO 8601 format.' })
  .refine(
    (value) =>
      !/^\d{4}-/.test(value) || (value.slice(0, 10) >= EARLIEST_DATE && value.slice(0, 10) <= LATEST_DATE),
    {
      message: 'Enter a date between 1900 and 2200.',
    },
  );

/** An admin's change to one agency's subscription (plan, status, trial or period end). */
export const adminSubscriptionUpdateBody = z.object({
  plan: text().trim().min(1, 'This field may not be blank.').optional(),
  status: subscriptionStatus.optional(),
  billing_cycle: billingCycle.optional(),
  trial_ends_at: isoDateTime.nullable().optional(),
  current_period_end: isoDateTime.nullable().optional(),
  /** Why, for the audit log; the screens use the actions below, which require one. */
  reason: boundedText(500).optional(),
});
export type AdminSubscriptionUpdateBody = z.infer<typeof adminSubscriptionUpdateBody>;

/** Why an admin acts on an agency or a person: kept in the audit log beside the change. */
export const adminReason = requiredText(500);

/** Every admin action that changes something asks for its reason. */
export const adminReasonBody = z.object({ reason: adminReason });
export type AdminReasonBody = z.input<typeof adminReasonBody>;

export const ADMIN_TENANT_ORDERINGS = ['name', 'created_at', 'users', 'policies'] as const;

/**
 * `GET /api/admin/tenants/`: search by agency name or a user's email, filter by plan and status. The
 * demo agency is left out unless asked for, as the dashboard leaves it out of its count of agencies.
 */
export const adminTenantListQuery = pageQuery.extend({
  plan: boundedText(50).optional(),
  status: subscriptionStatus.optional(),
  include_demo: queryBoolean
    .default(false)
    .describe('Also the demo agency, whose records its visitors make up.'),
  ordering: ordering(ADMIN_TENANT_ORDERINGS, 'name'),
});
export type AdminTenantListQuery = z.input<typeof adminTenantListQuery>;

/** One agency in the admin's list. Status is the subscription's as of now (a lapsed trial reads expired). */
export const adminTenantRow = z.object({
  id: z.string(),
  name: z.string(),
  owner_email: z.string().nullable(),
  plan: z.string().nullable(),
  plan_name: z.string().nullable(),
  status: subscriptionStatus.nullable(),
  trial_ends_at: z.string().nullable(),
  current_period_end: z.string().nullable(),
  user_count: z.number().int(),
  policy_count: z.number().int(),
  customer_count: z.number().int(),
  created_at: z.string(),
  last_activity_at: z.string().nullable(),
});
export type AdminTenantRow = z.infer<typeof adminTenantRow>;
export const adminTenantList = paged(adminTenantRow);

/** A person as the admin sees them: who, which agency, and what they may do. */
export const adminUser = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  tenant_id: z.string(),
  agency_name: z.string(),
  is_admin: z.boolean(),
  is_owner: z.boolean(),
  role: teamRole,
  is_demo_user: z.boolean(),
  disabled_at: z.string().nullable(),
  date_joined: z.string(),
  last_login: z.string().nullable(),
  /** Signs in with two steps: the admin can reset it for someone who lost their phone. */
  mfa_enabled: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUser>;

/** A line of an agency's audit log, as its detail page lists the latest. */
export const adminActivity = auditEntry.pick({
  id: true,
  occurred_at: true,
  action: true,
  entity: true,
  entity_id: true,
  actor_email: true,
  reason: true,
});
export type AdminActivity = z.infer<typeof adminActivity>;

/** `GET /api/admin/tenants/:id/`: the agency, its people, its subscription and use, and what happened last. */
export const adminTenantDetail = z.object({
  id: z.string(),
  name: z.string(),
  is_demo: z.boolean(),
  currency: z.string(),
  time_zone: z.string(),
  created_at: z.string(),
  users: z.array(adminUser),
  subscription: subscriptionState.nullable(),
  usage: usageSummary.nullable(),
  recent_activity: z.array(adminActivity),
});
export type AdminTenantDetail = z.infer<typeof adminTenantDetail>;

/** How many of one limited resource an agency added in one month ("2026-11"). */
export const monthlyCount = z.object({ month: z.string(), added: z.number().int() });

/** `GET /api/admin/tenants/:id/usage/`: each limited resource against the plan, and how it grew. */
export const adminTenantUsage = z.object({
  plan_name: z.string().nullable(),
  metrics: z.array(
    z.object({
      metric: z.enum(USAGE_METRICS),
      used: z.number().int(),
      limit: z.number().int().nullable(),
      percentage: z.number().nullable(),
      is_over_limit: z.boolean(),
      /** The last twelve months, oldest first, months with none included. */
      monthly: z.array(monthlyCount),
    }),
  ),
});
export type AdminTenantUsage = z.infer<typeof adminTenantUsage>;

/** `POST …/subscription/extend-trial/`: the trial runs this many days longer (from today if it ended). */
export const extendTrialBody = adminReasonBody.extend({
  days: z.coerce
    .number({ error: 'Enter a number of days.' })
    .int('Enter a whole number of days.')
    .min(1, 'Extend by at least 1 day.')
    .max(365, 'Extend by at most 365 days.'),
});
export type ExtendTrialBody = z.input<typeof extendTrialBody>;

/** `POST …/subscription/change-plan/`: the agency moves to another plan at once, at no charge. */
export const adminChangePlanBody = adminReasonBody.extend({
  plan: requiredText(50),
});
export type AdminChangePlanBody = z.input<typeof adminChangePlanBody>;

/** `POST …/subscription/comp-period/`: a free paid period of this many months, from today or its current end. */
export const compPeriodBody = adminReasonBody.extend({
  months: z.coerce
    .number({ error: 'Enter a number of months.' })
    .int('Enter a whole number of months.')
    .min(1, 'Give at least 1 month.')
    .max(24, 'Give at most 24 months.'),
});
export type CompPeriodBody = z.input<typeof compPeriodBody>;

/** `POST …/subscription/cancel/`: at the end of the trial or paid period, or at once. */
export const adminCancelBody = adminReasonBody.extend({
  immediate: z.boolean().default(false),
});
export type AdminCancelBody = z.input<typeof adminCancelBody>;

/** What a subscription action did, in a sentence, and the subscription as it is now. */
export const adminSubscriptionResult = z.object({
  detail: z.string(),
  subscription: subscriptionState,
});
export type AdminSubscriptionResult = z.infer<typeof adminSubscriptionResult>;

export const ADMIN_USER_ORDERINGS = ['email', 'agency', 'date_joined', 'last_login'] as const;
export const ADMIN_USER_STATES = ['active', 'disabled', 'admin', 'owner'] as const;

/** `GET /api/admin/users/`: search by email, name or agency. */
export const adminUserListQuery = pageQuery.extend({
  state: z.enum(ADMIN_USER_STATES).optional(),
  ordering: ordering(ADMIN_USER_ORDERINGS, 'email'),
});
export type AdminUserListQuery = z.input<typeof adminUserListQuery>;
export const adminUserList = paged(adminUser);

/** A platform admin, and whether the server's ADMIN_EMAILS names them (then only the configuration can revoke). */
export const superAdmin = adminUser.extend({ granted_by_configuration: z.boolean() });
export type SuperAdmin = z.infer<typeof superAdmin>;
export const superAdminList = z.object({ results: z.array(superAdmin) });

/** `POST /api/admin/super-admins/grant/`: makes the account with this email a platform admin. */
export const grantAdminBody = adminReasonBody.extend({
  email: emailField,
});
export type GrantAdminBody = z.input<typeof grantAdminBody>;
