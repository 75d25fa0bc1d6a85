import { z } from 'zod';
import { money } from './billing.js';
import { PAYMENT_FREQUENCIES } from './constants.js';

// The three premium analytics screens: customer analytics, the current portfolio and its history.
// Every figure is a sum of what the policy pages show for each policy (the same commission
// functions, statuses and overdue rule), in the agency's time zone. Money is a string with two
// decimals; a percentage is a string with two decimals, "0.00" when its base is zero.

/** A share as "12.50" (per cent, two decimals). */
export const percentageFigure = z.string().regex(/^\d+\.\d{2}$/);

/** A calendar month as "2026-11". */
export const monthFigure = z.string().regex(/^\d{4}-\d{2}$/);

// ---------------------------------------------------------------------------------------------
// GET /analytics/customers/?period=

/** The last 3, 6 or 12 months to today, or this calendar year to today. */
export const CUSTOMER_ANALYTICS_PERIODS = ['3m', '6m', '12m', 'ytd'] as const;
export type CustomerAnalyticsPeriod = (typeof CUSTOMER_ANALYTICS_PERIODS)[number];
export const CUSTOMER_ANALYTICS_PERIOD_LABELS: Record<CustomerAnalyticsPeriod, string> = {
  '3m': 'Last 3 months',
  '6m': 'Last 6 months',
  '12m': 'Last 12 months',
  ytd: 'This year',
};

export const customerAnalyticsQuery = z.object({
  period: z
    .enum(CUSTOMER_ANALYTICS_PERIODS, { error: 'Choose a period: 3m, 6m, 12m or ytd.' })
    .default('12m'),
});
export type CustomerAnalyticsQuery = z.input<typeof customerAnalyticsQuery>;

/** A customer's whole history with the agency: every policy term they held. */
export const customerValue = z.object({
  customer_id: z.string(),
  customer_name: z.string(),
  policies: z.number().int(),
  lifetime_premium: money,
  expected_commission: money,
  received_commission: money,
});
export type CustomerValue = z.infer<typeof customerValue>;

export const customerAnalytics = z.object({
  period: z.enum(CUSTOMER_ANALYTICS_PERIODS),
  /** The first day of the period (the agency's date). */
  period_start: z.string(),
  /** The agency's today, the last day of the period. */
  today: z.string(),
  total_customers: z.number().int(),
  /** Customers whose first policy started within the period. */
  new_customers: z.number().int(),
  /** The last 12 months, oldest first, the current month last. */
  new_per_month: z.array(z.object({ month: monthFigure, new_customers: z.number().int() })),
  /** Customers with at least one policy active today. */
  active_customers: z.number().int(),
  /** Every other customer (no policy active today, or none at all). */
  inactive_customers: z.number().int(),
  retention: z.object({
    /** Customers who had a policy in force on `period_start`. */
    base_customers: z.number().int(),
    /** Of those, the ones with a policy active today. */
    retained_customers: z.number().int(),
    retention_rate: percentageFigure,
  }),
  top_by_premium: z.array(customerValue),
  top_by_commission: z.array(customerValue),
  /** Active customers by how many policies they hold active today. */
  policies_per_customer: z.object({
    one: z.number().int(),
    two: z.number().int(),
    three: z.number().int(),
    four_or_more: z.number().int(),
  }),
  by_policy_type: z.array(
    z.object({ policy_type_id: z.string(), policy_type_name: z.string(), customers: z.number().int() }),
  ),
  by_company: z.array(
    z.object({ company_id: z.string(), company_name: z.string(), customers: z.number().int() }),
  ),
  overdue: z.object({
    customers: z.number().int(),
    instalments: z.number().int(),
    amount_overdue: money,
  }),
  lifetime_value: z.object({
    /** Customers with at least one policy: the base of the averages. */
    customers_with_policies: z.number().int(),
    total_premium: money,
    average_premium: money,
    average_expected_commission: money,
    average_received_commission: money,
  }),
});
export type CustomerAnalytics = z.infer<typeof customerAnalytics>;

// ---------------------------------------------------------------------------------------------
// GET /analytics/portfolio/

const inForce = { policies: z.number().int(), premium: money, share_percentage: percentageFigure };

export const portfolioAnalytics = z.object({
  today: z.string(),
  in_force: z.object({ policies: z.number().int(), premium: money }),
  by_company: z.array(z.object({ company_id: z.string(), company_name: z.string(), ...inForce })),
  by_policy_type: z.array(z.object({ policy_type_id: z.string(), policy_type_name: z.string(), ...inForce })),
  by_payment_frequency: z.array(z.object({ payment_frequency: z.enum(PAYMENT_FREQUENCIES), ...inForce })),
  commission_this_year: z.object({
    year: z.number().int(),
    policies: z.number().int(),
    expected: money,
    received: money,
    outstanding: money,
    received_percentage: percentageFigure,
  }),
  /** The insurer holding the largest share of the premium in force; null with nothing in force. */
  concentration: z
    .object({
      company_id: z.string(),
      company_name: z.string(),
      premium: money,
      share_percentage: percentageFigure,
    })
    .nullable(),
  /** Within 30, 60 and 90 days (each includes the shorter ones). */
  renewals_due: z.array(
    z.object({ within_days: z.number().int(), policies: z.number().int(), premium: money }),
  ),
  overdue: z.object({ instalments: z.number().int(), amount: money }),
});
export type PortfolioAnalytics = z.infer<typeof portfolioAnalytics>;

// ---------------------------------------------------------------------------------------------
// GET /analytics/portfolio-history/?months=

export const PORTFOLIO_HISTORY_MONTHS = [12, 24, 36] as const;
export type PortfolioHistoryMonths = (typeof PORTFOLIO_HISTORY_MONTHS)[number];

export const portfolioHistoryQuery = z.object({
  months: z.coerce
    .number({ error: 'Choose 12, 24 or 36 months.' })
    .refine((months) => (PORTFOLIO_HISTORY_MONTHS as readonly number[]).includes(months), {
      message: 'Choose 12, 24 or 36 months.',
    })
    .default(12),
});
export type PortfolioHistoryQuery = z.input<typeof portfolioHistoryQuery>;

export const portfolioMonth = z.object({
  month: monthFigure,
  /** The day the in-force figures are taken: the month's last day, or today for the current month. */
  as_of: z.string(),
  policies_in_force: z.number().int(),
  premium_in_force: money,
  new_policies: z.number().int(),
  renewed: z.number().int(),
  expired: z.number().int(),
  cancelled: z.number().int(),
  expected_commission: money,
  received_commission: money,
  retention_rate: percentageFigure,
});
export type PortfolioMonth = z.infer<typeof portfolioMonth>;

export const portfolioHistory = z.object({
  months: z.number().int(),
  today: z.string(),
  /** Oldest first, the current month last. */
  results: z.array(portfolioMonth),
});
export type PortfolioHistory = z.infer<typeof portfolioHistory>;
