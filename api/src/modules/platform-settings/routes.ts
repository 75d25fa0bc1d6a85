import { publicSettings } from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';

/** What the public pages ask before anyone signs in: may one register, is there a demo. */
export const platformSettingsRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/platform/settings/',
      {
        schema: {
          tags: ['platform'],
          summary: 'Whether sign-ups are open and the demo is available (public)',
          response: { 200: publicSettings },
        },
      },
      async () => ({
        signups_open: (await ctx.settings.general()).signupsOpen,
        demo_available: await ctx.settings.demoAvailable(),
      }),
    );
  };
