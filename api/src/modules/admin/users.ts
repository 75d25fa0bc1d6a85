import {
  adminReasonBody,
  adminUser,
  adminUserList,
  adminUserListQuery,
  detailResponse,
  fieldErrorsResponse,
  grantAdminBody,
  superAdminList,
} from '@coverdesk/contract';
import { and, eq, ilike, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Database, Transaction } from '../../db/client.js';
import { containing, countRows, literalLimit, orderBy } from '../../db/query-helpers.js';
import { asConnectingRole, withTenant } from '../../db/tenant.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { conflict, HttpError, notFound } from '../../http/errors.js';
import { offsetOf, pageOf } from '../../http/pagination.js';
import { resetMfa } from '../accounts/mfa.js';
import { sendResetLink } from '../accounts/password-reset.js';
import { findUserByEmail, findUserById } from '../accounts/queries.js';
import { users } from '../accounts/tables.js';
import { revokeUserSessions } from '../accounts/tokens.js';
import { auditOrigin, recordAudit } from '../audit/record.js';
import type { FieldChanges } from '../audit/tables.js';
import { turnOffCalendarFeed } from '../calendar/feeds.js';
import { tenants } from '../tenants/tables.js';
import { selectAdminUsers, toAdminUser } from './tenant-queries.js';

const userParams = z.object({ id: z.uuid('Not a valid id.') });
const tags = ['admin'];
const errors = { 400: fieldErrorsResponse, 403: detailResponse, 404: detailResponse, 409: detailResponse };

type ListQuery = z.output<typeof adminUserListQuery>;
type UserRow = typeof users.$inferSelect;

const refuse = (detail: string) => conflict({ detail });
const ALREADY_DISABLED = 'This account is already disabled.';

/**
 * Refuses taking away the last admin who can sign in, other than `leaving`. Locks every admin row,
 * in one order, so two admins revoking or disabling each other at once cannot both count the other
 * and leave none: the second waits for the first and then counts again.
 */
async function keepAnotherAdmin(tx: Transaction, leaving: string): Promise<void> {
  const admins = await tx
    .select({ id: users.id, disabledAt: users.disabledAt })
    .from(users)
    .where(eq(users.isAdmin, true))
    .orderBy(users.id)
    .for('update');
  if (!admins.some((admin) => admin.id !== leaving && admin.disabledAt === null)) {
    throw refuse('This is the last platform admin who can sign in: grant another one first.');
  }
}

function matching(query: ListQuery): SQL | undefined {
  const term = query.search ? containing(query.search) : undefined;
  const states: Record<ListQuery['state'] & string, SQL> = {
    active: isNull(users.disabledAt),
    disabled: isNotNull(users.disabledAt),
    admin: eq(users.isAdmin, true),
    owner: eq(users.role, 'owner'),
  };
  return and(
    term
      ? or(
          ilike(users.email, term),
          ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, term),
          ilike(tenants.name, term),
        )
      : undefined,
    query.state ? states[query.state] : undefined,
  );
}

async function listUsers(db: Database, query: ListQuery) {
  const where = matching(query);
  const [total] = await db
    .select({ count: countRows() })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(where);
  const rows = await selectAdminUsers(db)
    .where(where)
    .orderBy(
      ...orderBy(
        query.ordering,
        {
          email: users.email,
          agency: sql`lower(${tenants.name})`,
          date_joined: users.dateJoined,
          // Never signed in reads as longest ago.
          last_login: sql`coalesce(${users.lastLogin}, '-infinity'::timestamptz)`,
        },
        users.id,
      ),
    )
    .limit(literalLimit(query.page_size))
    .offset(offsetOf(query));
  return { count: total?.count ?? 0, results: rows.map(toAdminUser) };
}

async function adminUserById(db: Database, id: string) {
  const [row] = await selectAdminUsers(db).where(eq(users.id, id));
  return row && toAdminUser(row);
}

