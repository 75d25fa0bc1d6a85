import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';

/** The support inbox: every agency's tickets and the contact form's messages. */
export const adminSupportRoutes =
  (_ctx: AppContext): FastifyPluginAsyncZod =>
  async (_app) => {};
