import {
  detailResponse,
  fieldErrorsResponse,
  type TeamSettings,
  TWO_STEP_GRACE_DAYS,
  teamMember,
  teamMemberList,
  teamMemberPatchBody,
  teamSettings,
  teamSettingsPatchBody,
  uuid,
} from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/client.js';
import { agencyToday, asConnectingRole, withTenant } from '../../db/tenant.js';
import { bearerAuth, requireOwnership, requireRole, signedInUser } from '../../http/authenticate.js';
import { conflict, fieldError, notFound } from '../../http/errors.js';
import { displayName } from '../accounts/queries.js';
import { users } from '../accounts/tables.js';
import { revokeUserSessions } from '../accounts/tokens.js';
import { auditOrigin, changedFields, recordAudit } from '../audit/record.js';
import { assertBelowLimit } from '../billing/usage.js';
import { tenants } from '../tenants/tables.js';
import { actorEmail, changeTeam } from './change.js';
import {
  changeShare,
  findMember,
  listMembers,
  type MemberRow,
  memberLeft,
  otherActiveOwners,
  reassignBook,
  shareOn,
  toMember,
} from './queries.js';

const tags = ['team'];
const idParams = z.object({ id: uuid });
const errors = { 400: fieldErrorsResponse, 403: detailResponse, 404: detailResponse };
const LAST_OWNER = 'The agency needs at least one active owner: make another member an owner first.';
const NO_MEMBER = 'No member of your agency has this id.';
const SHARE_NOT_BEFORE_TODAY =
  'A share applies to the policies written from its day on: choose today or a later day.';

