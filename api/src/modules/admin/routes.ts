import type { onRequestHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { requireAdmin } from '../../http/require-admin.js';
import { adminAuditRoutes } from '../audit-log/admin-routes.js';
import { adminSupportRoutes } from '../support/admin-routes.js';
import { adminFigureRoutes } from './figures.js';
import { adminOperationRoutes } from './operations.js';
import { adminSystemRoutes } from './system.js';
import { adminTenantRoutes } from './tenants.js';
import { adminUserRoutes } from './users.js';

/**
 * The platform admin's API, everything under /api/admin/. One gate for all of it: each route
 * authenticates (401 for anonymous callers), then checks that the caller is a platform admin in the
 * database right now (403 for everyone else), before its body is parsed or validated. A route added
 * here without `security: bearerAuth` stops the app from starting.
 */
export const adminRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const adminsOnly: onRequestHookHandler = async (request) => {
      await requireAdmin(request, ctx);
    };
    app.addHook('onRoute', (route) => {
      const hooks = [route.onRequest ?? []].flat();
      if (hooks.length === 0) throw new Error(`${route.url} is an admin route without security: bearerAuth`);
      // After the authentication hook the app adds to every bearerAuth route.
      route.onRequest = [...hooks, adminsOnly];
    });
    await app.register(adminTenantRoutes(ctx));
    await app.register(adminUserRoutes(ctx));
    await app.register(adminFigureRoutes(ctx));
    await app.register(adminSystemRoutes(ctx));
    await app.register(adminOperationRoutes(ctx));
    await app.register(adminSupportRoutes(ctx));
    await app.register(adminAuditRoutes(ctx));
  };
