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
  registerResponse,
  TEAM_ROLE_LABELS,
  uuid,
} from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/errors.js';
import { asConnectingRole, withTenant } from '../../db/tenant.js';
import { bearerAuth, requireOwnership, signedInUser } from '../../http/authenticate.js';
import { conflict, fieldError, HttpError, notFound } from '../../http/errors.js';
import { hashPassword } from '../accounts/passwords.js';
import { findUserByEmail } from '../accounts/queries.js';
import { assertAcceptablePassword, startSession } from '../accounts/service.js';
import { users } from '../accounts/tables.js';
import { deviceOf, hashToken, randomToken } from '../accounts/tokens.js';
import { auditOrigin, recordAudit } from '../audit/record.js';
import { assertBelowLimit } from '../billing/usage.js';
import { linkEmail } from '../mail/html.js';
import { tenants } from '../tenants/tables.js';
import { consumeAttempt, refundAttempt } from '../throttle/throttle.js';
import { actorEmail, changeTeam } from './change.js';
import {
  dropOpenInvitationTo,
  findInvitation,
  findInvitationByToken,
  insertInvitation,
  inviterName,
  listInvitations,
  recordEmailSent,
  renewInvitationToken,
  spendInvitation,
  toInvitation,
  withdrawInvitation,
} from './queries.js';

const TOO_MANY_TRIES = 'Too many tries with invitation links from this address. Try again in a few minutes.';
/** Tries with invitation links from one address, as many as sign-in allows it. */
const invitationTries = (ip: string) => ({ key: `invitation:ip:${ip}`, limit: 30, windowSeconds: 15 * 60 });
const tags = ['team'];
const idParams = z.object({ id: uuid });
const errors = { 400: fieldErrorsResponse, 403: detailResponse, 404: detailResponse };
const NO_INVITATION = 'This invitation link is not valid: ask for a new one.';

