import {
  detailResponse,
  fieldErrorsResponse,
  type LeadValues,
  leadActivityBody,
  leadActivityList,
  leadAssigneeList,
  leadBody,
  leadConversion,
  leadConversionBody,
  leadDetail,
  leadExportQuery,
  leadListQuery,
  leadMatchList,
  leadMatchQuery,
  leadPage,
  leadPatchBody,
  leadStats,
  leadStatsQuery,
  uuid,
} from '@coverdesk/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { HttpError, notFound, parseWith } from '../../http/errors.js';
import { pageOf } from '../../http/pagination.js';
import { exportRoute } from '../../http/table-file.js';
import { auditTrail } from '../audit/trail.js';
import { withModule } from '../billing/access.js';
import { assertBelowLimit } from '../billing/usage.js';
import { addActivity, listActivities } from './activities.js';
import { convertLead } from './convert.js';
import { findLeadMatches } from './matches.js';
import {
  actAs,
  exportLeads,
  findLead,
  findLeadParties,
  leadFile,
  listAssignees,
  listLeads,
  summarizeLeads,
} from './queries.js';
import { createLead, deleteLead, updateLead } from './writes.js';

const idParams = z.object({ id: uuid });
const tags = ['leads'];
const errors = { 400: fieldErrorsResponse, 402: detailResponse, 403: detailResponse, 404: detailResponse };
const NOT_FOUND = 'Lead not found.';
const MODULE = 'module_leads';

const EDITABLE_FIELDS = Object.keys(leadBody.shape) as (keyof LeadValues)[];

async function requireLead(tx: Transaction, tenantId: string, id: string, options?: { lock: boolean }) {
  const found = await findLead(tx, tenantId, id, options);
  if (!found) throw notFound(NOT_FOUND);
  return found;
}

/** One lead as answered alone: with the customers and leads that look like the same person. */
async function readLead(tx: Transaction, tenantId: string, id: string) {
  const found = await requireLead(tx, tenantId, id);
  const matches = await findLeadMatches(tx, tenantId, {
    email: found.email,
    phone: found.phone,
    exclude_id: found.id,
  });
  // The customer it became is the same person by design, not a warning.
  return { ...found, matches: matches.filter((match) => match.id !== found.customer_id) };
}

/**
 * The assignee must be a user of the agency and the type of interest one of its types; another
 * agency's would otherwise be stored, and shown nowhere.
 */
async function checkParties(tx: Transaction, tenantId: string, values: LeadValues) {
  const { assigneeFound, policyTypeFound } = await findLeadParties(tx, tenantId, values);
  const messages: Record<string, string[]> = {};
  if (!assigneeFound) messages.assigned_user_id = ['No user of your agency with this id.'];
  if (!policyTypeFound) messages.policy_type_id = ['No policy type with this id.'];
  if (Object.keys(messages).length > 0) throw new HttpError(400, messages);
}

