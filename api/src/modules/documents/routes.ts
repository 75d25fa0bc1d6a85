import {
  DOCUMENT_OWNERS,
  DOCUMENT_TYPES,
  type DocumentOwner,
  detailResponse,
  document,
  documentListQuery,
  documentPage,
  documentPatchBody,
  documentUploadFields,
  fieldErrorsResponse,
  MAX_DOCUMENT_BYTES,
  type ModuleName,
  PREVIEWABLE_TYPES,
  uuid,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { withWholeBook } from '../../db/tenant.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { HttpError, notFound, parseWith } from '../../http/errors.js';
import { acceptFileForms, cleanFileName, fileHeaders } from '../../http/multipart.js';
import { offsetOf, pageOf } from '../../http/pagination.js';
import { displayName, findUserById } from '../accounts/queries.js';
import { auditTrail } from '../audit/trail.js';
import { withModule } from '../billing/access.js';
import { assertBelowLimit } from '../billing/usage.js';
import { isDemoAgency } from '../tenants/queries.js';
import { keepDocument, storeFile } from './keep.js';
import {
  BYTES_PER_MB,
  countStorageMb,
  deleteDocument,
  findAttachment,
  findDocument,
  listDocuments,
  toDocument,
  updateDocument,
} from './queries.js';
import { discard, receiveDocumentForm, TOO_LARGE } from './receive.js';
import type { FileReleases } from './releases.js';
import { type FileStore, fileKey } from './storage.js';

const idParams = z.object({ id: uuid });
const tags = ['documents'];
const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse, 404: detailResponse };
const NOT_FOUND = 'Document not found.';

/**
 * Every visitor of the demo shares its agency, and anyone may sign in to it, so it keeps small files
 * and few of them; the nightly reset deletes what visitors uploaded.
 */
const DEMO_MAX_FILE_MB = 2;
const DEMO_MAX_TOTAL_MB = 20;
const DEMO_TOO_LARGE = `The demo agency keeps documents of up to ${DEMO_MAX_FILE_MB} MB; register to keep files of up to 25 MB.`;
const DEMO_FULL = `The demo agency's visitors share ${DEMO_MAX_TOTAL_MB} MB of documents, and they are used up until the demo is rebuilt tonight: register to keep your own.`;

/** The plan's module of each kind of record a document may be attached to. */
const MODULE_OF: Record<DocumentOwner, ModuleName> = {
  customer_id: 'module_customers',
  policy_id: 'module_policies',
  claim_id: 'module_claims',
  lead_id: 'module_leads',
};
const ATTACHED_TO: Record<DocumentOwner, string> = {
  customer_id: 'Customer not found.',
  policy_id: 'Policy not found.',
  claim_id: 'Claim not found.',
  lead_id: 'Lead not found.',
};

/** The one record a form or a query names (the schemas hold them to exactly one). */
function ownerOf(values: Partial<Record<DocumentOwner, string>>): { owner: DocumentOwner; id: string } {
  const owner = DOCUMENT_OWNERS.find((name) => values[name] !== undefined) ?? 'customer_id';
  return { owner, id: values[owner] ?? '' };
}

export interface DocumentFiles {
  store: FileStore;
  releases: FileReleases;
}

/**
 * Documents on customers, policies, claims and leads: uploaded as multipart forms, streamed to the
 * file store, listed per record, downloaded through the API only, renamed, recategorised, deleted.
 */
