import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';

export const policyRoutes =
  (_ctx: AppContext): FastifyPluginAsyncZod =>
  async (_app) => {};
