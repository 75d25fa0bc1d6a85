import {
  detailResponse,
  type ExpiringPolicy,
  expiringCounts,
  expiringCountsQuery,
  expiringExportQuery,
  expiringListQuery,
  expiringPage,
  fieldErrorsResponse,
  LAPSED_WITHIN_DAYS,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { bearerAuth } from '../../http/authenticate.js';
import { csvLayout } from '../../http/csv.js';
import { pageOf } from '../../http/pagination.js';
import { streamFile } from '../../http/stream-file.js';
import { withModule } from '../billing/access.js';
import { countExpiringPolicies, exportExpiringPolicies, listExpiringPolicies } from './queries.js';

const tags = ['expiring policies'];
const MODULE = 'module_alerts';
const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse };

const WHICH_DOC = [
  `**Which policies.** Active policies (neither cancelled nor renewed, started by today) ending within \`within_days\` (30, 60 or 90) days from today, as the policy list's \`expiring_within_days\` filter keeps them; with \`include_lapsed\` (the default), also those that ended in the last ${LAPSED_WITHIN_DAYS} days and were neither renewed nor cancelled. A policy marked as not renewing (\`POST /policies/{id}/not-renewing/\`) is left out. "Today" is the agency's day in its time zone.`,
  '`company_id` keeps one insurer; `search` matches the policy number and the customer name. `ordering` is `end_date` (the default: lapsed first, then the soonest to end) or `total_premium`, `-` before it for descending; ties go by policy id.',
].join('\n\n');

/** The file's columns: the list's, with the customer's email and phone for a mail merge. */
const csv = csvLayout<ExpiringPolicy>([
  ['policy_number', 'Policy number'],
  ['customer_name', 'Customer'],
  ['customer_email', 'Email'],
  ['customer_phone', 'Phone'],
  ['company_name', 'Insurer'],
  ['policy_type_name', 'Policy type'],
  ['total_premium', 'Premium'],
  ['end_date', 'End date'],
  ['days_left', 'Days left'],
  ['status', 'Status'],
]);

/** The policies to renew before they lapse, and those that lapsed lately without a renewal. */
export const alertRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/alerts/expiring/',
      {
        schema: {
          tags,
          summary: 'Policies ending soon, and those lapsed lately, with how to reach the customer',
          description: `${WHICH_DOC}\n\n\`days_left\` is negative for a lapsed policy. The counts per window are \`GET /alerts/expiring/counts/\`.`,
          security: bearerAuth,
          querystring: expiringListQuery,
          response: { 200: expiringPage, ...errors },
        },
      },
      async (request) => {
        const { count, results } = await withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          listExpiringPolicies(tx, tenantId, request.query),
        );
        return pageOf(request, request.query, count, results);
      },
    );

    app.get(
      '/alerts/expiring/counts/',
      {
        schema: {
          tags,
          summary: 'How many policies end within 30, 60 and 90 days, and how many lapsed lately',
          description: `Each figure is the \`count\` the list answers for that window without lapsed policies (\`lapsed\`: the lapsed ones alone), under the same \`company_id\` and \`search\`. The windows nest: 60 days includes the 30.\n\n${WHICH_DOC}`,
          security: bearerAuth,
          querystring: expiringCountsQuery,
          response: { 200: expiringCounts, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          countExpiringPolicies(tx, tenantId, request.query),
        ),
    );

    app.get(
      '/alerts/expiring/csv/',
      {
        schema: {
          tags,
          summary: 'The expiring policies as a CSV file',
          description: `Every row the list's filters match, in its order, as \`text/csv\`: UTF-8 with a byte order mark, a heading row, comma-separated, CRLF line ends; text starting with = + - or @ is prefixed with an apostrophe so spreadsheets never run it.\n\n${WHICH_DOC}`,
          security: bearerAuth,
          querystring: expiringExportQuery,
          response: errors,
        },
      },
      async (request, reply) =>
        streamFile(
          ctx,
          request,
          reply,
          MODULE,
          {
            type: 'text/csv; charset=utf-8',
            name: `expiring-policies_${request.query.within_days}-days.csv`,
          },
          async function* (tx, tenantId) {
            yield csv.header();
            for await (const batch of exportExpiringPolicies(tx, tenantId, request.query))
              yield csv.rows(batch);
          },
        ),
    );
  };
