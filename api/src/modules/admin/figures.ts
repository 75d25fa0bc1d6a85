import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';

/** The platform's figures: agencies, subscriptions, revenue and feature usage. */
export const adminFigureRoutes =
  (_ctx: AppContext): FastifyPluginAsyncZod =>
  async (_app) => {};
