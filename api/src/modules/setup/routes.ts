import { setupStatus } from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { withTenant } from '../../db/tenant.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { hasCompanies } from '../companies/queries.js';
import { hasPolicyTypes } from '../policy-types/queries.js';

/** What the setup guide checks. It is about the agency's own data, not a plan module, so a sign-in is enough. */
export const setupRoutes =
  ({ db }: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/setup/status/',
      {
        schema: {
          tags: ['setup'],
          summary: 'Whether the agency has added policy types and insurers',
          security: bearerAuth,
          response: { 200: setupStatus },
        },
      },
      async (request) => {
        const { tenantId } = signedInUser(request);
        const [types, insurers] = await withTenant(db, tenantId, async (tx) => [
          await hasPolicyTypes(tx, tenantId),
          await hasCompanies(tx, tenantId),
        ]);
        return { hasPolicyTypes: types, hasCompanies: insurers, isComplete: types && insurers };
      },
    );
  };
