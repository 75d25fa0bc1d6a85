import {
  customerAnalytics,
  customerAnalyticsQuery,
  detailResponse,
  fieldErrorsResponse,
  type PortfolioHistoryMonths,
  portfolioAnalytics,
  portfolioHistory,
  portfolioHistoryQuery,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { bearerAuth } from '../../http/authenticate.js';
import { withModule } from '../billing/access.js';
import {
  customerAnalytics as readCustomerAnalytics,
  portfolioAnalytics as readPortfolioAnalytics,
  portfolioHistory as readPortfolioHistory,
} from './queries.js';

const tags = ['analytics'];
const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse };

const COMMON =
  'Premium module: 402 without an active subscription or trial, 403 (with the way to upgrade) when the plan leaves it out. ' +
  "Dates are the agency's own (its time zone). Money is a string with two decimals summed exactly in the database; a percentage is a string with two decimals, 0.00 when its base is zero. " +
  'Commission is what each policy page shows (expected = net premium x commission % to the cent; received = the expected commission once fully paid for a full-policy insurer, in proportion to what is paid for a pro-rata one), and a cancelled policy counts for what it earned before its cancellation (its premium for the days of cover, or less the refund entered), as in the policy stats. ' +
  'A policy is *active* when not cancelled and today falls within its term (a term renewed early stays active to its end); an instalment is *overdue* when not fully paid and due before today, as in the payments list.';

/** The three analytics screens sold with the higher plans. */
export const analyticsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/analytics/customers/',
      {
        schema: {
          tags,
          summary: 'Customer analytics',
          description: [
            COMMON,
            '`period`: `3m`, `6m` or `12m` (that many months back from today to today) or `ytd` (1 January to today); default `12m`.',
            '- `total_customers`: every customer record of the agency.',
            "- `new_customers`: customers whose first policy (any term, even cancelled) started within the period; `new_per_month` counts them by that first start's month over the last 12 months, the current month up to today.",
            '- `active_customers`: customers holding a current policy (active today, or written to start later, so an agreed renewal keeps a customer active); `inactive_customers` are all others, including those without any policy.',
            '- `retention`: `base_customers` had a policy covering `period_start` (within its term and not cancelled by then); `retained_customers` are those of them who are active today; `retention_rate` = retained / base.',
            "- `top_by_premium` / `top_by_commission`: at most 10 customers, by lifetime premium (then name), and by expected commission (then received, then name). A customer's lifetime figures sum every policy term they held, a cancelled one with what it earned (docs/figures.md): `lifetime_premium` (earned premiums), `expected_commission`, `received_commission`; `policies` counts those terms.",
            '- `policies_per_customer`: active customers by the number of current policies they hold (1, 2, 3, 4 or more); the four add up to `active_customers`.',
            '- `by_policy_type` / `by_company`: how many active customers hold a current policy of each type / with each insurer (a customer counts once per type or insurer, and may count under several).',
            '- `overdue`: customers with at least one overdue instalment, how many such instalments, and the amount still unpaid on them (amount due less amount paid).',
            '- `lifetime_value`: over `customers_with_policies` (customers with at least one policy term), the total lifetime premium and the averages per customer of the premium and of the expected and received commission, each rounded to the cent.',
          ].join('\n'),
          security: bearerAuth,
          querystring: customerAnalyticsQuery,
          response: { 200: customerAnalytics, ...errors },
        },
      },
      (request) =>
        withModule(ctx, request, 'module_customer_analytics', (tx, { tenantId }) =>
          readCustomerAnalytics(tx, tenantId, request.query.period),
        ),
    );

    app.get(
      '/analytics/portfolio/',
      {
        schema: {
          tags,
          summary: 'The portfolio as it stands today',
          description: [
            COMMON,
            '- `in_force`: active policies today and their total premium (the policy list filtered on active counts the same).',
            "- `by_company`, `by_policy_type`, `by_payment_frequency`: the active policies and premium by insurer, type and payment frequency, largest premium first; `share_percentage` is each group's share of the premium in force.",
            '- `commission_this_year`: the policies whose term overlaps this calendar year (a cancelled one with what it earned): their `expected` and `received` commission, `outstanding` = expected - received, and `received_percentage` = received / expected.',
            '- `concentration`: the insurer with the largest premium in force and its share of it; null when nothing is in force.',
            '- `renewals_due`: active policies ending within 30, 60 and 90 days from today (each includes the shorter spans, as the expiring-policies filter does) and the premium at stake.',
            '- `overdue`: every overdue instalment of the agency and the amount still unpaid on them.',
          ].join('\n'),
          security: bearerAuth,
          response: { 200: portfolioAnalytics, ...errors },
        },
      },
      (request) =>
        withModule(ctx, request, 'module_portfolio_analytics', (tx, { tenantId }) =>
          readPortfolioAnalytics(tx, tenantId),
        ),
    );

    app.get(
      '/analytics/portfolio-history/',
      {
        schema: {
          tags,
          summary: 'The portfolio month by month',
          description: [
            COMMON,
            "`months`: 12, 24 or 36 (default 12): that many calendar months, oldest first, ending with the current one. Worked out from the policies' dates, renewal links and payments, so an imported book has its history from the first day.",
            "- `policies_in_force`, `premium_in_force`: policies covering `as_of`, the month's last day (today for the current month). A term covers from its start to its end, or to the day before its cancellation date or its renewal's start when earlier. The current month gives today's active policies, the same figure as the current portfolio.",
            '- `new_policies`: terms that started in the month (up to `as_of`) and renew no earlier term.',
            '- `renewed`: terms that ended in the month (up to `as_of`) and have been renewed, a term whose renewal started before its end ending the day before; `expired`: terms that ended then and were neither renewed nor cancelled; `retention_rate` = renewed / (renewed + expired).',
            '- `cancelled`: policies whose cancellation is dated in the month (up to `as_of`); a term ended early by its renewal is renewed, not cancelled.',
            '- `expected_commission`: the expected commission of the terms, new or renewals, that started in the month (up to `as_of`), a cancelled one, or one its renewal ended early, with what it earned.',
            "- `received_commission`: the commission that the month's payments earned: for each policy paid in the month, its received commission on what was paid by the month's end less that on what was paid before it. A payment is dated by its instalment's payment date. Over every month since a policy's first payment these add up to its received commission today.",
          ].join('\n'),
          security: bearerAuth,
          querystring: portfolioHistoryQuery,
          response: { 200: portfolioHistory, ...errors },
        },
      },
      (request) =>
        withModule(ctx, request, 'module_portfolio_history', (tx, { tenantId }) =>
          readPortfolioHistory(tx, tenantId, request.query.months as PortfolioHistoryMonths),
        ),
    );
  };
