import {
  detailResponse,
  fieldErrorsResponse,
  IMPORT_ECHO_CHARS,
  IMPORT_KIND_MODULES,
  type ImportKind,
  importIdParams,
  importPreview,
  importRecord,
  importSettingsBody,
  importUploadQuery,
  MAX_DEMO_IMPORT_BYTES,
  MAX_DEMO_IMPORT_ROWS,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_CELL_CHARS,
  MAX_IMPORT_COLUMNS,
  MAX_IMPORT_EXPANDED_BYTES,
  MAX_IMPORT_ROWS,
  MODULE_LABELS,
  type ModuleName,
} from '@coverdesk/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { conflict, HttpError } from '../../http/errors.js';
import { withModule } from '../billing/access.js';
import { isDemoAgency } from '../tenants/queries.js';
import { surveyImportFile } from './parse.js';
import { readingDateOrder, startPlan } from './plan.js';
import {
  assertImportFits,
  assertMapped,
  failuresCsv,
  importRooms,
  previewImport,
  readFailures,
  requireImport,
  saveSettings,
  storedFile,
  storeUpload,
  toRecord,
} from './queries.js';
import type { ImportRunner } from './runner.js';
import { imports } from './tables.js';

const tags = ['imports'];
const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse, 404: detailResponse };
/** Reading a file past one of an import's bounds: what it expands to (413), its rows and cells (422). */
const readingErrors = { 413: detailResponse, 422: detailResponse };
const MB = 1024 * 1024;
const TOO_LARGE = `The file is larger than ${MAX_IMPORT_BYTES / MB} MB. Split it into smaller files.`;
/** Every visitor of the demo shares its agency and its server, so its files are kept small. */
const DEMO_TOO_LARGE = `The demo agency imports files of up to ${MAX_DEMO_IMPORT_BYTES / MB} MB and ${MAX_DEMO_IMPORT_ROWS.toLocaleString('en-US')} rows; register to import your whole book.`;

/** What spreadsheet programs and browsers call the files an import takes. */
const FILE_TYPES = [
  'application/octet-stream',
  'text/csv',
  'text/plain',
  'application/csv',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
];

/** An import of the agency whose kind the plan sells; 404 for another agency's id. */
async function requireImportFor(
  tx: Transaction,
  tenantId: string,
  id: string,
  modules: readonly ModuleName[],
) {
  const found = await requireImport(tx, tenantId, id);
  const module = IMPORT_KIND_MODULES[found.kind];
  if (!modules.includes(module)) {
    throw new HttpError(403, {
      detail: `Your plan does not include ${MODULE_LABELS[module]}. Upgrade your plan on the Billing page to use it.`,
    });
  }
  return found;
}

/**
 * Imports of customers, policies and leads from CSV or XLSX files: upload, column mapping (saved per
 * agency), a dry run, and the run itself as a background job whose progress the page polls.
 */
