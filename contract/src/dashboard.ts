import { z } from 'zod';
import { money } from './billing.js';
import { calendarEvent } from './calendar.js';
import { leadStatus } from './leads.js';
import { installmentRow } from './policies.js';

/** How many rows each of the dashboard's lists holds: the most urgent few, the whole list a click away. */
export const DASHBOARD_LIST_ROWS = 5;

/** A first and last day, as the commission report takes its period. */
const period = z.object({ start_date: z.string(), end_date: z.string() });

const commissionOfPeriod = period.extend({
  expected: money.describe("The commission report's `total_expected_commission` for the period."),
  received: money.describe("The commission report's `total_received_commission` for the period."),
});

export const dashboardPolicies = z.object({
  active_policies: z.number().int().describe('Policies active today (the policy list filtered on active).'),
  premium_in_force: money.describe('Their total premiums (`active_premium` of the policy stats).'),
  expiring_in_30_days: z
    .number()
    .int()
    .describe(
      'Active policies ending within 30 days from today (the list filtered on expiring within 30 days).',
    ),
  by_type: z
    .array(
      z.object({
        policy_type_id: z.string(),
        policy_type_name: z.string(),
        policies: z.number().int(),
        premium: money,
      }),
    )
    .describe('The active policies by type, most first (the list filtered on active and the type).'),
  renewals_due: z
    .array(
      z.object({
        id: z.string(),
        policy_number: z.string(),
        customer_name: z.string(),
        company_name: z.string(),
        end_date: z.string(),
        total_premium: money,
        days_left: z.number().int().describe('Days from today to the end of the term; 0 when it ends today.'),
      }),
    )
    .describe(
      `The first ${DASHBOARD_LIST_ROWS} of the policies expiring within 30 days, the soonest ending first.`,
    ),
});
export type DashboardPolicies = z.infer<typeof dashboardPolicies>;

export const dashboardCommission = z.object({
  this_month: period
    .extend({
      expected: money.describe(
        "Commission expected on the terms (new and renewals) that started this month by today: the portfolio history's `expected_commission` for the month.",
      ),
      received: money.describe(
        "Commission insurers owe on what customers paid this month: the portfolio history's `received_commission` for the month.",
      ),
    })
    .describe('"Commission this month" (docs/figures.md): from the first of the month to today.'),
  this_year: commissionOfPeriod,
  by_company: z
    .array(
      z.object({
        company_id: z.string(),
        company_name: z.string(),
        expected: money,
        received: money,
      }),
    )
    .describe("This year's commission by insurer: the commission report's `company_summary` for the year."),
});
export type DashboardCommission = z.infer<typeof dashboardCommission>;

export const dashboardMonth = z.object({
  month: z.string().describe('"2026-11".'),
  premium_written: money.describe(
    'Total premiums of the terms, new or renewals, that started in the month (up to today), not cancelled.',
  ),
  commission_received: money.describe(
    "What the month's payments earned: the portfolio history's `received_commission` for the month.",
  ),
});
export type DashboardMonth = z.infer<typeof dashboardMonth>;

export const dashboardOverdueInstallment = installmentRow.extend({
  days_overdue: z.number().int().describe('Days from the due date to today.'),
});
export type DashboardOverdueInstallment = z.infer<typeof dashboardOverdueInstallment>;

export const dashboardPayments = z.object({
  overdue_count: z.number().int().describe('Overdue instalments (the payments list filtered on overdue).'),
  overdue_amount: money.describe('What remains unpaid on them: amount due less amount paid, summed.'),
  overdue: z
    .array(dashboardOverdueInstallment)
    .describe(
      `The ${DASHBOARD_LIST_ROWS} longest overdue, as the payments list sorted by due date gives them.`,
    ),
});
export type DashboardPayments = z.infer<typeof dashboardPayments>;

export const dashboardLeads = z.object({
  open_count: z.number().int().describe('Leads new, contacted, qualified or quoted (the lead stats).'),
  open_pipeline_premium: money.describe('Their estimated premiums added up (the lead stats).'),
  recent: z
    .array(
      z.object({
        id: z.string(),
        display_name: z.string(),
        status: leadStatus,
        policy_type_name: z.string(),
        estimated_premium: money.nullable(),
        created_at: z.string(),
      }),
    )
    .describe(`The ${DASHBOARD_LIST_ROWS} leads added last.`),
});
export type DashboardLeads = z.infer<typeof dashboardLeads>;

export const dashboardClaims = z.object({
  open_count: z.number().int().describe('Claims not closed (the claim stats `open_count`).'),
});

/**
 * `GET /dashboard/`: the agency's day in one answer. A section is null when the agency's plan leaves
 * out the module it comes from, so the dashboard never shows what the plan does not sell.
 */
export const dashboard = z.object({
  today: z.string().describe("The agency's today, in its time zone."),
  policies: dashboardPolicies.nullable(),
  commission: dashboardCommission.nullable(),
  months: z
    .array(dashboardMonth)
    .nullable()
    .describe('The last 12 months, oldest first, ending with this one.'),
  payments: dashboardPayments.nullable(),
  leads: dashboardLeads.nullable(),
  claims: dashboardClaims.nullable(),
  agenda: z
    .array(calendarEvent)
    .nullable()
    .describe(
      "Today's events as the calendar shows them, of the kinds the plan includes (null without the calendar).",
    ),
});
export type Dashboard = z.infer<typeof dashboard>;
