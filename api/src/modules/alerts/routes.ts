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
import { pageOf } from '../../http/pagination.js';
import { exportRoute, type FileColumn } from '../../http/table-file.js';
import { withModule } from '../billing/access.js';
import { countExpiringPolicies, exportExpiringPolicies, listExpiringPolicies } from './queries.js';

const tags = ['expiring policies'];
const MODULE = 'module_alerts';
const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse };

const WHICH_DOC = [
  `**Which policies.** Active policies not renewed yet (neither cancelled nor renewed, started by today) ending within \`within_days\` (30, 60 or 90) days from today, as the policy list's \`expiring_within_days\` filter keeps them; with \`include_lapsed\` (the default), also those that ended in the last ${LAPSED_WITHIN_DAYS} days and were neither renewed nor cancelled. A policy marked as not renewing (\`POST /policies/{id}/not-renewing/\`) is left out. "Today" is the agency's day in its time zone.`,
  '`company_id` keeps one insurer and `assigned_to` the policies assigned to one member (the list\'s "Mine"); `search` matches the policy number and the customer name. `ordering` is `end_date` (the default: lapsed first, then the soonest to end) or `total_premium`, `-` before it for descending; ties go by policy id.',
].join('\n\n');

/** The file's columns: the list's, with the customer's email and phone for a mail merge. */
const COLUMNS: FileColumn<ExpiringPolicy>[] = [
  { field: 'policy_number', heading: 'Policy number' },
  { field: 'customer_name', heading: 'Customer' },
  { field: 'customer_email', heading: 'Email' },
  { field: 'customer_phone', heading: 'Phone' },
  { field: 'company_name', heading: 'Insurer' },
  { field: 'policy_type_name', heading: 'Policy type' },
  { field: 'total_premium', heading: 'Premium', kind: 'money' },
  { field: 'end_date', heading: 'End date', kind: 'date' },
  { field: 'days_left', heading: 'Days left', kind: 'number' },
  { field: 'status', heading: 'Status' },
];

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
          description: `Each figure is the \`count\` the list answers for that window without lapsed policies (\`lapsed\`: the lapsed ones alone), under the same \`company_id\`, \`assigned_to\` and \`search\`. The windows nest: 60 days includes the 30.\n\n${WHICH_DOC}`,
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

    // `csv/` is the address the export had before it offered XLSX; it answers CSV unless asked.
    for (const path of ['/alerts/expiring/export/', '/alerts/expiring/csv/']) {
      await app.register(
        exportRoute(ctx, {
          path,
          module: MODULE,
          tags,
          summary: 'The expiring policies as a CSV or XLSX file',
          description: `Every row the list's filters match, in its order.\n\n${WHICH_DOC}`,
          querystring: expiringExportQuery,
          list: 'expiring-policies',
          sheet: 'Expiring policies',
          columns: COLUMNS,
          rows: exportExpiringPolicies,
        }),
      );
    }
  };
