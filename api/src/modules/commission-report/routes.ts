import { once } from 'node:events';
import {
  commissionExportQuery,
  commissionReport,
  commissionReportQuery,
  detailResponse,
  fieldErrorsResponse,
} from '@coverdesk/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { streamFile } from '../../http/stream-file.js';
import { withModule } from '../billing/access.js';
import { csvHeader, csvRows } from './csv.js';
import { describeFilters, describePeriod, findAgency } from './heading.js';
import { CommissionPdf } from './pdf.js';
import { commissionTotals, exportRows, commissionReport as readReport } from './queries.js';

// A module of its own rather than more routes in the policies module: the report is sold as its
// own module (module_commission_reports, a plan may include policies without it), and it only reads
// what the policies module defines. Its paths stay under /policies/, where the API has always had them.

const tags = ['commission report'];
const MODULE = 'module_commission_reports';
const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse };

type ExportQuery = z.output<typeof commissionExportQuery>;
type Agency = Awaited<ReturnType<typeof findAgency>>;

const FILTERS_DOC = [
  '**Filters.** `start_date` and `end_date` (inclusive, either may be left out) keep the policies whose term overlaps the period: a policy from 1 March to 28 February overlaps any period that includes one of its days. An `end_date` before `start_date` answers 400. `company_id` and `policy_type_id` keep one insurer or type. `search` matches the policy number and the customer name. A blank filter (`?start_date=`) filters nothing.',
  "**Which policies.** The agency's policies, renewed, expired and cancelled terms included: a cancelled policy carries the commission it earned before its cancellation (its premium for the days of cover, or less the refund entered), as in the policy totals.",
  "**`payment_status`** is read from the policy's instalments: `Paid` when every instalment is paid, those cancelled with their policy aside; otherwise `Overdue` when an unpaid instalment's due date is before today in the agency's time zone (the payments list's overdue rule); otherwise `Partial` when anything has been paid; otherwise `Pending`.",
  '**Ordering.** `ordering` is one of the row fields listed in the schema, `-` before it for descending; ties are broken by the policy id, so pages never repeat or skip a row.',
].join('\n\n');

const FIGURES_DOC = [
  "**Each row** carries the policy page's own figures: `expected_commission` = net premium x commission % / 100 to the cent (half-up); `received_commission` = for a full-policy insurer, the expected commission once the whole premium is paid, else 0.00; for a pro-rata insurer, expected x amount paid / total premium to the cent; `outstanding_commission` = expected - received; `received_commission_percentage` = received / expected x 100.",
  '**`summary`** sums every matching policy, not only the page: `total_policies`; `total_premium` (sum of total premiums); `total_expected_commission` and its alias `total_commission`; `total_received_commission` and its alias `total_earned`; `outstanding_commission` = expected - received; `total_paid` = what customers have paid on these policies; `total_pending` = total premium - total paid (premium still to come); `commission_received_percentage` = received / expected x 100; `average_commission_percentage` = expected / sum of net premiums x 100 (the rate the book earns on average, weighted by premium). Percentages have two decimals, rounded half-up, and are 0.00 when their base is 0. Money is a string with two decimals.',
  '**`company_summary`** has the same figures per insurer with matching policies, by insurer name.',
].join('\n\n');

/** `commission-report_2026-01-01_2026-03-31.csv`: what the file covers, in a name any system accepts. */
function fileName(query: ExportQuery, extension: string) {
  const period = `${query.start_date ?? 'start'}_${query.end_date ?? 'today'}`;
  const covers = query.start_date || query.end_date ? period : 'all-dates';
  return `commission-report_${covers}.${extension}`;
}

/** JSON the database wrote as the API sends it; the route's schema documents it. */
const sendWritten = (reply: FastifyReply, body: string) =>
  reply
    .serializer((written: string) => written)
    .type('application/json; charset=utf-8')
    .send(body);

/** The rows as CSV: the heading, then a chunk per batch read. */
async function* csvFile(tx: Transaction, tenantId: string, query: ExportQuery) {
  yield csvHeader();
  for await (const batch of exportRows(tx, tenantId, query)) yield csvRows(batch);
}

/** The report as a PDF: what pdfkit has written after the totals and after each batch of rows. */
async function* pdfFile(tx: Transaction, tenantId: string, query: ExportQuery, agency: Agency) {
  const totals = await commissionTotals(tx, tenantId, query);
  const pdf = new CommissionPdf({
    agencyName: agency.name,
    currency: agency.currency,
    period: describePeriod(query),
    filters: await describeFilters(tx, tenantId, query),
    generatedAt: agency.now,
  });
  let written: Buffer[] = [];
  pdf.document.on('data', (chunk: Buffer) => written.push(chunk));
  const finished = once(pdf.document, 'end');
  const take = () => {
    const chunk = Buffer.concat(written);
    written = [];
    return chunk;
  };
  pdf.writeTotals(totals.summary, totals.company_summary);
  for await (const batch of exportRows(tx, tenantId, query)) {
    pdf.writeRows(batch);
    yield take();
  }
  pdf.end();
  await finished;
  yield take();
}

export const commissionReportRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/policies/commission_batch/',
      {
        schema: {
          tags,
          summary: 'Commission report: a page of policies with their commission, and the totals',
          description: `${FILTERS_DOC}\n\n${FIGURES_DOC}\n\n\`include=summary\` answers the totals and paging alone, with \`commission_data\` empty.`,
          security: bearerAuth,
          querystring: commissionReportQuery,
          response: { 200: commissionReport, ...errors },
        },
      },
      async (request, reply) => {
        const body = await withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          readReport(tx, tenantId, request.query),
        );
        return sendWritten(reply, body);
      },
    );

    app.get(
      '/policies/commission_csv/',
      {
        schema: {
          tags,
          summary: 'Commission report rows as a CSV file',
          description: `Every row the report's filters match, in its order, as \`text/csv\`: UTF-8 with a byte order mark, a heading row, comma-separated, CRLF line ends; text starting with = + - or @ is prefixed with an apostrophe so spreadsheets never run it. Streamed as it is read, so any size of book downloads in constant memory.\n\n${FILTERS_DOC}`,
          security: bearerAuth,
          querystring: commissionExportQuery,
          response: errors,
        },
      },
      async (request, reply) =>
        streamFile(
          ctx,
          request,
          reply,
          MODULE,
          { type: 'text/csv; charset=utf-8', name: fileName(request.query, 'csv') },
          (tx, tenantId) => csvFile(tx, tenantId, request.query),
        ),
    );

    app.get(
      '/policies/commission_pdf/',
      {
        schema: {
          tags,
          summary: 'Commission report as a PDF',
          description: `An A4 landscape \`application/pdf\`: the agency, the period and filters, the summary, the per-insurer table, then every row, with the table headings repeated on each page. Streamed page by page as the rows are read.\n\n${FILTERS_DOC}\n\n${FIGURES_DOC}`,
          security: bearerAuth,
          querystring: commissionExportQuery,
          response: errors,
        },
      },
      async (request, reply) => {
        const agency = await findAgency(ctx.db, signedInUser(request).tenantId);
        return streamFile(
          ctx,
          request,
          reply,
          MODULE,
          { type: 'application/pdf', name: fileName(request.query, 'pdf') },
          (tx, tenantId) => pdfFile(tx, tenantId, request.query, agency),
        );
      },
    );
  };
