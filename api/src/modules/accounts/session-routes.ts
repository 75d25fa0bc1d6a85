import { detailResponse, userSessionList, uuid } from '@coverdesk/contract';
import { type AnyColumn, and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/client.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { notFound } from '../../http/errors.js';
import { auditOrigin, recordAudit } from '../audit/record.js';
import { accountEntry, findUserById } from './queries.js';
import { refreshTokens } from './tables.js';
import { lockFamily, revokeUserSessions } from './tokens.js';

const tags = ['accounts'];

/**
 * A user's sessions still signed in: one per sign-in (a refresh-token family), with when it began,
 * when it was last active (its latest refresh, or its latest request as session-activity.ts writes
 * it) and the device of its latest refresh.
 */
async function listSessions(executor: Executor, userId: string) {
  // What the newest token of the session says: its device, and whether it is still a two-step one.
  const newest = <T>(column: AnyColumn) =>
    sql<T>`(array_agg(${column} order by ${refreshTokens.createdAt} desc))[1]`;
  const lastActive =
    sql<Date>`greatest(max(${refreshTokens.createdAt}), max(${refreshTokens.lastActiveAt}))`.mapWith(
      refreshTokens.createdAt,
    );
  return executor
    .select({
      id: refreshTokens.familyId,
      createdAt: sql<Date>`min(${refreshTokens.createdAt})`.mapWith(refreshTokens.createdAt),
      lastUsedAt: lastActive,
      ipAddress: newest<string | null>(refreshTokens.ipAddress),
      userAgent: newest<string | null>(refreshTokens.userAgent),
      twoStep: newest<boolean>(refreshTokens.twoStep),
    })
    .from(refreshTokens)
    .where(eq(refreshTokens.userId, userId))
    .groupBy(refreshTokens.familyId)
    .having(
      sql`count(*) filter (where ${refreshTokens.usedAt} is null and ${refreshTokens.revokedAt} is null and ${refreshTokens.expiresAt} > now()) > 0`,
    )
    .orderBy(desc(lastActive));
}

/** A user's own sessions: each sign-in listed with its device, ended one by one or all but this one. */
export const sessionRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db, revokedSessions } = ctx;

    app.get(
      '/user/sessions/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'The sessions signed in to this account, the newest used first',
          security: bearerAuth,
          response: { 200: userSessionList, 401: detailResponse },
        },
      },
      async (request) => {
        const auth = signedInUser(request);
        const sessions = await listSessions(db, auth.userId);
        return {
          results: sessions.map((session) => ({
            id: session.id,
            created_at: session.createdAt.toISOString(),
            last_used_at: session.lastUsedAt.toISOString(),
            ip_address: session.ipAddress,
            user_agent: session.userAgent,
            current: session.id === auth.sessionId,
            two_step: session.twoStep,
          })),
        };
      },
    );

    app.delete(
      '/user/sessions/:id/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'End one session at once: its access token is refused from the next call',
          security: bearerAuth,
          params: z.object({ id: uuid }),
          response: { 204: z.null(), 401: detailResponse, 404: detailResponse },
        },
      },
      async (request, reply) => {
        const auth = signedInUser(request);
        await db.transaction(async (tx) => {
          // As sign-out does: a refresh running now finishes first, so its new token is revoked too.
          await lockFamily(tx, request.params.id);
          const ended = await tx
            .update(refreshTokens)
            .set({ revokedAt: sql`now()` })
            .where(
              and(
                eq(refreshTokens.userId, auth.userId),
                eq(refreshTokens.familyId, request.params.id),
                isNull(refreshTokens.revokedAt),
              ),
            )
            .returning({ id: refreshTokens.id });
          if (ended.length === 0) throw notFound('No session of yours with this id is signed in.');
          const user = await findUserById(tx, auth.userId);
          if (user) await recordAudit(tx, auditOrigin(request), accountEntry(user, 'session_ended'));
        });
        revokedSessions.add([request.params.id]);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/user/sessions/end-others/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'Sign out everywhere else: end every session but this one',
          security: bearerAuth,
          response: { 200: detailResponse, 401: detailResponse },
        },
      },
      async (request) => {
        const auth = signedInUser(request);
        const ended = await db.transaction(async (tx) => {
          for (const { id } of await listSessions(tx, auth.userId)) {
            if (id !== auth.sessionId) await lockFamily(tx, id);
          }
          const revoked = await revokeUserSessions(tx, auth.userId, auth.sessionId);
          const user = await findUserById(tx, auth.userId);
          if (user && revoked.length > 0) {
            await recordAudit(tx, auditOrigin(request), {
              ...accountEntry(user, 'sessions_ended'),
              reason: 'Every session but the one that asked.',
            });
          }
          return revoked;
        });
        revokedSessions.add(ended);
        const sessions = ended.length === 1 ? '1 other session' : `${ended.length} other sessions`;
        return { detail: `Signed out everywhere else: ${sessions} ended.` };
      },
    );
  };
