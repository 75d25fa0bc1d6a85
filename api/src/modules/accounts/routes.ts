import {
  DEMO_SWITCHED_OFF,
  demoLoginQuery,
  demoLoginResponse,
  detailResponse,
  errorResponse,
  fieldErrorsResponse,
  passwordResetConfirmBody,
  passwordResetRequestBody,
  profileUpdateBody,
  profileUpdateResponse,
  refreshBody,
  registerBody,
  registerResponse,
  SIGNUPS_CLOSED,
  signInResponse,
  tokenBody,
  tokenPair,
  userProfile,
} from '@coverdesk/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { bearerAuth, requireRole, signedInUser } from '../../http/authenticate.js';
import { HttpError, unauthorized } from '../../http/errors.js';
import { auditOrigin, recordAudit, sharedAccountOrigin } from '../audit/record.js';
import {
  clearAttempts,
  consumeAttempt,
  consumeBackoff,
  countBackoffAttempt,
  refundAttempt,
} from '../throttle/throttle.js';
import { startChallenge } from './mfa.js';
import { mfaRoutes } from './mfa-routes.js';
import { confirmPasswordReset, requestPasswordReset } from './password-reset.js';
import { verifyPassword } from './passwords.js';
import { updateProfile } from './profile.js';
import {
  accountEntry,
  findDemoUser,
  findProfile,
  findUserByEmail,
  findUserById,
  signInRefusal,
} from './queries.js';
import { deadlineOf, registerAgency, startSession } from './service.js';
import { sessionRoutes } from './session-routes.js';
import {
  createRefreshToken,
  deviceOf,
  issueAccessToken,
  revokeRefreshToken,
  spendRefreshToken,
} from './tokens.js';

const BAD_CREDENTIALS = 'No active account found with the given credentials';
const FIFTEEN_MINUTES = 15 * 60;
const ONE_HOUR = 60 * 60;

/**
 * Sign-in throttling that slows guessing without handing an attacker a lock on someone else's
 * account: one address gets 5 tries per account and 30 in all per 15 minutes. Failures on an account
 * from anywhere space out the tries of the addresses that failed there: after 5, the next must wait 2
 * seconds, then 4, 8, 16, and never more than 30. An address with no failure there is not held back
 * by the others', so guessing from many addresses never keeps the owner out of their account.
 */
function signInRules(email: string, ip: string) {
  return {
    pair: { key: `login:pair:${email}|${ip}`, limit: 5, windowSeconds: FIFTEEN_MINUTES },
    address: { key: `login:ip:${ip}`, limit: 30, windowSeconds: FIFTEEN_MINUTES },
    account: {
      key: `login:account:${email}`,
      freeAttempts: 5,
      firstDelaySeconds: 2,
      maxDelaySeconds: 30,
      forgetAfterSeconds: FIFTEEN_MINUTES,
    },
  };
}

/**
 * Counts a sign-in attempt, or refuses it with 429; the route then reports how the password check
 * went. A refused attempt counts against its address too: one that could ask again for free would
 * watch for the account's next turn and take it from everyone else.
 */
async function admitSignIn(db: Database, email: string, ip: string) {
  const rules = signInRules(email, ip);
  const [attemptsFromHere = 0] = await consumeAttempt(db, [rules.pair, rules.address]);
  // Attempts from this address that no sign-in cleared: failures, or one still being checked.
  const failedHere = attemptsFromHere > 1;
  if (failedHere) await consumeBackoff(db, rules.account);
  return {
    async failed() {
      // It skipped the account's wait, but lengthens it for the addresses that failed.
      if (!failedHere) await countBackoffAttempt(db, rules.account);
    },
    async succeeded() {
      // The account's count stays: it holds back the addresses that failed, and no longer this one.
      await clearAttempts(db, [rules.pair]);
      await refundAttempt(db, [rules.address]);
    },
  };
}

/** Where an account's own action came from: the shared demo account's keeps no one's address. */
const originFor = (user: { isDemoUser: boolean }, request: FastifyRequest) =>
  user.isDemoUser ? sharedAccountOrigin(request) : auditOrigin(request);

