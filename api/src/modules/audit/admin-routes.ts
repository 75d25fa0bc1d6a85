import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';

/** The whole platform's audit log (user activity). */
export const adminAuditRoutes =
  (_ctx: AppContext): FastifyPluginAsyncZod =>
  async (_app) => {};
