import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { bellRoutes } from './bell-routes.js';
import { historyRoutes } from './history-routes.js';
import type { NotificationRunner } from './runner.js';
import { settingRoutes } from './setting-routes.js';
import { templateRoutes } from './template-routes.js';

/**
 * The bell and its notifications, each user's reminder settings, the delivery history and the
 * templates. Everything a user reads or changes here is their own: another user's notification,
 * setting or delivery answers 404 like one that never existed.
 */
export const notificationRoutes =
  (ctx: AppContext, runner: NotificationRunner): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(bellRoutes(ctx));
    await app.register(settingRoutes(ctx, runner));
    await app.register(historyRoutes(ctx));
    await app.register(templateRoutes(ctx));
  };