/** Invitations by email: sent, listed and withdrawn by the team's managers, opened and accepted by the invited. */
export const invitationRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { config, db, mailer } = ctx;
    const inviteUrlOf = (token: string) => `${config.appUrl}/invite/${token}`;

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
        requireOwnership(auth, [role]);
        if (await findUserByEmail(db, email)) {
          throw fieldError(
            'email',
            'This person already has a Coverdesk account, so they cannot join another agency.',
          );
        }
        const { token, tokenHash } = randomToken();
        const expiresAt = new Date(Date.now() + INVITATION_DAYS * 86_400_000);
        const created = await changeTeam(ctx, request, async (tx) => {
          // An earlier invitation to this address gives its place to the new one before counting.
          await dropOpenInvitationTo(tx, auth.tenantId, email);
          await assertBelowLimit(tx, auth.tenantId, 'users');
          const id = await insertInvitation(tx, {
            tenantId: auth.tenantId,
            email,
            role,
            tokenHash,
            invitedBy: auth.userId,
            expiresAt,
            emailSent: false,
          }).catch((error: unknown) => {
            if (isUniqueViolation(error))
              throw conflict({ detail: 'This address was invited a moment ago.' });
            throw error;
          });
          await recordAudit(tx, auditOrigin(request), {
            tenantId: auth.tenantId,
            userId: auth.userId,
            actorEmail: await actorEmail(tx, auth.userId),
            action: 'member_invited',
            entity: 'invitation',
            entityId: id,
            changes: { email: { before: null, after: email }, role: { before: null, after: role } },
          });
          const [agency] = await tx
            .select({ name: tenants.name })
            .from(tenants)
            .where(eq(tenants.id, auth.tenantId));
          const invitation = await findInvitation(tx, auth.tenantId, id);
          if (!invitation || !agency) throw new Error('invitation missing after insert');
          return { invitation, agency: agency.name };
        });
        const inviteUrl = inviteUrlOf(token);
        const who = inviterName(created.invitation);
        // Sent after the commit; the link is in the answer too, for the inviter to pass on if mail is slow.
        const emailSent = await mailer
          .send(
            linkEmail({
              to: email,
              subject: `${who} invited you to ${created.agency} on Coverdesk`,
              paragraphs: [
                'Hello,',
                `${who} invited you to join ${created.agency} on Coverdesk as ${articled(TEAM_ROLE_LABELS[role])}.`,
                `Accept the invitation and choose your password here (the link works once, for ${INVITATION_DAYS} days).`,
              ],
              link: { url: inviteUrl, label: 'Accept the invitation' },
              after: ['If you were not expecting this, you can ignore this email.'],
            }),
          )
          .catch((err: unknown) => {
            request.log.error({ err }, 'invitation email failed');
            return false;
          });
        if (emailSent) await recordEmailSent(db, auth.tenantId, created.invitation.id);
        return reply
          .code(201)
          .send({ ...toInvitation(created.invitation), email_sent: emailSent, invite_url: inviteUrl });
      },
    );

    app.post(
      '/team/invitations/:id/link/',
      {
        config: { action: 'team' },
        schema: {
          tags,
          summary: 'A new link for an open invitation, to pass on by hand; the link before stops working',
          description:
            'Only the token’s hash is kept, so a link cannot be shown twice: this one replaces it. No email is sent; the invitation keeps its expiry.',
          security: bearerAuth,
          params: idParams,
          response: { 200: createdInvitation, ...errors, 402: detailResponse },
        },
      },
      async (request) => {
        const auth = signedInUser(request);
        const { token, tokenHash } = randomToken();
        const invitation = await changeTeam(ctx, request, async (tx) => {
          const found = await findInvitation(tx, auth.tenantId, request.params.id);
          // Inviting as an owner takes an owner: so does handing out that invitation's link.
          if (found) requireOwnership(auth, [found.role]);
          if (!found || !(await renewInvitationToken(tx, found.id, tokenHash))) {
            throw notFound('No open invitation has this id.');
          }
          await recordAudit(tx, auditOrigin(request), {
            tenantId: auth.tenantId,
            userId: auth.userId,
            actorEmail: await actorEmail(tx, auth.userId),
            action: 'invitation_link_renewed',
            entity: 'invitation',
            entityId: found.id,
            changes: { email: { before: found.email, after: found.email } },
          });
          return found;
        });
        return { ...toInvitation(invitation), invite_url: inviteUrlOf(token) };
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
          response: { 204: z.null(), ...errors, 402: detailResponse },
        },
      },
      async (request, reply) => {
        const auth = signedInUser(request);
        await changeTeam(ctx, request, async (tx) => {
          const invitation = await findInvitation(tx, auth.tenantId, request.params.id);
          // Only while still open: accepted meanwhile, it is a member now.
          if (!invitation || !(await withdrawInvitation(tx, invitation.id))) {
            throw notFound('No open invitation has this id.');
          }
          await recordAudit(tx, auditOrigin(request), {
            tenantId: auth.tenantId,
            userId: auth.userId,
            actorEmail: await actorEmail(tx, auth.userId),
            action: 'invitation_withdrawn',
            entity: 'invitation',
            entityId: invitation.id,
            changes: { email: { before: invitation.email, after: null } },
          });
        });
        return reply.code(204).send(null);
      },
    );

    const admitted = (ip: string) => refundAttempt(db, [invitationTries(ip)]);

    /**
     * The invitation a token opens, or why it opens none (404 unknown or withdrawn, 410 used or
     * expired). Tries with invitation links are limited per address as sign-in's are: 30 in 15
     * minutes (429 past them), and one that opens the invitation gives its try back (`admitted`).
     */
    async function openInvitation(token: string, ip: string) {
      await consumeAttempt(db, [invitationTries(ip)], TOO_MANY_TRIES);
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
          response: { 200: invitationPreview, 404: detailResponse, 410: detailResponse, 429: detailResponse },
        },
      },
      async (request) => {
        const invitation = await openInvitation(request.body.token, request.ip);
        await admitted(request.ip);
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
            429: detailResponse,
          },
        },
      },
      async (request, reply) => {
        const { token, password, first_name, last_name } = request.body;
        const invitation = await openInvitation(token, request.ip);
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
        await admitted(request.ip);
        return reply.code(201).send(session);
      },
    );
  };

const articled = (label: string) => (/^[AEIOU]/.test(label) ? `an ${label}` : `a ${label}`);
