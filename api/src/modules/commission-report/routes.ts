import { once } from 'node:events';
import {
  commissionExportQuery,
  commissionReport,
  commissionReportQuery,
  detailResponse,
  fieldErrorsResponse,
  insurersOwed,
  insurersOwedQuery,
  producerParams,
  producerReport,
  producerReportQuery,
  producerStatementQuery,
} from '@coverdesk/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { notFound } from '../../http/errors.js';
import { streamFile } from '../../http/stream-file.js';
import { withModule } from '../billing/access.js';
import { csvHeader, csvRows } from './csv.js';
import { describeFilters, describePeriod, findAgency } from './heading.js';
import { insurersOwed as readInsurersOwed } from './insurers-owed.js';
import { CommissionPdf } from './pdf.js';
import {
  agencyProducers,
  type Producer,
  producerShares,
  producerTotals,
  statementRows,
} from './producers.js';
import { commissionTotals, exportRows, commissionReport as readReport } from './queries.js';
import {
  ProducerStatementPdf,
  statementCsvHeader,
  statementCsvRows,
  statementCsvTotals,
} from './statement-file.js';

// A module of its own rather than more routes in the policies module: the report is sold as its
// own module (module_commission_reports, a plan may include policies without it), and it only reads
// what the policies module defines. Its paths stay under /policies/, where the API has always had them.

const tags = ['commission report'];
const MODULE = 'module_commission_reports';
const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse };

type ExportQuery = z.output<typeof commissionExportQuery>;
type StatementQuery = z.output<typeof producerStatementQuery>;
type Agency = Awaited<ReturnType<typeof findAgency>>;

const FILTERS_DOC = [
  '**Filters.** `start_date` and `end_date` (inclusive, either may be left out) keep the policies whose term overlaps the period: a policy from 1 March to 28 February overlaps any period that includes one of its days. An `end_date` before `start_date` answers 400. `company_id` and `policy_type_id` keep one insurer or type. `search` matches the policy number and the customer name. A blank filter (`?start_date=`) filters nothing.',
  "**Which policies.** The agency's policies, renewed, expired and cancelled terms included: a cancelled policy carries the commission it earned before its cancellation (its premium for the days of cover, or less the refund entered), as in the policy totals.",
  "**`payment_status`** is read from the policy's instalments: `Paid` when every instalment is paid, those cancelled with their policy aside; otherwise `Overdue` when an unpaid instalment's due date is before today in the agency's time zone (the payments list's overdue rule); otherwise `Partial` when anything has been paid; otherwise `Pending`.",
  '**Ordering.** `ordering` is one of the row fields listed in the schema, `-` before it for descending; ties are broken by the policy id, so pages never repeat or skip a row.',
].join('\n\n');

