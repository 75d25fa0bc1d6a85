import {
  type NotificationTemplate,
  notificationTemplate,
  notificationTemplateList,
  templateBody,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { bearerAuth } from '../../http/authenticate.js';
import { notFound } from '../../http/errors.js';
import { withModule } from '../billing/access.js';
import { errors, MODULE, tags } from './routes-shared.js';
import { listTemplates, parseTemplateSlot, resetTemplate, saveTemplate } from './templates.js';

/** A template is named by its type and channel; an unknown name is a 404 after the plan gate. */
const templateParams = z.object({ slot: z.string().max(60) });

function requireSlot(id: string) {
  const slot = parseTemplateSlot(id);
  if (!slot) throw notFound('Template not found.');
  return slot;
}

function requireTemplate(templates: NotificationTemplate[], slot: string) {
  const found = templates.find((template) => template.id === slot);
  if (!found) throw notFound('Template not found.');
  return found;
}

/** The templates: Coverdesk's wording of each type and channel, or the agency's own. */
export const templateRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/notifications/templates/',
      {
        schema: {
          tags,
          summary: 'The wording of each type and channel: Coverdesk’s, or the agency’s own',
          description:
            'Placeholders in braces ({customer_name}, {policy_number}, {amount}, {due_date}, {insurer}, {agency_name}, ...) are filled when a reminder is written; in the email’s HTML part every value and the wording itself are escaped.',
          security: bearerAuth,
          response: { 200: notificationTemplateList, ...errors },
        },
      },
      async (request) => ({
        results: await withModule(ctx, request, MODULE, (tx, { tenantId }) => listTemplates(tx, tenantId)),
      }),
    );

    app.get(
      '/notifications/templates/:slot/',
      {
        schema: {
          tags,
          summary: 'One template, by type and channel ("payment_reminder.email")',
          security: bearerAuth,
          params: templateParams,
          response: { 200: notificationTemplate, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          requireSlot(request.params.slot);
          return requireTemplate(await listTemplates(tx, tenantId), request.params.slot);
        }),
    );

    app.put(
      '/notifications/templates/:slot/',
      {
        config: { action: 'agency_settings' },
        schema: {
          tags,
          summary: 'The agency’s own wording for a type and channel',
          security: bearerAuth,
          params: templateParams,
          body: templateBody,
          response: { 200: notificationTemplate, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          await saveTemplate(tx, tenantId, requireSlot(request.params.slot), request.body);
          return requireTemplate(await listTemplates(tx, tenantId), request.params.slot);
        }),
    );

    app.delete(
      '/notifications/templates/:slot/',
      {
        config: { action: 'agency_settings' },
        schema: {
          tags,
          summary: 'Back to Coverdesk’s wording for a type and channel',
          security: bearerAuth,
          params: templateParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          resetTemplate(tx, tenantId, requireSlot(request.params.slot)),
        );
        return reply.code(204).send(null);
      },
    );
  };
