import {
  acceptInvitationBody,
  createdInvitation,
  detailResponse,
  fieldErrorsResponse,
  INVITATION_DAYS,
  invitationBody,
  invitationList,
  invitationPreview,
  invitationToken,
  reassignBody,
  reassignResult,
  registerResponse,
  TEAM_ROLE_LABELS,
  type TeamMemberPatchBody,
  teamMember,
  teamMemberList,
  teamMemberPatchBody,
  teamSettings,
  teamSettingsPatchBody,
  uuid,
} from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { asConnectingRole, withTenant } from '../../db/tenant.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { conflict, fieldError, HttpError, notFound } from '../../http/errors.js';
import { hashPassword } from '../accounts/passwords.js';
import { displayName, findUserByEmail, findUserById } from '../accounts/queries.js';
import { assertAcceptablePassword, startSession } from '../accounts/service.js';
import { users } from '../accounts/tables.js';
import { deviceOf, hashToken, randomToken, revokeUserSessions } from '../accounts/tokens.js';
import { auditOrigin, recordAudit } from '../audit/record.js';
import { auditLog } from '../audit/tables.js';
import { agencyUserEmail } from '../audit/trail.js';
import { withModule } from '../billing/access.js';
import { assertBelowLimit } from '../billing/usage.js';
import { isDemoAgency } from '../tenants/queries.js';
import { tenants } from '../tenants/tables.js';
import { assertAssignee } from './assignees.js';
import {
  type AssignedKind,
  assignedEntity,
  assignRows,
  findInvitation,
  findInvitationByToken,
  findMember,
  inviterName,
  listInvitations,
  listMembers,
  lockAssigned,
  type MemberRow,
  memberLeft,
  otherActiveOwners,
  reassignBook,
  replaceInvitation,
  spendInvitation,
  toInvitation,
  toMember,
  withdrawInvitation,
} from './queries.js';

const tags = ['team'];
const idParams = z.object({ id: uuid });
const errors = { 400: fieldErrorsResponse, 403: detailResponse, 404: detailResponse };
const DEMO_TEAM =
  "The demo agency's team is fixed: register your own agency to invite colleagues and give them roles.";
const LAST_OWNER = 'The agency needs at least one active owner: make another member an owner first.';
const NO_MEMBER = 'No member of your agency has this id.';
const NO_INVITATION = 'This invitation link is not valid: ask for a new one.';

const refuse = (detail: string) => new HttpError(403, { detail });

/** The body's lists of ids, by the kind of record they name, with the 404 a missing id answers. */
const REASSIGNED = [
  { kind: 'customers', field: 'customer_ids', missing: 'No customer of your agency has the id' },
  { kind: 'policies', field: 'policy_ids', missing: 'No policy of your agency has the id' },
  { kind: 'claims', field: 'claim_ids', missing: 'No claim of your agency has the id' },
  { kind: 'leads', field: 'lead_ids', missing: 'No lead of your agency has the id' },
] as const satisfies readonly { kind: AssignedKind; field: string; missing: string }[];

/** The demo agency is shared by every visitor: its team is not theirs to change. */
async function refuseDemo(tx: Transaction, tenantId: string) {
  // `tenants` is a platform table, which the tenant role may not read.
  if (await asConnectingRole(tx, () => isDemoAgency(tx, tenantId))) throw refuse(DEMO_TEAM);
}

/** Making or unmaking an owner, or changing one, takes an owner ("manager: all but ownership"). */
function assertOwnershipAllowed(actorRole: string, target: MemberRow, body: TeamMemberPatchBody) {
  const touchesOwner = target.role === 'owner' || body.role === 'owner';
  if (touchesOwner && actorRole !== 'owner') {
    throw refuse('Only an owner can make someone an owner, or change an owner.');
  }
}