export const accountRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { config, db } = ctx;

    app.post(
      '/accounts/register/',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Create an agency, its owner and a 14-day trial',
          body: registerBody,
          response: {
            201: registerResponse,
            400: fieldErrorsResponse,
            403: detailResponse,
            429: detailResponse,
          },
        },
      },
      async (request, reply) => {
        if (!(await ctx.settings.general()).signupsOpen) throw new HttpError(403, { detail: SIGNUPS_CLOSED });
        // Every attempt counts, so that the "email already exists" answer cannot be harvested either.
        await consumeAttempt(db, [
          { key: `register:ip:${request.ip}`, limit: config.registrationsPerHour, windowSeconds: ONE_HOUR },
        ]);
        const session = await registerAgency(ctx, request.body, request.log, deviceOf(request));
        return reply.code(201).send(session);
      },
    );

    app.post(
      '/token/',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Sign in with email and password',
          description:
            'With two-step sign-in on, answers `{mfa_required: true, mfa_token}` instead of the tokens: `POST /api/token/mfa/` finishes the sign-in with a code.',
          body: tokenBody,
          response: { 200: signInResponse, 401: detailResponse, 403: detailResponse, 429: detailResponse },
        },
      },
      async (request) => {
        const { email, password } = request.body;
        const attempt = await admitSignIn(db, email, request.ip);
        const user = await findUserByEmail(db, email);
        // Checked even without an account, so both cases take the same time.
        const passwordMatches = await verifyPassword(user?.passwordHash ?? null, password);
        if (!user || !passwordMatches) {
          await attempt.failed();
          // The email as typed: an unknown one belongs to no agency.
          await recordAudit(db, auditOrigin(request), {
            tenantId: user?.tenantId ?? null,
            userId: user?.id ?? null,
            actorEmail: email,
            action: 'sign_in_failed',
            entity: 'user',
            entityId: user?.id,
          });
          throw unauthorized(BAD_CREDENTIALS);
        }
        await attempt.succeeded();
        // Said only to whoever knows the password, so it tells a guesser nothing.
        const refusal = signInRefusal(user);
        if (refusal) {
          await recordAudit(db, auditOrigin(request), {
            ...accountEntry(user, 'sign_in_failed'),
            reason: user.disabledAt ? 'The account is disabled.' : 'The member is deactivated.',
          });
          throw new HttpError(403, { detail: refusal });
        }
        // Two-step sign-in: the password alone opens nothing; the code is asked for with this token.
        if (user.mfaSecret)
          return { mfa_required: true as const, mfa_token: await startChallenge(db, user.id) };
        const { access, refresh } = await db.transaction(async (tx) => {
          await recordAudit(tx, auditOrigin(request), accountEntry(user, 'sign_in'));
          return startSession(tx, user.id, user.tenantId, config.jwtSecret, {
            ...deviceOf(request),
            twoStep: false,
          });
        });
        return { access, refresh };
      },
    );

    app.post(
      '/token/refresh/',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Trade a refresh token for a new pair (the old one is spent)',
          body: refreshBody,
          response: { 200: tokenPair, 401: detailResponse },
        },
      },
      async (request) => {
        const outcome = await db.transaction(async (tx) => {
          const spent = await spendRefreshToken(tx, request.body.refresh, deviceOf(request));
          if (!spent.ok) {
            const owner = spent.revoked && (await findUserById(tx, spent.revoked.userId));
            if (owner) {
              await recordAudit(tx, originFor(owner, request), {
                ...accountEntry(owner, 'refresh_token_reused'),
                reason:
                  'A sign-in token already exchanged came back: that sign-in was ended on every device.',
              });
            }
            return spent;
          }
          const user = await findUserById(tx, spent.userId);
          if (!user || signInRefusal(user)) return { ok: false as const };
          // A session keeps its two-step mark only while two-step sign-in is on: turned off or reset,
          // the next refresh drops it (and with it the admin portal).
          const twoStep = spent.twoStep && user.mfaSecret !== null;
          const start = { ...deviceOf(request), twoStep };
          const { token } = await createRefreshToken(tx, user.id, start, spent.familyId);
          const profile = await findProfile(tx, user.id);
          const access = await issueAccessToken(
            {
              userId: user.id,
              tenantId: user.tenantId,
              sessionId: spent.familyId,
              twoStep,
              role: user.role,
              twoStepDeadline: profile && deadlineOf(profile),
            },
            config.jwtSecret,
          );
          return { ok: true as const, pair: { access, refresh: token } };
        });
        if (!outcome.ok) {
          if (outcome.revoked) ctx.revokedSessions.add([outcome.revoked.familyId]);
          throw unauthorized('Token is invalid or expired');
        }
        return outcome.pair;
      },
    );

    app.post(
      '/token/revoke/',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Sign out: revoke a refresh token and its session',
          body: refreshBody,
          response: { 200: detailResponse },
        },
      },
      async (request) => {
        const revoked = await db.transaction(async (tx) => {
          const session = await revokeRefreshToken(tx, request.body.refresh);
          const user = session && (await findUserById(tx, session.userId));
          if (user) await recordAudit(tx, originFor(user, request), accountEntry(user, 'sign_out'));
          return session;
        });
        if (revoked) ctx.revokedSessions.add([revoked.familyId]);
        return { detail: 'Signed out.' };
      },
    );

    app.post(
      '/accounts/login/demo/',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Sign in to the demo agency, as its owner or as one of its other members',
          querystring: demoLoginQuery,
          response: { 200: demoLoginResponse, 403: errorResponse, 404: errorResponse, 503: errorResponse },
        },
      },
      async (request) => {
        if (!config.demoEnabled) throw new HttpError(503, { error: 'Demo account is temporarily disabled.' });
        if (!(await ctx.settings.general()).demoEnabled)
          throw new HttpError(403, { error: DEMO_SWITCHED_OFF });
        const demo = await findDemoUser(db, request.query.role);
        if (!demo) throw new HttpError(404, { error: 'Demo account not available. Please contact support.' });
        const session = await db.transaction(async (tx) => {
          await recordAudit(tx, sharedAccountOrigin(request), accountEntry(demo, 'sign_in'));
          return startSession(tx, demo.id, demo.tenantId, config.jwtSecret, {
            ...deviceOf(request),
            twoStep: false,
          });
        });
        return { access_token: session.access, refresh_token: session.refresh, user: session.user };
      },
    );

    app.get(
      '/user/profile/',
      {
        // The member's own: read even by one whose agency now asks for two-step sign-in first.
        config: { action: 'own_account' },
        schema: {
          tags: ['accounts'],
          summary: 'The signed-in user',
          security: bearerAuth,
          response: { 200: userProfile, 401: detailResponse },
        },
      },
      async (request) => {
        const auth = signedInUser(request);
        const profile = await findProfile(db, auth.userId);
        if (!profile) throw unauthorized('User not found');
        return profile;
      },
    );

    app.patch(
      '/user/profile/',
      {
        config: { action: 'own_account' },
        schema: {
          tags: ['accounts'],
          summary: 'Change profile fields, email or password',
          security: bearerAuth,
          body: profileUpdateBody,
          response: {
            200: profileUpdateResponse,
            400: fieldErrorsResponse.or(errorResponse),
            403: errorResponse.or(detailResponse),
          },
        },
      },
      async (request) => {
        const auth = signedInUser(request);
        const { company_name, time_zone, currency } = request.body;
        // The agency's name, time zone and currency are its settings, not the member's own.
        if ([company_name, time_zone, currency].some((field) => field !== undefined)) {
          requireRole(auth, 'agency_settings');
        }
        return updateProfile(ctx, auth, request.body, auditOrigin(request));
      },
    );

    app.post(
      '/accounts/password-reset/',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Email a password reset link (answers the same for unknown addresses)',
          body: passwordResetRequestBody,
          response: { 202: detailResponse, 429: detailResponse },
        },
      },
      async (request, reply) => {
        await requestPasswordReset(ctx, request.body.email, request.ip, request.log);
        return reply.code(202).send({
          detail: 'If an account exists for that email, we have sent a link to reset its password.',
        });
      },
    );

    app.post(
      '/accounts/password-reset/confirm/',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Set a new password with the token from the reset link',
          body: passwordResetConfirmBody,
          response: { 200: detailResponse, 400: fieldErrorsResponse },
        },
      },
      async (request) => {
        await confirmPasswordReset(ctx, request.body.token, request.body.new_password, auditOrigin(request));
        return { detail: 'Your password has been reset. You can now sign in.' };
      },
    );

    await app.register(mfaRoutes(ctx));
    await app.register(sessionRoutes(ctx));
  };
