import {
  detailResponse,
  fieldErrorsResponse,
  ticketAttachmentParams,
  ticketBody,
  ticketDetail,
  ticketListQuery,
  ticketPage,
  ticketReplyBody,
  uuid,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/client.js';
import { withTenant } from '../../db/tenant.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { notFound, unauthorized } from '../../http/errors.js';
import { pageOf } from '../../http/pagination.js';
import { displayName, findUserById } from '../accounts/queries.js';
import { isDemoAgency } from '../tenants/queries.js';
import { consumeAttempt } from '../throttle/throttle.js';
import { addMessage, findAgencyTicket, findAttachment, listAgencyTickets, openTicket } from './queries.js';
import { acceptTicketForms, readTicketForm, sendAttachment } from './upload.js';

const tags = ['support'];
const idParams = z.object({ id: uuid });
const errors = { 400: fieldErrorsResponse, 404: detailResponse };
const formErrors = { ...errors, 413: detailResponse, 415: detailResponse, 429: detailResponse };
const NOT_FOUND = 'Ticket not found.';
const FORM =
  'Sent as multipart/form-data: the fields below as text, and an optional file named `attachment` (PNG, JPEG, PDF, TXT or CSV, at most 5 MB; 413 past it, 400 for another type).';

/**
 * Tickets and replies one user may send an hour, together: each lands in the admins' inbox, may
 * carry a 5 MB file and is mailed on, so a script must not be able to flood them.
 */
const MESSAGES_PER_HOUR = 20;
/**
 * Tickets and replies the demo agency may send an hour, among all its visitors: they share its three
 * members, and anyone can sign in as them without an account, so a limit per user would limit nobody.
 */
const DEMO_MESSAGES_PER_HOUR = 3;
const HOUR_SECONDS = 3600;

/** Counts a ticket or reply the user is sending, or refuses it with 429 past the hour's limit. */
async function countSupportMessage(db: Executor, tenantId: string, userId: string) {
  if (await isDemoAgency(db, tenantId)) {
    return consumeAttempt(
      db,
      [
        {
          key: `support:demo-agency:${tenantId}`,
          limit: DEMO_MESSAGES_PER_HOUR,
          windowSeconds: HOUR_SECONDS,
        },
      ],
      `The demo agency's visitors share ${DEMO_MESSAGES_PER_HOUR} support tickets and replies an hour, and they are used up: register to write to us as your own agency.`,
    );
  }
  return consumeAttempt(
    db,
    [{ key: `support:user:${userId}`, limit: MESSAGES_PER_HOUR, windowSeconds: HOUR_SECONDS }],
    `You can send ${MESSAGES_PER_HOUR} support tickets and replies an hour.`,
  );
}

async function requireTicket(executor: Executor, tenantId: string, id: string) {
  const found = await findAgencyTicket(executor, tenantId, id);
  if (!found) throw notFound(NOT_FOUND);
  return found;
}

/**
 * A broker's support tickets and their replies. Every user of an agency sees all of the agency's
 * tickets: support questions are about the agency's account, billing and data, and a colleague
 * must be able to follow up while the one who asked is away. Open without an active subscription,
 * as the billing page is: an agency whose payment failed is the one that needs support.
 */
export const supportRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    await acceptTicketForms(app);

    /** The signed-in broker as a thread names them, read before their agency's transaction. */
    const requester = async (userId: string) => {
      const user = await findUserById(ctx.db, userId);
      if (!user) throw unauthorized('User not found.');
      return { id: user.id, name: displayName(user), email: user.email };
    };

    app.get(
      '/support/tickets/',
      {
        schema: {
          tags,
          summary: "The agency's support tickets, the most recently active first",
          description: '`status` keeps one status; `search` matches the subject.',
          security: bearerAuth,
          querystring: ticketListQuery,
          response: { 200: ticketPage, ...errors },
        },
      },
      async (request) => {
        const { tenantId } = signedInUser(request);
        const { count, results } = await withTenant(ctx.db, tenantId, (tx) =>
          listAgencyTickets(tx, tenantId, request.query),
        );
        return pageOf(request, request.query, count, results);
      },
    );

    app.post(
      '/support/tickets/',
      {
        schema: {
          tags,
          summary: 'Open a support ticket',
          description: `${FORM} Fields: \`subject\`, \`category\` (${ticketBody.shape.category.options.join(', ')}), \`message\`. The ticket starts open. A user sends at most ${MESSAGES_PER_HOUR} tickets and replies an hour, the demo agency's visitors ${DEMO_MESSAGES_PER_HOUR} among them all (429 past it).`,
          security: bearerAuth,
          consumes: ['multipart/form-data'],
          response: { 201: ticketDetail, ...formErrors },
        },
      },
      async (request, reply) => {
        const { tenantId, userId } = signedInUser(request);
        const { fields, attachment } = await readTicketForm(request, ticketBody);
        await countSupportMessage(ctx.db, tenantId, userId);
        const user = await requester(userId);
        const created = await withTenant(ctx.db, tenantId, async (tx) => {
          const id = await openTicket(
            tx,
            { tenantId, openedBy: user.id, requesterName: user.name, requesterEmail: user.email, ...fields },
            attachment,
          );
          return requireTicket(tx, tenantId, id);
        });
        return reply.code(201).send(created);
      },
    );

    app.get(
      '/support/tickets/:id/',
      {
        schema: {
          tags,
          summary: 'One ticket with its thread, oldest message first',
          security: bearerAuth,
          params: idParams,
          response: { 200: ticketDetail, ...errors },
        },
      },
      async (request) => {
        const { tenantId } = signedInUser(request);
        return withTenant(ctx.db, tenantId, (tx) => requireTicket(tx, tenantId, request.params.id));
      },
    );

    app.post(
      '/support/tickets/:id/messages/',
      {
        schema: {
          tags,
          summary: 'Reply to a ticket',
          description: `${FORM} Field: \`message\`. The ticket is open again afterwards, even when it was resolved. Counts toward the ${MESSAGES_PER_HOUR} tickets and replies a user sends an hour, or the demo agency's ${DEMO_MESSAGES_PER_HOUR} (429 past it).`,
          security: bearerAuth,
          consumes: ['multipart/form-data'],
          params: idParams,
          response: { 201: ticketDetail, ...formErrors },
        },
      },
      async (request, reply) => {
        const { tenantId, userId } = signedInUser(request);
        const { id } = request.params;
        const { fields, attachment } = await readTicketForm(request, ticketReplyBody);
        await countSupportMessage(ctx.db, tenantId, userId);
        const user = await requester(userId);
        const updated = await withTenant(ctx.db, tenantId, async (tx) => {
          await requireTicket(tx, tenantId, id);
          await addMessage(
            tx,
            { id, tenantId },
            { id: user.id, name: user.name, isStaff: false },
            fields.message,
            attachment,
            'requester_reply',
          );
          return requireTicket(tx, tenantId, id);
        });
        return reply.code(201).send(updated);
      },
    );

    app.get(
      '/support/tickets/:id/attachments/:attachmentId/',
      {
        schema: {
          tags,
          summary: "Download a file attached to one of the agency's tickets",
          description:
            'Always as a download (`Content-Disposition: attachment`), in the type it was accepted as.',
          security: bearerAuth,
          params: ticketAttachmentParams,
          response: { 200: z.string().describe("The file's bytes."), ...errors },
        },
      },
      async (request, reply) => {
        const { tenantId } = signedInUser(request);
        const { id, attachmentId } = request.params;
        const file = await withTenant(ctx.db, tenantId, (tx) =>
          findAttachment(tx, tenantId, id, attachmentId),
        );
        if (!file) throw notFound('Attachment not found.');
        return sendAttachment(reply, file);
      },
    );
  };
