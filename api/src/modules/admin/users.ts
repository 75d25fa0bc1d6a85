import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';

/** Every user of the platform: search, disable and enable, sign out, password resets, and platform admins. */
export const adminUserRoutes =
  (_ctx: AppContext): FastifyPluginAsyncZod =>
  async (_app) => {};