export const importRoutes =
  (ctx: AppContext, runner: ImportRunner): FastifyPluginAsyncZod =>
  async (app) => {
    app.addContentTypeParser(
      FILE_TYPES,
      { parseAs: 'buffer', bodyLimit: MAX_IMPORT_BYTES },
      (_request, body, done) => done(null, body),
    );

    app.post(
      '/imports/',
      {
        schema: {
          tags,
          summary: 'Upload a CSV or XLSX file to import',
          description: `The file is the request body: up to ${MAX_IMPORT_BYTES / MB} MB (413 past it), ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows, ${MAX_IMPORT_COLUMNS} columns and ${MAX_IMPORT_CELL_CHARS.toLocaleString('en-US')} characters a cell (422 past them); an XLSX file may expand to ${MAX_IMPORT_EXPANDED_BYTES / MB} MB once unzipped (413 past it). CSV may use any delimiter and be UTF-8 or Windows-1252. The same file uploaded again answers the import it made before. Columns come back mapped from their headers, the agency's earlier choices first. Examples of the file's rows are cut to ${IMPORT_ECHO_CHARS} characters a cell.`,
          security: bearerAuth,
          querystring: importUploadQuery,
          response: { 201: importRecord, ...readingErrors, ...errors },
        },
        bodyLimit: MAX_IMPORT_BYTES,
        onRequest: async (request) => {
          if (Number(request.headers['content-length'] ?? 0) > MAX_IMPORT_BYTES) {
            throw new HttpError(413, { detail: TOO_LARGE });
          }
        },
      },
      async (request, reply) => {
        const { kind, file_name } = request.query;
        if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
          throw new HttpError(400, { detail: 'Send the file as the request body.' });
        }
        const bytes = request.body;
        const demo = await isDemoAgency(ctx.db, signedInUser(request).tenantId);
        if (demo && bytes.length > MAX_DEMO_IMPORT_BYTES)
          throw new HttpError(413, { detail: DEMO_TOO_LARGE });
        const survey = await surveyImportFile(bytes, demo ? MAX_DEMO_IMPORT_ROWS : MAX_IMPORT_ROWS);
        const record = await withModule(ctx, request, IMPORT_KIND_MODULES[kind], async (tx, { tenantId }) => {
          const id = await storeUpload(tx, tenantId, kind, file_name, bytes, survey);
          return toRecord(await requireImport(tx, tenantId, id));
        });
        return reply.code(201).send(record);
      },
    );

    app.get(
      '/imports/:id/',
      {
        schema: {
          tags,
          summary: 'An import and, while it runs, its progress',
          security: bearerAuth,
          params: importIdParams,
          response: { 200: importRecord, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        // While this process runs the import its transaction holds the rows; the page polls the
        // progress kept in memory (on embedded PGlite that transaction holds the only connection).
        const live = request.accessClaims && runner.progressOf(request.accessClaims.tenantId, id);
        if (live) return live;
        return withModule(ctx, request, undefined, async (tx, { tenantId }, modules) =>
          toRecord(await requireImportFor(tx, tenantId, id, modules)),
        );
      },
    );

    app.put(
      '/imports/:id/',
      {
        schema: {
          tags,
          summary: "Choose the import's columns, what to do with duplicates, and all or nothing",
          description:
            "`columns` gives, for each column of the file in order, the field it fills or null to leave it out. The choices are remembered for the agency's next file of the same kind.",
          security: bearerAuth,
          params: importIdParams,
          body: importSettingsBody,
          response: { 200: importRecord, 409: detailResponse, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        return withModule(ctx, request, undefined, async (tx, { tenantId }, modules) => {
          await requireImportFor(tx, tenantId, id, modules);
          await saveSettings(tx, tenantId, id, request.body);
          return toRecord(await requireImport(tx, tenantId, id));
        });
      },
    );

    app.get(
      '/imports/:id/preview/',
      {
        schema: {
          tags,
          summary: 'Dry run: what the import would create, update, skip and refuse',
          description:
            "Checks every row with the same rules as the forms and finds duplicates (customers by email, phone or id number; policies by number, insurer and start date) without writing anything. Shows the first rows, and the first rows with problems; for policies, the instalments due before today that the file says nothing about (the import's `past_instalments` choice), the new insurers whose policies would earn no commission, and the plan limits the new records would pass.",
          security: bearerAuth,
          params: importIdParams,
          response: { 200: importPreview, ...readingErrors, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        // The agency's records are read in the transaction; the file is planned after it, so a large
        // file's dry run keeps no connection from other requests.
        const { file, planner, rooms } = await withModule(
          ctx,
          request,
          undefined,
          async (tx, { tenantId }, modules) => {
            const found = await requireImportFor(tx, tenantId, id, modules);
            return {
              file: await storedFile(tx, tenantId, id),
              planner: await startPlan(tx, tenantId, found.kind, found),
              rooms: await importRooms(tx, tenantId, found.kind),
            };
          },
        );
        return previewImport(file, planner, rooms);
      },
    );

    app.post(
      '/imports/:id/start/',
      {
        schema: {
          tags,
          summary: 'Run the import in the background',
          description:
            "Refused with 402 when the new records would pass the plan's limits, naming how many fit. The import then runs as a job; poll the import for its progress and summary. An import runs once: starting it again answers it as it is.",
          security: bearerAuth,
          params: importIdParams,
          response: { 202: importRecord, 409: detailResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const record = await withModule(
          ctx,
          request,
          undefined,
          async (tx, { tenantId, userId }, modules) => {
            const found = await requireImportFor(tx, tenantId, id, modules);
            if (found.status === 'done') {
              throw conflict({
                detail: `This file was imported on ${found.finishedAt?.toISOString().slice(0, 10)}: ${found.created} created, ${found.updated} updated. Importing it again would add nothing.`,
              });
            }
            if (found.status !== 'draft') return toRecord(found);
            assertMapped(found.kind, found.columns);
            readingDateOrder(found.kind, found);
            await assertImportFits(tx, tenantId, found);
            await tx
              .update(imports)
              .set({ status: 'queued', startedBy: userId, updatedAt: sql`now()` })
              .where(and(eq(imports.tenantId, tenantId), eq(imports.id, id)));
            await runner.enqueue(tx, { tenantId, importId: id });
            return toRecord({ ...found, status: 'queued' });
          },
        );
        runner.wake();
        return reply.code(202).send(record);
      },
    );

    app.get(
      '/imports/:id/failures/',
      {
        schema: {
          tags,
          summary: 'The failed rows as CSV, each with its row number and problems',
          security: bearerAuth,
          params: importIdParams,
          response: { 200: z.string().describe('CSV text.'), ...readingErrors, ...errors },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        // Read in the transaction, written after it: reading the file keeps no connection.
        const { file, failures, kind } = await withModule(
          ctx,
          request,
          undefined,
          async (tx, { tenantId }, modules) => ({
            kind: (await requireImportFor(tx, tenantId, id, modules)).kind,
            failures: await readFailures(tx, tenantId, id),
            file: await storedFile(tx, tenantId, id),
          }),
        );
        const csv = await failuresCsv(file, failures);
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${failedFileName(kind)}"`)
          .serializer((body) => body as string)
          .send(csv);
      },
    );
  };

const failedFileName = (kind: ImportKind) => `${kind}-import-failed-rows.csv`;
