import { z } from 'zod';
import { money } from './billing.js';
import { exportQueryOf } from './export.js';
import { assignedToFilter, queryBoolean, uuid } from './fields.js';
import { ordering, paged, pageQuery } from './pagination.js';
import { policyStatus } from './policies.js';

/** How far ahead the expiring-policies list looks, in days: the broker picks one. */
export const EXPIRY_WINDOWS = [30, 60, 90] as const;
export type ExpiryWindow = (typeof EXPIRY_WINDOWS)[number];

/** How long after its end a term that was not renewed still counts as lapsed and worth a call. */
export const LAPSED_WITHIN_DAYS = 30;

export const EXPIRING_ORDERINGS = ['end_date', 'total_premium'] as const;

/** What narrows the expiring list and its counts alike. */
const expiringFilters = pageQuery.pick({ search: true }).extend({
  company_id: uuid.optional(),
  assigned_to: assignedToFilter.describe('Only the policies assigned to this member.'),
});

export const expiringCountsQuery = expiringFilters;
export type ExpiringCountsQuery = z.input<typeof expiringCountsQuery>;

const expiryWindow = z
  .enum(['30', '60', '90'] satisfies `${ExpiryWindow}`[], { error: 'Choose 30, 60 or 90 days.' })
  .transform((days) => Number(days) as ExpiryWindow);

export const expiringListQuery = pageQuery.extend({
  ...expiringFilters.shape,
  within_days: expiryWindow
    .default(30)
    .describe('Active policies ending within 30, 60 or 90 days from today.'),
  include_lapsed: queryBoolean
    .default(true)
    .describe(`Also the policies that ended in the last ${LAPSED_WITHIN_DAYS} days without a renewal.`),
  ordering: ordering(EXPIRING_ORDERINGS, 'end_date'),
});
export type ExpiringListQuery = z.input<typeof expiringListQuery>;

/** The export: every row the list's filters match, in its order, as CSV or XLSX. */
export const expiringExportQuery = exportQueryOf(expiringListQuery);
export type ExpiringExportQuery = z.input<typeof expiringExportQuery>;

/** A policy to renew, or one that lapsed lately: what a broker needs to pick up the phone. */
export const expiringPolicy = z.object({
  id: z.string(),
  policy_number: z.string(),
  customer_id: z.string(),
  customer_name: z.string(),
  customer_email: z.string().describe('"" when the customer has none.'),
  customer_phone: z.string().describe('"" when the customer has none.'),
  company_id: z.string(),
  company_name: z.string(),
  policy_type_name: z.string(),
  total_premium: money,
  end_date: z.string(),
  days_left: z
    .number()
    .int()
    .describe("Days from today (the agency's) to the end date: 0 when it ends today, negative once lapsed."),
  status: policyStatus.describe('`active`, or `expired` for a lapsed policy.'),
});
export type ExpiringPolicy = z.infer<typeof expiringPolicy>;

export const expiringPage = paged(expiringPolicy);

/** How many policies each window holds, and how many lapsed, under the same filters as the list. */
export const expiringCounts = z.object({
  within_30: z.number().int(),
  within_60: z.number().int(),
  within_90: z.number().int(),
  lapsed: z.number().int(),
});
export type ExpiringCounts = z.infer<typeof expiringCounts>;
