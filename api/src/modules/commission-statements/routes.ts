import { createHash } from 'node:crypto';
import {
  acceptStatementBody,
  commissionStatementDetail,
  commissionStatementList,
  confirmedMatches,
  confirmMatchesBody,
  detailResponse,
  duplicateLinesResponse,
  fieldErrorsResponse,
  MAX_STATEMENT_BYTES,
  MAX_STATEMENT_LINES,
  STATEMENT_FIELDS,
  type StatementStatus,
  statementDetailQuery,
  statementLine,
  statementLineUpdate,
  statementListQuery,
  statementUploadFields,
  uuid,
} from '@coverdesk/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { fieldError, HttpError, parseWith } from '../../http/errors.js';
import { acceptFileForms, formError, requireMultipart } from '../../http/multipart.js';
import { pageOf } from '../../http/pagination.js';
import { type AuditEntry, auditOrigin, recordAudit } from '../audit/record.js';
import { agencyUserEmail } from '../audit/trail.js';
import { withModule } from '../billing/access.js';
import {
  acceptStatement,
  confirmMatches,
  insertStatement,
  listStatements,
  readLine,
  readStatement,
  refuseUnread,
  reopenStatement,
  requireCompany,
  requireInsurerPolicy,
  requireLine,
  requireStatement,
  savedMapping,
} from './queries.js';
import { readStatementFile } from './read-lines.js';
import { statementReadings } from './reading-tables.js';
import type { StatementRunner } from './runner.js';
import { commissionStatements, statementLines } from './tables.js';

export const tags = ['commission-statements'];
export const MODULE = 'module_commission_reports';
const MB = 1024 * 1024;
const TOO_LARGE = `A statement file can be at most ${MAX_STATEMENT_BYTES / MB} MB.`;
export const idParams = z.object({ id: uuid });
export const lineParams = z.object({ id: uuid, line_number: z.coerce.number().int().min(1).max(10_000_000) });
export const errors = {
  400: fieldErrorsResponse,
  402: detailResponse,
  403: detailResponse,
  404: detailResponse,
  409: detailResponse,
};
/** A file whose columns could not be told: its headers and the guess, for the broker to choose. */
const unmappedFile = z.object({
  detail: z.string(),
  headers: z.array(z.string()).optional(),
  columns: z.array(z.string().nullable()).optional(),
});

/** The form's text fields and its file, read with the file's size bounded (413 past it). */
async function readStatementForm(request: FastifyRequest) {
  requireMultipart(request);
  const fields: Record<string, unknown> = {};
  let file: { name: string; bytes: Buffer } | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'file') throw fieldError(part.fieldname, 'Send one file, named file.');
      file = { name: part.filename || 'statement.csv', bytes: await part.toBuffer() };
    }
  } catch (error) {
    throw formError(request, error, TOO_LARGE);
  }
  if (!file || file.bytes.length === 0) throw fieldError('file', 'Choose the statement’s CSV or XLSX file.');
  if (typeof fields.columns === 'string') {
    try {
      fields.columns = JSON.parse(fields.columns);
    } catch {
      throw fieldError('columns', 'Send the columns as a JSON object of header to field.');
    }
  }
  return { fields: parseWith(statementUploadFields, fields), file };
}

/** A statement's lines and total change only while it is in review, once read. */
export function refuseAccepted(statement: { status: StatementStatus }, what = 'its lines') {
  if (statement.status === 'accepted') {
    throw new HttpError(409, { detail: `This statement is accepted: reopen it to change ${what}.` });
  }
  refuseUnread(statement);
}

export async function audit(
  tx: Transaction,
  request: FastifyRequest,
  action: string,
  id: string,
  more: Pick<AuditEntry, 'changes' | 'reason'> = {},
) {
  const { tenantId, userId } = signedInUser(request);
  await recordAudit(tx, auditOrigin(request), {
    tenantId,
    userId,
    actorEmail: await agencyUserEmail(tx, userId),
    action,
    entity: 'commission_statement',
    entityId: id,
    ...more,
  });
}

/**
 * Insurers' commission statements: uploaded, each line matched to a policy and compared with what
 * the insurer owed on it, reviewed, accepted (a receipt per matched line) or reopened.
 */