/** The pipeline of people who may buy, up to the moment they become customers. */
export const leadRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(
      exportRoute(ctx, {
        path: '/leads/export/',
        module: MODULE,
        tags,
        summary: 'Leads as a CSV or XLSX file',
        description:
          "Every lead the list's `search`, filters and `ordering` match, in the list's order; follow-ups and dates in the agency's time zone.",
        querystring: leadExportQuery,
        list: 'leads',
        sheet: 'Leads',
        columns: leadFile.columns,
        rows: exportLeads,
      }),
    );

    app.get(
      '/leads/',
      {
        schema: {
          tags,
          summary: 'Leads, searched, filtered and sorted',
          description:
            '`search` matches names, email and phone; with three or more digits it also matches the phone whatever its spacing. `ordering=status` follows the pipeline (new to lost).',
          security: bearerAuth,
          querystring: leadListQuery,
          response: { 200: leadPage, ...errors },
        },
      },
      async (request) => {
        const { count, results } = await withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          listLeads(tx, tenantId, request.query),
        );
        return pageOf(request, request.query, count, results);
      },
    );

    app.post(
      '/leads/',
      {
        schema: {
          tags,
          summary: 'Add a lead',
          description:
            '402 once the agency has as many leads as its plan allows. Its first status is recorded on its timeline.',
          security: bearerAuth,
          body: leadBody,
          response: { 201: leadDetail, ...errors },
        },
      },
      async (request, reply) => {
        const created = await withModule(ctx, request, MODULE, async (tx, { tenantId, userId }) => {
          await checkParties(tx, tenantId, request.body);
          await assertBelowLimit(tx, tenantId, 'leads');
          await actAs(tx, userId);
          const id = await createLead(tx, tenantId, request.body);
          await auditTrail(tx, request).created('lead', id);
          return readLead(tx, tenantId, id);
        });
        return reply.code(201).send(created);
      },
    );

    app.get(
      '/leads/stats/',
      {
        schema: {
          tags,
          summary: 'Leads by status, the open pipeline and the conversion rate',
          description:
            "Counts and `open_pipeline_premium` are as of now. `conversion_rate` = won / (won + lost) among the leads closed in the period: those whose last move to won or lost falls between `date_from` and `date_to` (the agency's days, both included; the last 30 days by default). A lead reopened since then is not counted.",
          security: bearerAuth,
          querystring: leadStatsQuery,
          response: { 200: leadStats, ...errors },
        },
      },
      async (request) => {
        const { date_from, date_to } = request.query;
        if (date_from && date_to && date_from > date_to) {
          throw new HttpError(400, { date_to: ['The period must end on or after its first day.'] });
        }
        return withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          summarizeLeads(tx, tenantId, request.query),
        );
      },
    );

    app.get(
      '/leads/assignees/',
      {
        schema: {
          tags,
          summary: 'The users of the agency a lead can be assigned to',
          security: bearerAuth,
          response: { 200: leadAssigneeList, ...errors },
        },
      },
      async (request) => {
        const results = await withModule(ctx, request, MODULE, (tx) => listAssignees(tx));
        return { results };
      },
    );

    app.get(
      '/leads/duplicates/',
      {
        schema: {
          tags,
          summary: 'Customers and leads with the same email or phone',
          description:
            'For warning a broker while they type. Email is compared without case, phone by its digits (six or more); blank values are ignored. Customers first (at most five), then leads (at most five).',
          security: bearerAuth,
          querystring: leadMatchQuery,
          response: { 200: leadMatchList, ...errors },
        },
      },
      async (request) => {
        const results = await withModule(ctx, request, MODULE, (tx, { tenantId }) =>
          findLeadMatches(tx, tenantId, request.query),
        );
        return { results };
      },
    );

    app.get(
      '/leads/:id/',
      {
        schema: {
          tags,
          summary: 'One lead, with the customers and leads that match it',
          security: bearerAuth,
          params: idParams,
          response: { 200: leadDetail, ...errors },
        },
      },
      async (request) =>
        withModule(ctx, request, MODULE, (tx, { tenantId }) => readLead(tx, tenantId, request.params.id)),
    );

    /** Replaces a lead's fields; a changed status goes on its timeline through the trigger. */
    const saveLead = async (tx: Transaction, request: FastifyRequest, id: string, values: LeadValues) => {
      const { tenantId, userId } = signedInUser(request);
      await checkParties(tx, tenantId, values);
      await actAs(tx, userId);
      await auditTrail(tx, request).changed('lead', id, () => updateLead(tx, tenantId, id, values));
      return readLead(tx, tenantId, id);
    };

    app.put(
      '/leads/:id/',
      {
        schema: {
          tags,
          summary: 'Replace a lead',
          description: 'A change of status is recorded on the timeline with who made it and when.',
          security: bearerAuth,
          params: idParams,
          body: leadBody,
          response: { 200: leadDetail, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        return withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          await requireLead(tx, tenantId, id, { lock: true });
          return saveLead(tx, request, id, request.body);
        });
      },
    );

    app.patch(
      '/leads/:id/',
      {
        schema: {
          tags,
          summary: 'Change some fields of a lead (its status, say)',
          description:
            'Fields not named keep their stored values; the result is checked as a whole lead (moving to `lost` needs `lost_reason`). A change of status is recorded on the timeline.',
          security: bearerAuth,
          params: idParams,
          body: leadPatchBody,
          response: { 200: leadDetail, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        return withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const stored = await requireLead(tx, tenantId, id, { lock: true });
          const current = Object.fromEntries(EDITABLE_FIELDS.map((field) => [field, stored[field]]));
          return saveLead(tx, request, id, parseWith(leadBody, { ...current, ...request.body }));
        });
      },
    );

    app.delete(
      '/leads/:id/',
      {
        schema: {
          tags,
          summary: 'Delete a lead and its timeline',
          description: 'A customer it was converted into stays.',
          security: bearerAuth,
          params: idParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          const { id } = request.params;
          const deleted = await auditTrail(tx, request).changed('lead', id, () =>
            deleteLead(tx, tenantId, id),
          );
          if (!deleted) throw notFound(NOT_FOUND);
        });
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/leads/:id/activities/',
      {
        schema: {
          tags,
          summary: "A lead's timeline, latest first",
          description: 'Calls, emails, meetings and notes logged by brokers, and every change of status.',
          security: bearerAuth,
          params: idParams,
          response: { 200: leadActivityList, ...errors },
        },
      },
      async (request) => {
        const results = await withModule(ctx, request, MODULE, async (tx, { tenantId }) => {
          await requireLead(tx, tenantId, request.params.id);
          return listActivities(tx, tenantId, request.params.id);
        });
        return { results };
      },
    );

    app.post(
      '/leads/:id/activities/',
      {
        schema: {
          tags,
          summary: 'Log a call, email, meeting or note on a lead',
          description: 'Recorded as the signed-in user; status changes are recorded by the server alone.',
          security: bearerAuth,
          params: idParams,
          body: leadActivityBody,
          response: { 201: leadActivityList.shape.results.element, ...errors },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const activity = await withModule(ctx, request, MODULE, async (tx, { tenantId, userId }) => {
          await requireLead(tx, tenantId, id);
          const activityId = await addActivity(tx, tenantId, id, userId, request.body);
          const all = await listActivities(tx, tenantId, id);
          const added = all.find((row) => row.id === activityId);
          if (!added) throw new Error('the activity just added is missing');
          return added;
        });
        return reply.code(201).send(activity);
      },
    );

    app.post(
      '/leads/:id/convert/',
      {
        schema: {
          tags,
          summary: 'Turn a lead into a customer',
          description:
            "Without a body (or without `customer_id`), creates a customer from the lead's name, business, email, phone and notes, links the two and marks the lead won (201). With `customer_id`, links the lead to that existing customer of the agency instead, typically one of the lead's matches, so the same person is not entered twice: the lead is marked won and linked both ways as in a conversion, nothing is created and the plan's customer limit is not used (200, `created: false`); 400 on `customer_id` when the agency has no such customer; 409 when that customer already came from another lead (a customer is linked to one lead only). A lead already converted answers its customer (200) and creates nothing; naming another customer for it is a 409. Needs the plan's Customers module besides Leads (403); 402 when the plan's customer limit is reached on creating; 422 when a business lead to create a customer from has no contact name yet.",
          security: bearerAuth,
          params: idParams,
          body: leadConversionBody.nullish(),
          response: {
            200: leadConversion,
            201: leadConversion,
            409: detailResponse,
            422: detailResponse,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        // It makes a customer: the plan must include customers as well as leads.
        const modules = [MODULE, 'module_customers'] as const;
        const conversion = await withModule(ctx, request, modules, async (tx, { tenantId, userId }) => {
          await actAs(tx, userId);
          const trail = auditTrail(tx, request);
          const { created, customer } = await trail.changed('lead', id, () =>
            convertLead(tx, tenantId, id, request.body?.customer_id),
          );
          if (created) await trail.created('customer', customer.id);
          return { created, customer, lead: await readLead(tx, tenantId, id) };
        });
        return reply.code(conversion.created ? 201 : 200).send({
          created: conversion.created,
          customer: { id: conversion.customer.id, display_name: conversion.customer.display_name },
          lead: conversion.lead,
        });
      },
    );
  };
