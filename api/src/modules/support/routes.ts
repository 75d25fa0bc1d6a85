import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';

/** A broker's support tickets and their replies. */
export const supportRoutes =
  (_ctx: AppContext): FastifyPluginAsyncZod =>
  async (_app) => {};