const FIGURES_DOC = [
  "**Each row** carries the policy page's own figures: `expected_commission` = net premium x commission % / 100 to the cent (half-up); `received_commission` = for a full-policy insurer, the expected commission once the whole premium is paid, else 0.00; for a pro-rata insurer, expected x amount paid / total premium to the cent; `outstanding_commission` = expected - received; `received_commission_percentage` = received / expected x 100; `insurer_paid_commission` = what the agency's accepted commission statements recorded the insurer paying; `owed_by_insurer` = what the insurer owes by today, whatever the customer has paid (full policy: the expected commission once the term has started; pro rata: the commission of the instalments due by today), less `insurer_paid_commission`.",
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

const PRODUCERS_DOC = [
  "**Which policies.** The commission report's own: the agency's policies whose term overlaps the period (`date_from` and `date_to`, inclusive, either may be left out or blank; `date_to` before `date_from` answers 400), of one insurer with `company_id`; renewed, expired and cancelled terms included, a cancelled one with the commission it earned. `expected_commission` and `received_commission` are the report's figures for those policies, summed per producer, so the rows (Unassigned included) add up to the report's totals for the same period and insurer.",
  '**Producer** is the member credited with the term (`producer_id`): its assignee when the term was written (created or renewed), for good. Handing the policy to another member, in bulk or when its assignee is deactivated, moves only its servicing (`assigned_to`), so the report of a past period is the same before and after. Terms credited to nobody are one row with `user_id` null, named "Unassigned", whose shares are 0.00.',
  "**Shares.** For each term the split is its own `producer_split_percentage` when set, else the producer's default share in force the day the term was written, recorded on it (`producer_share`; a member's share is dated, see `PATCH /team/members/:id/`). The producer's share of a policy = its commission x split / 100, rounded half-up to the cent for that policy; a producer's share is the sum of those rounded shares (so a statement's lines add up to its total). `producer_share_expected` is taken on the expected commission, `producer_share_received` on the received commission. Money is a string with two decimals.",
].join('\n\n');

/** `producer-statement_dana-levi_2026-01-01_2026-03-31.csv`: whose, what period, in a name any system accepts. */
function statementFileName(name: string, query: StatementQuery) {
  const period = `${query.date_from ?? 'start'}_${query.date_to ?? 'today'}`;
  const covers = query.date_from || query.date_to ? period : 'all-dates';
  const slug =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'producer';
  return `producer-statement_${slug}_${covers}.${query.format}`;
}

/** The member of the agency a statement is for; another agency's member, or no one, is 404. */
async function statementProducer(tx: Transaction, tenantId: string, userId: string): Promise<Producer> {
  const producer = (await agencyProducers(tx, tenantId)).find((member) => member.id === userId);
  if (!producer) throw notFound();
  return producer;
}

/** The statement as CSV: the heading, a chunk per batch of policies, then the totals line. */
async function* statementCsv(tx: Transaction, tenantId: string, producer: Producer, query: StatementQuery) {
  const totals = await producerTotals(tx, tenantId, producer, query);
  yield statementCsvHeader();
  for await (const batch of statementRows(tx, tenantId, producer, query)) yield statementCsvRows(batch);
  yield statementCsvTotals(totals);
}

/** The statement as a PDF, on the report's page layout: what pdfkit wrote after each batch. */
async function* statementPdf(
  tx: Transaction,
  tenantId: string,
  producer: Producer,
  query: StatementQuery,
  agency: Agency,
) {
  const totals = await producerTotals(tx, tenantId, producer, query);
  const pdf = new ProducerStatementPdf({
    agencyName: agency.name,
    currency: agency.currency,
    period: describePeriod({ start_date: query.date_from, end_date: query.date_to }),
    filters: await describeFilters(tx, tenantId, { company_id: query.company_id, ordering: '-start_date' }),
    generatedAt: agency.now,
    title: 'Producer statement',
  });
  let written: Buffer[] = [];
  pdf.document.on('data', (chunk: Buffer) => written.push(chunk));
  const finished = once(pdf.document, 'end');
  const take = () => {
    const chunk = Buffer.concat(written);
    written = [];
    return chunk;
  };
  pdf.writeProducer(producer.name, totals);
  for await (const batch of statementRows(tx, tenantId, producer, query)) {
    pdf.writeStatementRows(batch);
    yield take();
  }
  pdf.endWithTotals(totals);
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
    app.get(
      '/commission-report/insurers-owed/',
      {
        schema: {
          tags,
          summary: 'What insurers owe the agency today, by how long it has been owed',
          description:
            "A row per insurer with anything paid or owed, by name, and `totals`. Each policy's `owed_by_insurer` (the report row's figure, as of the agency's today) is split by age: a full-policy insurer owes the term's commission from its start date, a pro-rata insurer each instalment's commission from its due date; what its statements paid settles the oldest first. `days_0_30`, `days_31_60`, `days_61_90` and `days_over_90` are what is owed that many days after; `overpaid` (zero or negative) is what an insurer paid on policies beyond what it owed on them; `owed_by_insurer` is their sum. `company_id` keeps one insurer.",
          security: bearerAuth,
          querystring: insurersOwedQuery,
          response: { 200: insurersOwed, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          readInsurersOwed(tx, tenantId, request.query.company_id),
        ),
    );

    app.get(
      '/commission-report/producers/',
      {
        schema: {
          tags,
          summary: "Producer shares: each member's commission over a period and their share of it",
          description: `${PRODUCERS_DOC}\n\n\`results\` lists the producers with matching policies by name, Unassigned last; \`totals\` sums every row.`,
          security: bearerAuth,
          querystring: producerReportQuery,
          response: { 200: producerReport, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, (tx, { tenantId }) => producerShares(tx, tenantId, request.query)),
    );

    app.get(
      '/commission-report/producers/:user_id/statement/',
      {
        schema: {
          tags,
          summary: "A producer statement: one member's policies of a period with their share, as PDF or CSV",
          description: `\`format=pdf\` (the default) answers an A4 landscape \`application/pdf\` on the commission report's layout; \`format=csv\` answers \`text/csv\` (UTF-8 with a byte order mark, a heading row, CRLF line ends, text that looks like a formula prefixed with an apostrophe). Both list the member's policies of the period by start date (policy number, customer, insurer, term, expected and received commission, split %, share of each), then a totals line: the member's row of \`GET /commission-report/producers/\`. A user id that is not a member of the agency answers 404.\n\n${PRODUCERS_DOC}`,
          security: bearerAuth,
          params: producerParams,
          querystring: producerStatementQuery,
          response: { ...errors, 404: detailResponse },
        },
      },
      async (request, reply) => {
        const { query } = request;
        const agency =
          query.format === 'pdf' ? await findAgency(ctx.db, signedInUser(request).tenantId) : null;
        let producer: Producer | undefined;
        return streamFile(
          ctx,
          request,
          reply,
          MODULE,
          {
            type: query.format === 'pdf' ? 'application/pdf' : 'text/csv; charset=utf-8',
            name: async (tx) => {
              producer = await statementProducer(tx, signedInUser(request).tenantId, request.params.user_id);
              return statementFileName(producer.name, query);
            },
          },
          (tx, tenantId) => {
            if (!producer) throw new Error('the file is named, and its producer found, first');
            return agency
              ? statementPdf(tx, tenantId, producer, query, agency)
              : statementCsv(tx, tenantId, producer, query);
          },
        );
      },
    );
  };