export const documentRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { store, releases } = ctx.documentFiles;
    await acceptFileForms(app, { fileSize: MAX_DOCUMENT_BYTES, fields: 10, tooLarge: TOO_LARGE });

    app.post(
      '/documents/',
      {
        schema: {
          tags,
          summary: 'Upload a document onto a customer, policy, claim or lead',
          description:
            "multipart/form-data: `file`, one of `customer_id`, `policy_id`, `claim_id`, `lead_id`, and `category`. PDF, PNG, JPEG, HEIC, WebP, TXT, CSV, DOCX, XLSX or EML, whose bytes must be of the type its name says (415), at most 25 MB (413, before the body is read when its length says so). 402 when the plan's document storage is full. " +
            `The demo agency keeps files of up to ${DEMO_MAX_FILE_MB} MB (413) and ${DEMO_MAX_TOTAL_MB} MB among all its visitors (402).`,
          security: bearerAuth,
          consumes: ['multipart/form-data'],
          response: { 201: document, 413: detailResponse, 415: detailResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { userId, tenantId: agency } = signedInUser(request);
        const { fields, file } = await receiveDocumentForm(request, store.incomingDir);
        try {
          const values = parseWith(documentUploadFields, fields);
          const { owner, id } = ownerOf(values);
          const user = await findUserById(ctx.db, userId);
          const demo = await isDemoAgency(ctx.db, agency);
          const megabytes = file.size / BYTES_PER_MB;
          if (demo && megabytes > DEMO_MAX_FILE_MB) throw new HttpError(413, { detail: DEMO_TOO_LARGE });
          await storeFile(store, agency, file);
          const created = await withModule(ctx, request, MODULE_OF[owner], async (tx, { tenantId }) => {
            const attachment = await findAttachment(tx, tenantId, owner, id);
            if (!attachment) throw notFound(ATTACHED_TO[owner]);
            // The whole agency's storage, whichever part of the book the member sees.
            await withWholeBook(tx, async () => {
              await assertBelowLimit(tx, tenantId, 'storage_mb', megabytes);
              if (demo && (await countStorageMb(tx, tenantId)) + megabytes > DEMO_MAX_TOTAL_MB) {
                throw new HttpError(402, { detail: DEMO_FULL });
              }
            });
            const row = await keepDocument(tx, store, tenantId, file, {
              attachment,
              fileName: file.fileName,
              contentType: file.contentType,
              category: values.category,
              uploadedBy: { id: userId, name: user ? displayName(user) : '' },
            });
            await auditTrail(tx, request).created('document', row.id);
            return toDocument(row);
          });
          return reply.code(201).send(created);
        } catch (error) {
          // Bytes stored for a document that was not saved go, unless another document has them.
          await releases.releaseIfUnused(agency, file.sha256);
          throw error;
        } finally {
          await discard(file);
        }
      },
    );

    app.get(
      '/documents/',
      {
        schema: {
          tags,
          summary: "A customer's, policy's, claim's or lead's documents, newest first",
          description:
            "Name one of `customer_id`, `policy_id`, `claim_id`, `lead_id`. A customer's documents include those on their policies and claims, and on the lead they were converted from.",
          security: bearerAuth,
          querystring: documentListQuery,
          response: { 200: documentPage, ...errors },
        },
      },
      async (request) => {
        const query = request.query;
        const { owner, id } = ownerOf(query);
        const { count, rows } = await withModule(ctx, request, MODULE_OF[owner], async (tx, { tenantId }) => {
          if (!(await findAttachment(tx, tenantId, owner, id))) throw notFound(ATTACHED_TO[owner]);
          return listDocuments(tx, tenantId, owner, id, {
            limit: query.page_size,
            offset: offsetOf(query),
          });
        });
        return pageOf(request, query, count, rows);
      },
    );

    const requireDocument = async (tx: Parameters<typeof findDocument>[0], tenantId: string, id: string) => {
      const found = await findDocument(tx, tenantId, id);
      if (!found) throw notFound(NOT_FOUND);
      return found;
    };

    app.get(
      '/documents/:id/',
      {
        schema: {
          tags,
          summary: 'One document',
          security: bearerAuth,
          params: idParams,
          response: { 200: document, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, undefined, async (tx, { tenantId }) =>
          toDocument(await requireDocument(tx, tenantId, request.params.id)),
        ),
    );

    app.get(
      '/documents/:id/download/',
      {
        schema: {
          tags,
          summary: "A document's bytes, as they were uploaded",
          description:
            'Images and PDFs are sent `inline` (a browser may show them), everything else as an `attachment`; always with `X-Content-Type-Options: nosniff`.',
          security: bearerAuth,
          params: idParams,
          response: { 200: z.any(), ...errors },
        },
      },
      async (request, reply) => {
        const row = await withModule(ctx, request, undefined, (tx, { tenantId }) =>
          requireDocument(tx, tenantId, request.params.id),
        );
        const bytes = await store.read(fileKey(row.tenantId, row.sha256));
        if (!bytes) {
          request.log.error({ document: row.id }, "a document's file is missing from the store");
          throw notFound("This document's file is missing. Upload it again.");
        }
        return fileHeaders(reply, {
          fileName: row.fileName,
          contentType: row.contentType,
          inline: PREVIEWABLE_TYPES.includes(row.contentType),
        })
          .header('content-length', String(row.size))
          .send(bytes);
      },
    );

    app.patch(
      '/documents/:id/',
      {
        schema: {
          tags,
          summary: 'Rename or recategorise a document',
          description:
            'The name keeps an extension of its type: `scan.exe` for a PDF is saved as `scan.pdf`.',
          security: bearerAuth,
          params: idParams,
          body: documentPatchBody,
          response: { 200: document, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        const { file_name: name, category } = request.body;
        return withModule(ctx, request, undefined, async (tx, { tenantId }) => {
          const stored = await requireDocument(tx, tenantId, id);
          const extensions = Object.hasOwn(DOCUMENT_TYPES, stored.contentType)
            ? DOCUMENT_TYPES[stored.contentType as keyof typeof DOCUMENT_TYPES]
            : [];
          const changes = {
            ...(name === undefined ? {} : { fileName: cleanFileName(name, extensions, 'document') }),
            ...(category === undefined ? {} : { category }),
          };
          const row = await auditTrail(tx, request).changed('document', id, () =>
            updateDocument(tx, tenantId, id, changes),
          );
          if (!row) throw notFound(NOT_FOUND);
          return toDocument(row);
        });
      },
    );

    app.delete(
      '/documents/:id/',
      {
        schema: {
          tags,
          summary: 'Delete a document',
          description:
            'Recorded in the audit log. Its bytes are deleted once no other document of the agency has them.',
          security: bearerAuth,
          params: idParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const deleted = await withModule(ctx, request, undefined, (tx, { tenantId }) =>
          auditTrail(tx, request).changed('document', id, () => deleteDocument(tx, tenantId, id)),
        );
        if (!deleted) throw notFound(NOT_FOUND);
        releases.kick();
        return reply.code(204).send(null);
      },
    );
  };
