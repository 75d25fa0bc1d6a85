import {
  adminTicketDetail,
  adminTicketListQuery,
  adminTicketPage,
  detailResponse,
  fieldErrorsResponse,
  supportAdminList,
  ticketAssignBody,
  ticketAttachmentParams,
  ticketReplyBody,
  uuid,
} from '@coverdesk/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Executor, Transaction } from '../../db/client.js';
import { readAcrossAgencies } from '../../db/platform-read.js';
import { withTenant } from '../../db/tenant.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { fieldError, notFound } from '../../http/errors.js';
import { pageOf } from '../../http/pagination.js';
import { displayName, findUserById } from '../accounts/queries.js';
import { auditOrigin, recordAudit } from '../audit/record.js';
import type { FieldChanges } from '../audit/tables.js';
import { staffReplyEmail } from './mail.js';
import {
  addMessage,
  assignTicket,
  findAttachment,
  findInboxTicket,
  listInbox,
  listSupportAdmins,
  setTicketStatus,
  statusAfter,
} from './queries.js';
import { acceptTicketForms, readTicketForm, sendAttachment } from './upload.js';

const tags = ['admin: support'];
const idParams = z.object({ id: uuid });
const errors = { 400: fieldErrorsResponse, 404: detailResponse };
const NOT_FOUND = 'Ticket not found.';

/**
 * The support inbox: every agency's tickets and the contact form's messages, which arrive as tickets
 * without an agency and are answered by email. Every change to an agency's ticket runs in that
 * agency's transaction with its audit line; a contact-form ticket belongs to no agency, so it
 * changes on the connecting role, which its own row-level security policy admits for tickets without
 * an agency, and so does its audit line. The inbox reads every agency's tickets through the platform read path.
 */