export const commissionStatementRoutes =
  (ctx: AppContext, runner: StatementRunner): FastifyPluginAsyncZod =>
  async (app) => {
    await acceptFileForms(app, { fileSize: MAX_STATEMENT_BYTES, fields: 10, tooLarge: TOO_LARGE });

    app.post(
      '/commission-statements/',
      {
        config: { action: 'insurers' },
        schema: {
          tags,
          summary: "Upload an insurer's commission statement",
          description: `multipart/form-data: \`file\` (CSV in any delimiter, UTF-8 or Windows-1252, or XLSX; at most ${MAX_STATEMENT_BYTES / MB} MB and ${MAX_STATEMENT_LINES.toLocaleString('en-US')} lines, 413 past the size), \`company_id\`, \`statement_date\`, \`total_amount\` (what the insurer says it pays in all; one that reads two ways, such as \`1.000\` or \`1,250\`, answers 400 with both readings), and optionally \`columns\`: a JSON object choosing the field of a header (${STATEMENT_FIELDS.map((field) => `\`${field.key}\``).join(', ')}, or null). Headers that name their field, or a synonym, map without asking, and the insurer's last choices are remembered; a file whose commission or policy columns cannot be told answers 400 with its \`headers\` and the guessed \`columns\`. A line that cannot be read, or whose premium or commission is not an amount or has more than 12 digits before the point, answers 400 naming its row and column, and nothing is saved. Dates written \`05/01/2026\` are read in \`date_order\` (\`day_first\` or \`month_first\`) when given, else in the order the file's own dates settle (a first number over 12 is a day, a second one a month); a file whose dates all fit both orders answers 400 with a \`date_order\` message naming the column, to send again with one. The same file again for the same insurer: 409. A file that reads answers 202 with the statement \`processing\`: a job saves its lines and matches each to a policy of this insurer, a batch at a time (\`reading\`: \`lines_done\` of \`line_total\`; poll the statement until it is \`review\`, or \`failed\` with \`reading.detail\` saying why), by number without case or punctuation, else by the insured's name and the premium within 1% (\`fuzzy\`, to confirm). Until then its lines cannot be changed or confirmed, nor the statement accepted (409).`,
          security: bearerAuth,
          consumes: ['multipart/form-data'],
          response: {
            202: commissionStatementDetail,
            ...errors,
            400: unmappedFile.or(fieldErrorsResponse),
            413: detailResponse,
          },
        },
      },
      async (request, reply) => {
        const { fields, file } = await readStatementForm(request);
        const saved = await withModule(ctx, request, MODULE, async (tx) => {
          await requireCompany(tx, fields.company_id);
          return savedMapping(tx, fields.company_id);
        });
        // Read here, in a worker thread and outside any transaction, so that a file the statement
        // cannot come from answers 400 at once; a job saves and matches the lines read.
        const read = await readStatementFile(file.bytes, fields.columns, saved, fields.date_order);
        const detail = await withModule(ctx, request, MODULE, async (tx, { tenantId, userId }) => {
          const id = await insertStatement(
            tx,
            tenantId,
            {
              companyId: fields.company_id,
              statementDate: fields.statement_date,
              totalAmount: fields.total_amount,
              fileName: file.name.slice(0, 255),
              fileSha256: createHash('sha256').update(file.bytes).digest('hex'),
              uploadedBy: userId,
            },
            read.mapping,
          );
          await tx.insert(statementReadings).values({
            tenantId,
            statementId: id,
            lines: read.lines,
            lineTotal: read.lines.length,
          });
          await runner.enqueue(tx, { tenantId, statementId: id });
          await audit(tx, request, 'statement_uploaded', id);
          return readStatement(tx, id);
        });
        runner.wake();
        return reply.code(202).send(detail);
      },
    );

    app.get(
      '/commission-statements/',
      {
        schema: {
          tags,
          summary: 'Commission statements, newest first',
          security: bearerAuth,
          querystring: statementListQuery,
          response: { 200: commissionStatementList, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, async (tx) => {
          const { count, results } = await listStatements(tx, request.query);
          return pageOf(request, request.query, count, results);
        }),
    );

    app.get(
      '/commission-statements/:id/',
      {
        schema: {
          tags,
          summary: 'A statement with every line’s outcome and the policies it left out',
          description:
            "Each line's `expected_commission` is what the insurer still owed on its policy when the line was reached: under full-policy payout the term's commission once it started, under pro rata that of the instalments due by the statement's date, whatever the customer has paid; less what the insurer's other accepted statements up to that date paid, and the statement's earlier lines on the same policy. `difference` = paid − expected. Outcomes: `matched` (to the cent), `short_paid`, `over_paid`, `chargeback` (a negative line on a cancelled policy), `unmatched`. `missing`: the insurer's policies owed commission by the statement's date and not yet paid by its accepted statements, whatever month it fell due (`due_since`), that no line names, with what the insurer owes on them; the oldest first, at most 500 (`counts.missing` counts all). `unresolved` counts the unmatched lines neither marked not ours nor written off; `duplicates` lists the lines that repeat a line of an accepted statement (same policy, amount and transaction date). `?outcome=` keeps the lines of one outcome, `unconfirmed` fuzzy matches, or `unresolved` lines.",
          security: bearerAuth,
          params: idParams,
          querystring: statementDetailQuery,
          response: { 200: commissionStatementDetail, ...errors },
        },
      },
      async (request) => {
        return withModule(ctx, request, MODULE, (tx) => readStatement(tx, request.params.id, request.query));
      },
    );

    app.patch(
      '/commission-statements/:id/lines/:line_number/',
      {
        config: { action: 'insurers' },
        schema: {
          tags,
          summary: 'Confirm, change or clear a line’s policy, or note the line',
          description:
            '`policy_id` matches the line to a policy of the statement’s insurer (confirmed, `manual`, taking back a not-ours or written-off mark), or null leaves it unmatched; `confirmed: true` confirms a fuzzy match; `note` replaces the line’s note. An accepted statement answers 409: reopen it first.',
          security: bearerAuth,
          params: lineParams,
          body: statementLineUpdate,
          response: { 200: statementLine, ...errors },
        },
      },
      async (request) => {
        const { id, line_number } = request.params;
        const body = request.body;
        return withModule(ctx, request, MODULE, async (tx) => {
          const statement = await requireStatement(tx, id, { lock: true });
          refuseAccepted(statement);
          const line = await requireLine(tx, id, line_number);
          if (body.confirmed && body.policy_id === undefined && !line.policyId) {
            throw fieldError('confirmed', 'This line has no policy to confirm: choose one.');
          }
          const match =
            body.policy_id === undefined
              ? {}
              : body.policy_id === null
                ? { policyId: null, matchMethod: null, confidence: null, confirmed: false }
                : {
                    policyId: (await requireInsurerPolicy(tx, statement.company_id, body.policy_id)).id,
                    matchMethod: 'manual' as const,
                    confidence: '1.00',
                    confirmed: true,
                    // Matched, the line is no longer not ours or written off.
                    resolution: null,
                    resolutionReason: '',
                  };
          await tx
            .update(statementLines)
            .set({
              ...(body.confirmed ? { confirmed: true } : {}),
              ...match,
              ...(body.note !== undefined ? { note: body.note } : {}),
            })
            .where(and(eq(statementLines.statementId, id), eq(statementLines.lineNumber, line_number)));
          return readLine(tx, statement, line_number);
        });
      },
    );

    app.post(
      '/commission-statements/:id/accept/',
      {
        config: { action: 'insurers' },
        schema: {
          tags,
          summary: 'Accept a statement: record what the insurer paid on each matched line',
          description:
            "A receipt per matched line, in one transaction; each policy's `insurer_paid_commission` is the sum of its receipts. The typed total must equal the sum of all the lines, whatever their resolution: a line marked not ours or written off stays in that sum but records no receipt, being paid on none of the agency's policies. 409 while the typed total differs from the sum of the lines (the message names both), while a fuzzy match is unconfirmed, while unmatched lines are unresolved (the message counts them), or when already accepted. A statement whose lines repeat a line of an accepted statement (same policy, amount and transaction date, whatever the file) answers 409 with `code: duplicate_lines` and the `duplicates`, unless the body says `acknowledge_duplicates: true`.",
          security: bearerAuth,
          params: idParams,
          body: acceptStatementBody,
          response: {
            200: commissionStatementDetail,
            ...errors,
            409: duplicateLinesResponse.or(detailResponse),
          },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, async (tx, { tenantId, userId }) => {
          await acceptStatement(tx, tenantId, request.params.id, userId, {
            acknowledgeDuplicates: request.body?.acknowledge_duplicates === true,
          });
          await audit(tx, request, 'statement_accepted', request.params.id);
          return readStatement(tx, request.params.id);
        }),
    );

    app.post(
      '/commission-statements/:id/confirm-matches/',
      {
        config: { action: 'insurers' },
        schema: {
          tags,
          summary: 'Confirm the fuzzy matches at once',
          description:
            'Confirms every fuzzy match of the statement whose confidence is at least `min_confidence` (every one without it), as confirming each line would, and answers how many were confirmed. An accepted statement answers 409: reopen it first.',
          security: bearerAuth,
          params: idParams,
          body: confirmMatchesBody,
          response: { 200: confirmedMatches, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, async (tx) => {
          const statement = await requireStatement(tx, request.params.id, { lock: true });
          refuseAccepted(statement);
          const confirmed = await confirmMatches(tx, statement.id, request.body.min_confidence ?? '0');
          await audit(tx, request, 'statement_matches_confirmed', statement.id);
          return { confirmed };
        }),
    );

    app.post(
      '/commission-statements/:id/reopen/',
      {
        config: { action: 'insurers' },
        schema: {
          tags,
          summary: 'Reopen an accepted statement, removing its receipts',
          security: bearerAuth,
          params: idParams,
          response: { 200: commissionStatementDetail, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, async (tx) => {
          await reopenStatement(tx, request.params.id);
          await audit(tx, request, 'statement_reopened', request.params.id);
          return readStatement(tx, request.params.id);
        }),
    );

    app.delete(
      '/commission-statements/:id/',
      {
        config: { action: 'insurers' },
        schema: {
          tags,
          summary: 'Delete a statement in review (an accepted one must be reopened first)',
          security: bearerAuth,
          params: idParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await withModule(ctx, request, MODULE, async (tx) => {
          const statement = await requireStatement(tx, request.params.id, { lock: true });
          if (statement.status === 'accepted') {
            throw new HttpError(409, { detail: 'This statement is accepted: reopen it before deleting it.' });
          }
          await tx.delete(commissionStatements).where(eq(commissionStatements.id, request.params.id));
          await audit(tx, request, 'statement_deleted', request.params.id);
        });
        return reply.code(204).send(null);
      },
    );
  };