/** The agency's members, their roles and shares, and the team's rules. */
export const teamRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = ctx;

    app.get(
      '/team/members/',
      {
        schema: {
          tags,
          summary: "The agency's members, owners first",
          security: bearerAuth,
          response: { 200: teamMemberList },
        },
      },
      async (request) => {
        const { tenantId } = signedInUser(request);
        const rows = await withTenant(db, tenantId, (tx) =>
          asConnectingRole(tx, () => listMembers(tx, tenantId)),
        );
        return { results: rows.map(toMember) };
      },
    );

    app.patch(
      '/team/members/:id/',
      {
        config: { action: 'team' },
        schema: {
          tags,
          summary: 'Change a member: role, active or not (handing their book on), commission share',
          description:
            'A new role or deactivation ends the member’s sessions at once: they sign in again with the new role, or not at all. The agency keeps at least one active owner (409). `reassign_to` hands a deactivated member’s customers, policies, claims and leads to an active member who is not a viewer (400 otherwise) to look after: only their assignee changes, and each term stays credited to the member who wrote it (its producer), so the producers’ report of any period is the same before and after. A new `commission_split_percentage` applies from `commission_split_effective_from` (the agency’s today when left out; a day before it answers 400) to the terms written from then on, new policies and renewals; terms already written keep the share they recorded.',
          security: bearerAuth,
          params: idParams,
          body: teamMemberPatchBody,
          response: { 200: teamMember, ...errors, 402: detailResponse, 409: detailResponse },
        },
      },
      async (request) => {
        const auth = signedInUser(request);
        const body = request.body;
        const updated = await changeTeam(ctx, request, async (tx) => {
          const target = await findMember(tx, auth.tenantId, request.params.id, { lock: true });
          if (!target) throw notFound(NO_MEMBER);
          requireOwnership(auth, [target.role, body.role]);
          const wasActive = target.deactivatedAt === null;
          const deactivating = body.is_active === false && wasActive;
          const reactivating = body.is_active === true && !wasActive;
          const newRole = body.role !== undefined && body.role !== target.role ? body.role : undefined;
          if (deactivating && target.id === auth.userId) {
            throw conflict({ detail: 'You cannot deactivate yourself: ask another owner or manager.' });
          }
          const leavesOwners = target.role === 'owner' && (deactivating || (newRole && newRole !== 'owner'));
          if (leavesOwners && (await otherActiveOwners(tx, auth.tenantId, target.id)) === 0) {
            throw conflict({ detail: LAST_OWNER });
          }
          if (reactivating) await assertBelowLimit(tx, auth.tenantId, 'users');
          let successor: MemberRow | undefined;
          if (deactivating && body.reassign_to) {
            successor = await findMember(tx, auth.tenantId, body.reassign_to);
            if (!successor || successor.id === target.id || successor.deactivatedAt || successor.disabledAt) {
              throw fieldError(
                'reassign_to',
                'Choose an active member of your agency other than the one leaving.',
              );
            }
            // A viewer may not change the book, so could not look after what they were handed.
            if (successor.role === 'viewer') {
              throw fieldError('reassign_to', 'A viewer cannot look after customers: choose another member.');
            }
          }
          const changes: Record<string, { before: unknown; after: unknown }> = {};
          if (body.commission_split_percentage !== undefined) {
            const today = await agencyToday(tx);
            const from = body.commission_split_effective_from ?? today;
            // Terms already written keep their share: a change dated before today would say otherwise.
            if (from < today) throw fieldError('commission_split_effective_from', SHARE_NOT_BEFORE_TODAY);
            const before = await shareOn(tx, target.id, from);
            if (Number(before) !== Number(body.commission_split_percentage)) {
              await changeShare(tx, auth.tenantId, target.id, body.commission_split_percentage, from);
              changes.commission_split_percentage = { before, after: body.commission_split_percentage };
              changes.commission_split_effective_from = { before: null, after: from };
            }
          }
          const values = {
            ...(newRole ? { role: newRole } : {}),
            ...(deactivating ? { deactivatedAt: new Date() } : {}),
            ...(reactivating ? { deactivatedAt: null } : {}),
          };
          // Asked to be what it already is (active, say): nothing to write.
          if (Object.keys(values).length === 0 && Object.keys(changes).length === 0) return target;
          if (Object.keys(values).length > 0) {
            await tx.update(users).set(values).where(eq(users.id, target.id));
          }
          if (newRole) changes.role = { before: target.role, after: newRole };
          if (deactivating || reactivating) changes.is_active = { before: wasActive, after: !wasActive };
          // A token carries its role, and a deactivated member must not go on: end their sessions.
          if (newRole || deactivating) {
            const ended = await revokeUserSessions(tx, target.id);
            ctx.revokedSessions.add(ended);
          }
          if (deactivating) {
            await memberLeft(tx, target.id);
            if (successor) {
              changes.book = {
                before: displayName(target),
                after: `${displayName(successor)} (${await reassignBook(tx, auth.tenantId, target.id, successor.id)} records)`,
              };
            }
          }
          await recordAudit(tx, auditOrigin(request), {
            tenantId: auth.tenantId,
            userId: auth.userId,
            actorEmail: await actorEmail(tx, auth.userId),
            action: deactivating
              ? 'member_deactivated'
              : reactivating
                ? 'member_reactivated'
                : 'member_changed',
            entity: 'user',
            entityId: target.id,
            changes,
          });
          const row = await findMember(tx, auth.tenantId, target.id);
          if (!row) throw notFound(NO_MEMBER);
          return row;
        });
        return toMember(updated);
      },
    );

    app.get(
      '/team/settings/',
      {
        schema: {
          tags,
          summary: "The team's rules: agents' own book, two-step sign-in for everyone",
          security: bearerAuth,
          response: { 200: teamSettings },
        },
      },
      async (request) => toSettings(await findTeamSettings(db, signedInUser(request).tenantId)),
    );

    app.patch(
      '/team/settings/',
      {
        config: { action: 'agency_settings' },
        schema: {
          tags,
          summary: "Change the team's rules",
          description: `Requiring two-step sign-in takes an owner; each member then has ${TWO_STEP_GRACE_DAYS} days to turn it on (or from joining, if later), after which only their own account's routes answer them until they do.`,
          security: bearerAuth,
          body: teamSettingsPatchBody,
          response: { 200: teamSettings, ...errors, 402: detailResponse },
        },
      },
      async (request) => {
        const auth = signedInUser(request);
        const { agents_see_own_book, require_two_step } = request.body;
        if (require_two_step !== undefined) requireRole(auth, 'agency_security');
        const after = await changeTeam(ctx, request, async (tx) => {
          const before = await findTeamSettings(tx, auth.tenantId, { lock: true });
          const [row] = await tx
            .update(tenants)
            .set({
              ...(agents_see_own_book !== undefined ? { agentsSeeOwnBook: agents_see_own_book } : {}),
              // Turned on again, even after a while off, it keeps its first date: no member's grace
              // starts over.
              ...(require_two_step !== undefined
                ? {
                    requireTwoStepSince: require_two_step
                      ? (before.requireTwoStepSince ?? before.twoStepFirstRequired ?? new Date())
                      : null,
                    twoStepFirstRequired: before.requireTwoStepSince ?? before.twoStepFirstRequired,
                  }
                : {}),
            })
            .where(eq(tenants.id, auth.tenantId))
            .returning({
              agentsSeeOwnBook: tenants.agentsSeeOwnBook,
              requireTwoStepSince: tenants.requireTwoStepSince,
            });
          if (!row) throw notFound('No agency.');
          await recordAudit(tx, auditOrigin(request), {
            tenantId: auth.tenantId,
            userId: auth.userId,
            actorEmail: await actorEmail(tx, auth.userId),
            action: 'team_settings_changed',
            entity: 'agency',
            entityId: auth.tenantId,
            changes: changedFields(toSettings(before), toSettings(row)),
          });
          return row;
        });
        return toSettings(after);
      },
    );
  };

/** The team's rules as stored on the agency. */
async function findTeamSettings(executor: Executor, tenantId: string, options?: { lock: boolean }) {
  const query = executor
    .select({
      agentsSeeOwnBook: tenants.agentsSeeOwnBook,
      requireTwoStepSince: tenants.requireTwoStepSince,
      twoStepFirstRequired: tenants.twoStepFirstRequired,
    })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  const [row] = await (options?.lock ? query.for('update') : query);
  if (!row) throw notFound('No agency.');
  return row;
}

const toSettings = (row: { agentsSeeOwnBook: boolean; requireTwoStepSince: Date | null }): TeamSettings => ({
  agents_see_own_book: row.agentsSeeOwnBook,
  require_two_step: row.requireTwoStepSince !== null,
  require_two_step_since: row.requireTwoStepSince?.toISOString() ?? null,
});
