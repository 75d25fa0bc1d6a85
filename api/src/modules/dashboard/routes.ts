import { dashboard, detailResponse } from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { bearerAuth } from '../../http/authenticate.js';
import { withModule } from '../billing/access.js';
import { readDashboard } from './queries.js';

const DESCRIPTION = [
  "The agency's day in one call, in one transaction. Every figure is the one the page behind it shows, worked out by the same rules: dates are the agency's own (its time zone) and money is a string with two decimals summed exactly in the database.",
  "A section is `null` when the agency's plan leaves out its module: `policies` (module_policies), `commission` (module_commission_reports), `months` (both), `payments` (module_payments), `leads` (module_leads), `claims` (module_claims).",
  '- `policies`: `active_policies`, `premium_in_force` and `expiring_in_30_days` as in `GET /policies/stats/`; `by_type` counts the active policies of each type and sums their premiums; `renewals_due` is the first page of `GET /policies/?expiring_within_days=30&ordering=end_date`.',
  "- `commission`: the commission report's summary (`GET /policies/commission_batch/`) for this calendar month and this calendar year: `expected` and `received` commission of the policies whose term overlaps the period (a cancelled one with what it earned); `by_company` is the year's `company_summary`.",
  "- `months`: the last 12 calendar months, oldest first. `premium_written`: total premiums of the terms, new or renewals, that started in the month (up to today) and are not cancelled. `commission_received`: the portfolio history's `received_commission` (what the month's payments earned).",
  '- `payments`: the instalments of `GET /installments/?status=overdue` (unpaid and due before today) counted, what remains unpaid on them (amount due less amount paid) summed, and the five longest overdue with the days since their due date.',
  '- `leads`: `open_count` and `open_pipeline_premium` as in `GET /leads/stats/` (open = not won or lost), and the five leads added last.',
  '- `claims`: `open_count` as in `GET /claims/stats/` (claims not closed).',
].join('\n');

export const dashboardRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/dashboard/',
      {
        schema: {
          tags: ['dashboard'],
          summary: "The agency's dashboard: key figures, the last 12 months and what needs attention",
          description: DESCRIPTION,
          security: bearerAuth,
          response: { 200: dashboard, 402: detailResponse, 403: detailResponse },
        },
      },
      (request) =>
        withModule(ctx, request, 'module_dashboard', (tx, { tenantId }, modules) =>
          readDashboard(tx, tenantId, modules),
        ),
    );
  };
