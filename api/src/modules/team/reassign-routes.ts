import { detailResponse, fieldErrorsResponse, reassignBody, reassignResult } from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { bearerAuth } from '../../http/authenticate.js';
import { notFound } from '../../http/errors.js';
import { auditOrigin } from '../audit/record.js';
import { auditLog } from '../audit/tables.js';
import { agencyUserEmail } from '../audit/trail.js';
import { withModule } from '../billing/access.js';
import { assertAssignee } from './assignees.js';
import { type AssignedKind, assignedEntity, assignRows, lockAssigned } from './queries.js';

const errors = { 400: fieldErrorsResponse, 403: detailResponse, 404: detailResponse, 402: detailResponse };

/** The body's lists of ids, by the kind of record they name, with the 404 a missing id answers. */
const REASSIGNED = [
  { kind: 'customers', field: 'customer_ids', missing: 'No customer of your agency has the id' },
  { kind: 'policies', field: 'policy_ids', missing: 'No policy of your agency has the id' },
  { kind: 'claims', field: 'claim_ids', missing: 'No claim of your agency has the id' },
  { kind: 'leads', field: 'lead_ids', missing: 'No lead of your agency has the id' },
] as const satisfies readonly { kind: AssignedKind; field: string; missing: string }[];

/** Handing records of the book to a member, in bulk. */
export const reassignRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/team/reassign/',
      {
        config: { action: 'team' },
        schema: {
          tags: ['team'],
          summary: 'Hand customers, policies, claims and leads to one member',
          description:
            'At most 1,000 records in all. `to` must be an active member of the agency (400). An id the agency has no record of, another agency’s included, answers 404 and nothing changes. Each record that changes hands is written to the audit log; records already with the member stay as they are and are not counted. Only who looks after a record changes (`assigned_to`): a policy term stays credited to the member who wrote it (its producer), so the producers’ report is the same before and after.',
          security: bearerAuth,
          body: reassignBody,
          response: { 200: reassignResult, ...errors },
        },
      },
      async (request) => {
        const body = request.body;
        return withModule(ctx, request, undefined, async (tx, { tenantId, userId }) => {
          await assertAssignee(tx, body.to, undefined, 'to');
          const result = { customers: 0, policies: 0, claims: 0, leads: 0 };
          const email = await agencyUserEmail(tx, userId);
          const origin = auditOrigin(request);
          for (const { kind, field, missing } of REASSIGNED) {
            const ids = [...new Set(body[field] ?? [])];
            if (ids.length === 0) continue;
            const locked = await lockAssigned(tx, tenantId, kind, ids);
            const [absent] = locked.missing;
            if (absent) throw notFound(`${missing} ${absent}.`);
            const moved = await assignRows(tx, tenantId, kind, ids, body.to);
            result[kind] = moved.length;
            if (moved.length === 0) continue;
            const { entity, field: changed } = assignedEntity(kind);
            await tx.insert(auditLog).values(
              moved.map((id) => ({
                tenantId,
                userId,
                actorEmail: email,
                action: 'update',
                entity,
                entityId: id,
                changes: { [changed]: { before: locked.before.get(id) ?? null, after: body.to } },
                ...origin,
              })),
            );
          }
          return result;
        });
      },
    );
  };