/** Every user of the platform: search, disable and enable, sign out, password resets, and platform admins. */
export const adminUserRoutes =
  ({ config, db, revokedSessions, ...ctx }: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    /** Lower-cased, as users.email is kept. */
    const configuredAdmins = new Set(config.adminEmails.map((email) => email.toLowerCase()));

    /**
     * Changes one user inside their agency's transaction and writes the audit line beside it. The
     * users and refresh token tables are the platform's, so the change runs as the connecting role;
     * the audit line is the agency's.
     */
    async function actOnUser(
      request: FastifyRequest,
      target: UserRow,
      audit: { action: string; reason: string },
      change: (tx: Transaction) => Promise<FieldChanges | null>,
    ) {
      const admin = signedInUser(request);
      const adminAccount = await findUserById(db, admin.userId);
      await withTenant(db, target.tenantId, async (tx) => {
        const changes = await asConnectingRole(tx, () => change(tx));
        await recordAudit(tx, auditOrigin(request), {
          tenantId: target.tenantId,
          userId: admin.userId,
          actorEmail: adminAccount?.email ?? null,
          action: audit.action,
          entity: 'user',
          entityId: target.id,
          changes,
          reason: audit.reason,
        });
      });
    }

    async function targetOf(id: string): Promise<UserRow> {
      const target = await findUserById(db, id);
      if (!target) throw notFound('No user with this id.');
      return target;
    }

    /** Ends every sign-in of the user, here at once and on other instances within a second. */
    async function endSessions(tx: Transaction, userId: string): Promise<number> {
      const revoked = await revokeUserSessions(tx, userId);
      // Only after the commit would other requests see them; refusing them a little early is harmless.
      revokedSessions.add(revoked);
      return revoked.length;
    }

    const answer = async (id: string) => {
      const updated = await adminUserById(db, id);
      if (!updated) throw notFound('No user with this id.');
      return updated;
    };

    app.get(
      '/users/',
      {
        schema: {
          tags,
          summary: 'Every user: searched by email, name or agency, filtered by state, sorted',
          security: bearerAuth,
          querystring: adminUserListQuery,
          response: { 200: adminUserList, 400: fieldErrorsResponse, 403: detailResponse },
        },
      },
      async (request) => {
        const { count, results } = await listUsers(db, request.query);
        return pageOf(request, request.query, count, results);
      },
    );

    app.post(
      '/users/:id/disable/',
      {
        schema: {
          tags,
          summary:
            'Disable an account: it cannot sign in, its sessions end at once, its calendar feed is off',
          security: bearerAuth,
          params: userParams,
          body: adminReasonBody,
          response: { 200: adminUser, ...errors },
        },
      },
      async (request) => {
        const target = await targetOf(request.params.id);
        if (target.id === signedInUser(request).userId) throw refuse('You cannot disable your own account.');
        if (target.disabledAt) throw refuse(ALREADY_DISABLED);
        await actOnUser(
          request,
          target,
          { action: 'user_disabled', reason: request.body.reason },
          async (tx) => {
            if (target.isAdmin) await keepAnotherAdmin(tx, target.id);
            // Only an account still enabled: another admin may have disabled it since it was read.
            const [row] = await tx
              .update(users)
              .set({ disabledAt: sql`now()` })
              .where(and(eq(users.id, target.id), isNull(users.disabledAt)))
              .returning({ disabledAt: users.disabledAt });
            if (!row) throw refuse(ALREADY_DISABLED);
            const ended = await endSessions(tx, target.id);
            // The feed's address publishes the agency's calendar to whoever holds it: it goes for
            // good, so enabling the account again does not bring the old address back.
            const hadFeed = await turnOffCalendarFeed(tx, target.id);
            return {
              disabled_at: { before: null, after: row.disabledAt?.toISOString() ?? null },
              sessions: { before: ended, after: 0 },
              calendar_feed: { before: hadFeed, after: false },
            };
          },
        );
        return answer(target.id);
      },
    );

    app.post(
      '/users/:id/enable/',
      {
        schema: {
          tags,
          summary: 'Enable a disabled account again',
          security: bearerAuth,
          params: userParams,
          body: adminReasonBody,
          response: { 200: adminUser, ...errors },
        },
      },
      async (request) => {
        const target = await targetOf(request.params.id);
        if (!target.disabledAt) throw refuse('This account is not disabled.');
        await actOnUser(
          request,
          target,
          { action: 'user_enabled', reason: request.body.reason },
          async (tx) => {
            await tx.update(users).set({ disabledAt: null }).where(eq(users.id, target.id));
            return { disabled_at: { before: target.disabledAt?.toISOString() ?? null, after: null } };
          },
        );
        return answer(target.id);
      },
    );

    app.post(
      '/users/:id/sign-out/',
      {
        schema: {
          tags,
          summary: 'End every session of a user at once',
          security: bearerAuth,
          params: userParams,
          body: adminReasonBody,
          response: { 200: detailResponse, ...errors },
        },
      },
      async (request) => {
        const target = await targetOf(request.params.id);
        if (target.id === signedInUser(request).userId) {
          throw refuse('You cannot end your own sessions here: sign out instead.');
        }
        let ended = 0;
        await actOnUser(
          request,
          target,
          { action: 'sessions_ended', reason: request.body.reason },
          async (tx) => {
            ended = await endSessions(tx, target.id);
            return { sessions: { before: ended, after: 0 } };
          },
        );
        const sessions = ended === 1 ? '1 session' : `${ended} sessions`;
        return { detail: `${target.email} is signed out everywhere (${sessions} ended).` };
      },
    );

    app.post(
      '/users/:id/mfa/reset/',
      {
        schema: {
          tags,
          summary: "Reset a user's two-step sign-in (a lost phone): they sign in with the password alone",
          security: bearerAuth,
          params: userParams,
          body: adminReasonBody,
          response: { 200: adminUser, ...errors },
        },
      },
      async (request) => {
        const target = await targetOf(request.params.id);
        // Turning one's own off asks for the password and a code, in the profile's settings.
        if (target.id === signedInUser(request).userId) {
          throw refuse('Turn your own two-step sign-in off from your profile settings.');
        }
        if (!target.mfaEnabledAt) throw refuse('Two-step sign-in is not on for this account.');
        await actOnUser(request, target, { action: 'mfa_reset', reason: request.body.reason }, async (tx) => {
          await resetMfa(tx, target.id);
          return { mfa_enabled: { before: true, after: false } };
        });
        return answer(target.id);
      },
    );

    app.post(
      '/users/:id/password-reset/',
      {
        schema: {
          tags,
          summary: 'Email a user a link to choose a new password',
          security: bearerAuth,
          params: userParams,
          body: adminReasonBody,
          response: { 200: detailResponse, ...errors, 429: detailResponse },
        },
      },
      async (request) => {
        const target = await targetOf(request.params.id);
        if (target.isDemoUser || target.passwordHash === null) {
          throw refuse('This account signs in without a password, so it has none to reset.');
        }
        const outcome = await sendResetLink({ config, db, revokedSessions, ...ctx }, target.email);
        if (outcome === 'too-many') {
          throw new HttpError(429, {
            detail:
              'Three reset links went to this account in the last hour. Ask the user to use one of them.',
          });
        }
        await actOnUser(
          request,
          target,
          { action: 'password_reset_sent', reason: request.body.reason },
          async () => null,
        );
        return { detail: `A password reset link is on its way to ${target.email}.` };
      },
    );

    app.get(
      '/super-admins/',
      {
        schema: {
          tags,
          summary: 'Every platform admin, and whether the server configuration names them',
          security: bearerAuth,
          response: { 200: superAdminList, 403: detailResponse },
        },
      },
      async () => {
        const rows = await selectAdminUsers(db).where(eq(users.isAdmin, true)).orderBy(users.email);
        return {
          results: rows.map((row) => ({
            ...toAdminUser(row),
            granted_by_configuration: configuredAdmins.has(row.email.toLowerCase()),
          })),
        };
      },
    );

    app.post(
      '/super-admins/grant/',
      {
        schema: {
          tags,
          summary: 'Make the account with this email a platform admin',
          security: bearerAuth,
          body: grantAdminBody,
          response: { 200: adminUser, ...errors },
        },
      },
      async (request) => {
        const target = await findUserByEmail(db, request.body.email);
        if (!target) throw notFound('No account uses this email. The person must register first.');
        if (target.isAdmin) throw refuse('This account is already a platform admin.');
        if (target.isDemoUser) throw refuse('The demo account cannot be a platform admin.');
        if (target.disabledAt) throw refuse('This account is disabled: enable it first.');
        await actOnUser(
          request,
          target,
          { action: 'admin_granted', reason: request.body.reason },
          async (tx) => {
            await tx.update(users).set({ isAdmin: true }).where(eq(users.id, target.id));
            return { is_admin: { before: false, after: true } };
          },
        );
        return answer(target.id);
      },
    );

    app.post(
      '/super-admins/:id/revoke/',
      {
        schema: {
          tags,
          summary: 'Take platform admin away from an account (never the last admin, never oneself)',
          security: bearerAuth,
          params: userParams,
          body: adminReasonBody,
          response: { 200: adminUser, ...errors },
        },
      },
      async (request) => {
        const target = await targetOf(request.params.id);
        if (target.id === signedInUser(request).userId) {
          throw refuse('You cannot revoke your own admin rights: ask another admin.');
        }
        if (!target.isAdmin) throw refuse('This account is not a platform admin.');
        if (configuredAdmins.has(target.email.toLowerCase())) {
          throw refuse(
            'The server configuration (ADMIN_EMAILS) makes this address an admin at every start: remove it there first.',
          );
        }
        await actOnUser(
          request,
          target,
          { action: 'admin_revoked', reason: request.body.reason },
          async (tx) => {
            await keepAnotherAdmin(tx, target.id);
            await tx.update(users).set({ isAdmin: false }).where(eq(users.id, target.id));
            return { is_admin: { before: true, after: false } };
          },
        );
        return answer(target.id);
      },
    );
  };