/** Invitations, members, their roles and shares, and the team's rules. */
export const teamRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { config, db, mailer } = ctx;

    /** Runs a change to the team in the agency's transaction, as the connecting role (users are platform rows). */
    const changeTeam = <T>(request: FastifyRequest, work: (tx: Transaction) => Promise<T>) => {
      const { tenantId } = signedInUser(request);
      return withTenant(db, tenantId, async (tx) => {
        await refuseDemo(tx, tenantId);
        return work(tx);
      });
    };

    const actorEmail = async (tx: Transaction, userId: string) =>
      (await findUserById(tx, userId))?.email ?? null;

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
        const rows = await listMembers(db, signedInUser(request).tenantId);
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
            'A new role or deactivation ends the member’s sessions at once: they sign in again with the new role, or not at all. The agency keeps at least one active owner (409).',
          security: bearerAuth,
          params: idParams,
          body: teamMemberPatchBody,
          response: { 200: teamMember, ...errors, 402: detailResponse, 409: detailResponse },
        },
      },
      async (request) => {
        const auth = signedInUser(request);
        const body = request.body;
        const updated = await changeTeam(request, (tx) =>
          asConnectingRole(tx, async () => {
            const target = await findMember(tx, auth.tenantId, request.params.id, { lock: true });
            if (!target) throw notFound(NO_MEMBER);
            assertOwnershipAllowed(auth.role, target, body);
            const wasActive = target.deactivatedAt === null;
            const deactivating = body.is_active === false && wasActive;
            const reactivating = body.is_active === true && !wasActive;
            const newRole = body.role !== undefined && body.role !== target.role ? body.role : undefined;
            if (deactivating && target.id === auth.userId) {
              throw conflict({ detail: 'You cannot deactivate yourself: ask another owner or manager.' });
            }
            const leavesOwners =
              target.role === 'owner' && (deactivating || (newRole && newRole !== 'owner'));
            if (leavesOwners && (await otherActiveOwners(tx, auth.tenantId, target.id)) === 0) {
              throw conflict({ detail: LAST_OWNER });
            }
            if (reactivating) await assertBelowLimit(tx, auth.tenantId, 'users');
            let successor: MemberRow | undefined;
            if (deactivating && body.reassign_to) {
              successor = await findMember(tx, auth.tenantId, body.reassign_to);
              if (
                !successor ||
                successor.id === target.id ||
                successor.deactivatedAt ||
                successor.disabledAt
              ) {
                throw fieldError(
                  'reassign_to',
                  'Choose an active member of your agency other than the one leaving.',
                );
              }
            }
            const [row] = await tx
              .update(users)
              .set({
                ...(newRole ? { role: newRole } : {}),
                ...(body.commission_split_percentage !== undefined
                  ? { commissionSplitPercentage: body.commission_split_percentage }
                  : {}),
                ...(deactivating ? { deactivatedAt: new Date() } : {}),
                ...(reactivating ? { deactivatedAt: null } : {}),
              })
              .where(eq(users.id, target.id))
              .returning();
            if (!row) throw notFound(NO_MEMBER);
            const changes: Record<string, { before: unknown; after: unknown }> = {};
            if (newRole) changes.role = { before: target.role, after: newRole };
            if (deactivating || reactivating) changes.is_active = { before: wasActive, after: !wasActive };
            if (
              body.commission_split_percentage !== undefined &&
              body.commission_split_percentage !== target.commissionSplitPercentage
            ) {
              changes.commission_split_percentage = {
                before: target.commissionSplitPercentage,
                after: body.commission_split_percentage,
              };
            }
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
            return { ...target, ...row };
          }),
        );
        return toMember(updated);
      },
    );

    app.get(
      '/team/invitations/',
      {
        config: { action: 'team' },
        schema: {
          tags,
          summary: 'Invitations still open, newest first',
          security: bearerAuth,
          response: { 200: invitationList },
        },
      },
      async (request) => ({ results: await listInvitations(db, signedInUser(request).tenantId) }),
    );

    app.post(
      '/team/invitations/',
      {
        config: { action: 'team' },
        schema: {
          tags,
          summary: 'Invite someone by email with a role (the link is good for 7 days, once)',
          description:
            'Inviting an address again replaces its open invitation with a new link. Members and open invitations count against the plan’s users (402).',
          security: bearerAuth,
          body: invitationBody,
          response: { 201: createdInvitation, ...errors, 402: detailResponse },
        },
      },
      async (request, reply) => {
        const auth = signedInUser(request);
        const { email, role } = request.body;
        if (role === 'owner' && auth.role !== 'owner')
          throw refuse('Only an owner can invite another owner.');
        if (await findUserByEmail(db, email)) {
          throw fieldError(
            'email',
            'This person already has a Coverdesk account, so they cannot join another agency.',
          );
        }
        const { token, tokenHash } = randomToken();
        const expiresAt = new Date(Date.now() + INVITATION_DAYS * 86_400_000);
        // Invitations are platform rows, written as the connecting role.
        const created = await changeTeam(request, (tx) =>
          asConnectingRole(tx, async () => {
            // An earlier invitation to this address gives its place to the new one before counting.
            const id = await replaceInvitation(tx, {
              tenantId: auth.tenantId,
              email,
              role,
              tokenHash,
              invitedBy: auth.userId,
              expiresAt,
            }).catch((error: unknown) => {
              if (isUniqueViolation(error))
                throw conflict({ detail: 'This address was invited a moment ago.' });
              throw error;
            });
            await assertBelowLimit(tx, auth.tenantId, 'users');
            await recordAudit(tx, auditOrigin(request), {
              tenantId: auth.tenantId,
              userId: auth.userId,
              actorEmail: await asConnectingRole(tx, () => actorEmail(tx, auth.userId)),
              action: 'member_invited',
              entity: 'invitation',
              entityId: id,
              changes: { email: { before: null, after: email }, role: { before: null, after: role } },
            });
            const [agency] = await asConnectingRole(tx, () =>
              tx.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, auth.tenantId)),
            );
            const invitation = await asConnectingRole(tx, () => findInvitation(tx, auth.tenantId, id));
            if (!invitation || !agency) throw new Error('invitation missing after insert');
            return { invitation, agency: agency.name };
          }),
        );
        const inviteUrl = `${config.appUrl}/invite/${token}`;
        const who = inviterName(created.invitation);
        // Sent after the commit; the link is in the answer too, for the inviter to pass on if mail is slow.
        await mailer
          .send({
            to: email,
            subject: `${who} invited you to ${created.agency} on Coverdesk`,
            text: [
              'Hello,',
              '',
              `${who} invited you to join ${created.agency} on Coverdesk as ${articled(TEAM_ROLE_LABELS[role])}.`,
              '',
              `Accept the invitation and choose your password here (the link works once, for ${INVITATION_DAYS} days):`,
              inviteUrl,
              '',
              'If you were not expecting this, you can ignore this email.',
              '',
              'Coverdesk',
            ].join('\n'),
          })
          .catch((err: unknown) => request.log.error({ err }, 'invitation email failed'));
        return reply.code(201).send({ ...toInvitation(created.invitation), invite_url: inviteUrl });
      },
    );

    app.delete(
      '/team/invitations/:id/',
      {
        config: { action: 'team' },
        schema: {
          tags,
          summary: 'Withdraw an open invitation: its link stops working',
          security: bearerAuth,
          params: idParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const auth = signedInUser(request);
        await changeTeam(request, async (tx) => {
          const invitation = await asConnectingRole(tx, () =>
            findInvitation(tx, auth.tenantId, request.params.id),
          );
          // Only while still open: accepted meanwhile, it is a member now.
          if (!invitation || !(await asConnectingRole(tx, () => withdrawInvitation(tx, invitation.id)))) {
            throw notFound('No open invitation has this id.');
          }
          await recordAudit(tx, auditOrigin(request), {
            tenantId: auth.tenantId,
            userId: auth.userId,
            actorEmail: await asConnectingRole(tx, () => actorEmail(tx, auth.userId)),
            action: 'invitation_withdrawn',
            entity: 'invitation',
            entityId: invitation.id,
            changes: { email: { before: invitation.email, after: null } },
          });
        });
        return reply.code(204).send(null);
      },
    );

    /** The invitation a token opens, or why it opens none (404 unknown or withdrawn, 410 used or expired). */
    async function openInvitation(token: string) {
      const invitation = await findInvitationByToken(db, hashToken(token));
      if (!invitation) throw notFound(NO_INVITATION);
      if (invitation.acceptedAt) {
        throw new HttpError(410, {
          detail: 'This invitation has been used already. Sign in with your email and password.',
        });
      }
      if (invitation.expiresAt.getTime() <= Date.now()) {
        throw new HttpError(410, { detail: 'This invitation has expired. Ask your agency for a new one.' });
      }
      return invitation;
    }

    app.post(
      '/team/invitations/preview/',
      {
        schema: {
          tags,
          summary: 'What an invitation offers: the agency, the role and who sent it',
          description: 'The token travels in the body, so it stays out of addresses and logs.',
          body: z.object({ token: invitationToken }),
          response: { 200: invitationPreview, 404: detailResponse, 410: detailResponse },
        },
      },
      async (request) => {
        const invitation = await openInvitation(request.body.token);
        return {
          email: invitation.email,
          role: invitation.role,
          company_name: invitation.companyName,
          invited_by_name: inviterName(invitation),
          expires_at: invitation.expiresAt.toISOString(),
        };
      },
    );

    app.post(
      '/team/invitations/accept/',
      {
        schema: {
          tags,
          summary: 'Join the agency: the invited person chooses a password and is signed in',
          body: acceptInvitationBody,
          response: {
            201: registerResponse,
            400: fieldErrorsResponse,
            404: detailResponse,
            410: detailResponse,
          },
        },
      },
      async (request, reply) => {
        const { token, password, first_name, last_name } = request.body;
        const invitation = await openInvitation(token);
        assertAcceptablePassword('password', password, [
          invitation.email,
          invitation.email.split('@')[0] ?? '',
          first_name,
          last_name,
        ]);
        const passwordHash = await hashPassword(password);
        const session = await withTenant(db, invitation.tenantId, (tx) =>
          asConnectingRole(tx, async () => {
            if (!(await spendInvitation(tx, invitation.id))) {
              throw new HttpError(410, { detail: 'This invitation has been used or has expired.' });
            }
            const [user] = await tx
              .insert(users)
              .values({
                tenantId: invitation.tenantId,
                email: invitation.email,
                passwordHash,
                firstName: first_name,
                lastName: last_name,
                role: invitation.role,
              })
              .returning({ id: users.id });
            if (!user) throw new Error('user insert returned nothing');
            await recordAudit(tx, auditOrigin(request), {
              tenantId: invitation.tenantId,
              userId: user.id,
              actorEmail: invitation.email,
              action: 'invitation_accepted',
              entity: 'user',
              entityId: user.id,
              changes: { role: { before: null, after: invitation.role } },
            });
            return startSession(tx, user.id, invitation.tenantId, config.jwtSecret, {
              ...deviceOf(request),
              twoStep: false,
            });
          }),
        ).catch((error: unknown) => {
          // Someone registered the address since the invitation was sent.
          if (isUniqueViolation(error))
            throw fieldError('password', 'This email address has an account already: sign in instead.');
          throw error;
        });
        return reply.code(201).send(session);
      },
    );

    app.post(
      '/team/reassign/',
      {
        config: { action: 'team' },
        schema: {
          tags,
          summary: 'Hand customers, policies, claims and leads to one member',
          description:
            'At most 1,000 records in all. `to` must be an active member of the agency (400). An id the agency has no record of, another agency’s included, answers 404 and nothing changes. Each record that changes hands is written to the audit log; records already with the member stay as they are and are not counted.',
          security: bearerAuth,
          body: reassignBody,
          response: { 200: reassignResult, ...errors, 402: detailResponse },
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

    app.get(
      '/team/settings/',
      {
        schema: {
          tags,
          summary: "The team's rules: whether agents see only their own book",
          security: bearerAuth,
          response: { 200: teamSettings },
        },
      },
      async (request) => {
        const [row] = await db
          .select({ agentsSeeOwnBook: tenants.agentsSeeOwnBook })
          .from(tenants)
          .where(eq(tenants.id, signedInUser(request).tenantId));
        return { agents_see_own_book: row?.agentsSeeOwnBook ?? false };
      },
    );

    app.patch(
      '/team/settings/',
      {
        config: { action: 'agency_settings' },
        schema: {
          tags,
          summary: "Change the team's rules",
          security: bearerAuth,
          body: teamSettingsPatchBody,
          response: { 200: teamSettings, ...errors },
        },
      },
      async (request) => {
        const auth = signedInUser(request);
        const next = request.body.agents_see_own_book;
        await changeTeam(request, async (tx) => {
          const before = await asConnectingRole(tx, async () => {
            const [row] = await tx
              .select({ agentsSeeOwnBook: tenants.agentsSeeOwnBook })
              .from(tenants)
              .where(eq(tenants.id, auth.tenantId))
              .for('update');
            await tx.update(tenants).set({ agentsSeeOwnBook: next }).where(eq(tenants.id, auth.tenantId));
            return row?.agentsSeeOwnBook ?? false;
          });
          await recordAudit(tx, auditOrigin(request), {
            tenantId: auth.tenantId,
            userId: auth.userId,
            actorEmail: await asConnectingRole(tx, () => actorEmail(tx, auth.userId)),
            action: 'team_settings_changed',
            entity: 'agency',
            entityId: auth.tenantId,
            changes: { agents_see_own_book: { before, after: next } },
          });
        });
        return { agents_see_own_book: next };
      },
    );
  };

const articled = (label: string) => (/^[AEIOU]/.test(label) ? `an ${label}` : `a ${label}`);
