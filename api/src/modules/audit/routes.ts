import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';

/** An agency's own audit log, for its owner. */
export const auditRoutes =
  (_ctx: AppContext): FastifyPluginAsyncZod =>
  async (_app) => {};
