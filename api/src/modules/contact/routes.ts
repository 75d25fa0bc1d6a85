import { contactMessageBody, detailResponse, fieldErrorsResponse } from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { consumeAttempt } from '../throttle/throttle.js';
import { contactMessages } from './tables.js';

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
        await db.insert(contactMessages).values({ name, email, company: company || null, subject, message });
        return reply.code(201).send({ detail: 'Thank you. We have your message and will answer by email.' });
      },
    );
  };
