import { contactMessageBody, detailResponse, fieldErrorsResponse } from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { openTicket } from '../support/queries.js';
import { consumeAttempt } from '../throttle/throttle.js';

export const contactRoutes =
  ({ db }: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/contact/',
      {
        schema: {
          tags: ['contact'],
          summary: 'Send a message from the public contact form',
          body: contactMessageBody,
          response: { 201: detailResponse, 400: fieldErrorsResponse, 429: detailResponse },
        },
      },
      async (request, reply) => {
        // Enough for a person with follow-up questions, too few to flood the inbox.
        const rule = { key: `contact:ip:${request.ip}`, limit: 5, windowSeconds: 3600 };
        await consumeAttempt(db, [rule]);
        const { name, email, company, subject, message } = request.body;
        // Into the support inbox, as a ticket of no agency that the admins answer by email.
        await db.transaction((tx) =>
          openTicket(
            tx,
            {
              tenantId: null,
              openedBy: null,
              requesterName: name,
              requesterEmail: email,
              company: company || null,
              subject,
              category: 'other',
              message,
            },
            null,
          ),
        );
        return reply.code(201).send({ detail: 'Thank you. We have your message and will answer by email.' });
      },
    );
  };