export const adminSupportRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    await acceptTicketForms(app);

    async function requireTicket(id: string) {
      const found = await readAcrossAgencies(ctx.db, (tx) => findInboxTicket(tx, id));
      if (!found) throw notFound(NOT_FOUND);
      return found;
    }

    async function signedInAdmin(request: FastifyRequest) {
      const { userId } = signedInUser(request);
      const admin = await findUserById(ctx.db, userId);
      if (!admin) throw notFound('Admin not found.');
      return { id: admin.id, name: displayName(admin), email: admin.email };
    }

    /**
     * Applies an admin's change to a ticket with its audit line, in one transaction: the agency's,
     * or for a contact-form ticket one on the connecting role, whose line belongs to no agency.
     */
    async function changeTicket(
      request: FastifyRequest,
      ticket: { id: string; tenant_id: string | null },
      admin: { id: string; email: string },
      audit: { action: string; changes: FieldChanges },
      change: (executor: Executor) => Promise<void>,
    ) {
      const tenantId = ticket.tenant_id;
      const changeAndRecord = async (tx: Transaction) => {
        await change(tx);
        await recordAudit(tx, auditOrigin(request), {
          tenantId,
          userId: admin.id,
          actorEmail: admin.email,
          action: audit.action,
          entity: 'ticket',
          entityId: ticket.id,
          changes: audit.changes,
        });
      };
      if (tenantId === null) await ctx.db.transaction(changeAndRecord);
      else await withTenant(ctx.db, tenantId, changeAndRecord);
    }

    app.get(
      '/support/tickets/',
      {
        schema: {
          tags,
          summary: 'The support inbox: every agency and the contact form, most recently active first',
          description:
            "`status` keeps one status; `assignee` an admin's id, `me` or `none`; `search` matches the subject, the requester's name and email, and the agency's name.",
          security: bearerAuth,
          querystring: adminTicketListQuery,
          response: { 200: adminTicketPage, ...errors },
        },
      },
      async (request) => {
        const { userId } = signedInUser(request);
        const { count, results } = await readAcrossAgencies(ctx.db, (tx) =>
          listInbox(tx, request.query, userId),
        );
        return pageOf(request, request.query, count, results);
      },
    );

    app.get(
      '/support/admins/',
      {
        schema: {
          tags,
          summary: 'The platform admins a ticket may be assigned to',
          security: bearerAuth,
          response: { 200: supportAdminList },
        },
      },
      async () => ({ results: await listSupportAdmins(ctx.db) }),
    );

    app.get(
      '/support/tickets/:id/',
      {
        schema: {
          tags,
          summary: 'One ticket with its thread, oldest message first',
          security: bearerAuth,
          params: idParams,
          response: { 200: adminTicketDetail, ...errors },
        },
      },
      async (request) => requireTicket(request.params.id),
    );

    app.post(
      '/support/tickets/:id/assign/',
      {
        schema: {
          tags,
          summary: 'Give a ticket to an admin, or to nobody',
          security: bearerAuth,
          params: idParams,
          body: ticketAssignBody,
          response: { 200: adminTicketDetail, ...errors },
        },
      },
      async (request) => {
        const ticket = await requireTicket(request.params.id);
        const { assigned_to } = request.body;
        if (assigned_to !== null) {
          const admins = await listSupportAdmins(ctx.db);
          if (!admins.some((admin) => admin.id === assigned_to)) {
            throw fieldError('assigned_to', 'Choose one of the platform admins.');
          }
        }
        const admin = await signedInAdmin(request);
        await changeTicket(
          request,
          ticket,
          admin,
          {
            action: 'ticket_assigned',
            changes: { assigned_to: { before: ticket.assigned_to, after: assigned_to } },
          },
          (executor) => assignTicket(executor, ticket.id, assigned_to),
        );
        return requireTicket(ticket.id);
      },
    );

    app.post(
      '/support/tickets/:id/messages/',
      {
        schema: {
          tags,
          summary: 'Answer a ticket',
          description:
            'Sent as multipart/form-data: `message`, and an optional file named `attachment` (PNG, JPEG, PDF, TXT or CSV, at most 5 MB). The ticket then waits on its requester (pending), who is emailed the answer: a broker with a link to the ticket, a contact-form visitor at the address they gave.',
          security: bearerAuth,
          consumes: ['multipart/form-data'],
          params: idParams,
          response: { 201: adminTicketDetail, ...errors, 413: detailResponse, 415: detailResponse },
        },
      },
      async (request, reply) => {
        const ticket = await requireTicket(request.params.id);
        const { fields, attachment } = await readTicketForm(request, ticketReplyBody);
        const admin = await signedInAdmin(request);
        await changeTicket(
          request,
          ticket,
          admin,
          {
            action: 'ticket_answered',
            changes: { status: { before: ticket.status, after: statusAfter('staff_reply') } },
          },
          (executor) =>
            addMessage(
              executor,
              { id: ticket.id, tenantId: ticket.tenant_id },
              { id: admin.id, name: admin.name, isStaff: true },
              fields.message,
              attachment,
              'staff_reply',
            ),
        );
        await ctx.mailer.send(
          staffReplyEmail(
            ticket.requester_email,
            { id: ticket.id, subject: ticket.subject, fromContactForm: ticket.from_contact_form },
            { authorName: admin.name, body: fields.message },
            ctx.config.appUrl,
          ),
        );
        return reply.code(201).send(await requireTicket(ticket.id));
      },
    );

    for (const [path, event, action, summary] of [
      ['resolve', 'resolve', 'ticket_resolved', 'Mark a ticket resolved'],
      ['reopen', 'reopen', 'ticket_reopened', 'Open a resolved ticket again'],
    ] as const) {
      app.post(
        `/support/tickets/:id/${path}/`,
        {
          schema: {
            tags,
            summary,
            security: bearerAuth,
            params: idParams,
            response: { 200: adminTicketDetail, ...errors },
          },
        },
        async (request) => {
          const ticket = await requireTicket(request.params.id);
          const admin = await signedInAdmin(request);
          await changeTicket(
            request,
            ticket,
            admin,
            { action, changes: { status: { before: ticket.status, after: statusAfter(event) } } },
            (executor) => setTicketStatus(executor, ticket.id, event),
          );
          return requireTicket(ticket.id);
        },
      );
    }

    app.get(
      '/support/tickets/:id/attachments/:attachmentId/',
      {
        schema: {
          tags,
          summary: 'Download a file attached to a ticket',
          description:
            'Always as a download (`Content-Disposition: attachment`), in the type it was accepted as.',
          security: bearerAuth,
          params: ticketAttachmentParams,
          response: { 200: z.string().describe("The file's bytes."), ...errors },
        },
      },
      async (request, reply) => {
        const { id, attachmentId } = request.params;
        const file = await readAcrossAgencies(ctx.db, (tx) => findAttachment(tx, null, id, attachmentId));
        if (!file) throw notFound('Attachment not found.');
        return sendAttachment(reply, file);
      },
    );
  };
