import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';

/** How the platform runs and is set up: health, performance, caches, settings, email and Paddle. */
export const adminSystemRoutes =
  (_ctx: AppContext): FastifyPluginAsyncZod =>
  async (_app) => {};
