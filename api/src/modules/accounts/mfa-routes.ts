import {
  detailResponse,
  fieldErrorsResponse,
  mfaDisableBody,
  mfaSignInBody,
  recoveryCodes,
  recoveryCodesBody,
  tokenPair,
  totpConfirmBody,
  totpSetup,
} from '@coverdesk/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { HttpError, unauthorized } from '../../http/errors.js';
import { auditOrigin, recordAudit } from '../audit/record.js';
import {
  admitCodeTry,
  beginTotpSetup,
  confirmTotp,
  disableTotp,
  renewRecoveryCodes,
  spendChallenge,
  spendSecondStep,
  tryChallenge,
  wrongSecondStep,
} from './mfa.js';
import { accountEntry, signInRefusal } from './queries.js';
import { startSession } from './service.js';
import { deviceOf } from './tokens.js';

const tags = ['two-step sign-in'];
const errors = { 400: fieldErrorsResponse.or(detailResponse), 401: detailResponse, 403: detailResponse };
const EXPIRED = 'This sign-in has expired. Sign in again with your password.';

/**
 * Two-step sign-in with an authenticator app (TOTP, RFC 6238): setting it up, the sign-in's second
 * step, turning it off and new recovery codes.
 */
export const mfaRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { config, db } = ctx;

    app.post(
      '/token/mfa/',
      {
        schema: {
          tags,
          summary: "Finish a sign-in with the authenticator app's code or a recovery code",
          description:
            'Takes the `mfa_token` `POST /api/token/` answered, good for 5 minutes and 5 tries. A code is good once; so is each recovery code.',
          body: mfaSignInBody,
          response: { 200: tokenPair, ...errors, 429: detailResponse },
        },
      },
      async (request) => {
        const { mfa_token: token, ...proof } = request.body;
        const user = await tryChallenge(db, token);
        if (!user?.mfaSecret) throw unauthorized(EXPIRED);
        const refusal = signInRefusal(user);
        if (refusal) throw new HttpError(403, { detail: refusal });
        await admitCodeTry(db, user.id);
        const session = await db.transaction(async (tx) => {
          if (!(await spendSecondStep(tx, user, proof))) return undefined;
          if (!(await spendChallenge(tx, token))) throw unauthorized(EXPIRED);
          await recordAudit(tx, auditOrigin(request), {
            ...accountEntry(user, 'sign_in'),
            reason: proof.recovery_code === undefined ? null : 'With a recovery code.',
          });
          return startSession(tx, user.id, user.tenantId, config.jwtSecret, {
            ...deviceOf(request),
            twoStep: true,
          });
        });
        if (!session) {
          await recordAudit(db, auditOrigin(request), {
            ...accountEntry(user, 'sign_in_failed'),
            reason: 'The two-step code was not right.',
          });
          throw wrongSecondStep(proof);
        }
        return { access: session.access, refresh: session.refresh };
      },
    );

    app.post(
      '/user/mfa/totp/setup/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'A new secret for an authenticator app, as text and as an otpauth:// address',
          description:
            'Two-step sign-in is on only once `POST /api/user/mfa/totp/confirm/` gets a right code.',
          security: bearerAuth,
          response: { 200: totpSetup, ...errors },
        },
      },
      async (request) => beginTotpSetup(db, signedInUser(request).userId),
    );

    app.post(
      '/user/mfa/totp/confirm/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'Turn two-step sign-in on with a right code; answers ten recovery codes, shown once',
          security: bearerAuth,
          body: totpConfirmBody,
          response: { 200: recoveryCodes, ...errors, 429: detailResponse },
        },
      },
      async (request) => {
        const { codes, ended } = await confirmTotp(
          db,
          signedInUser(request),
          request.body.code,
          auditOrigin(request),
        );
        ctx.revokedSessions.add(ended);
        return { recovery_codes: codes };
      },
    );

    app.post(
      '/user/mfa/totp/disable/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'Turn two-step sign-in off, with the password and a current code',
          security: bearerAuth,
          body: mfaDisableBody,
          response: { 200: detailResponse, ...errors, 429: detailResponse },
        },
      },
      async (request) => {
        await disableTotp(db, signedInUser(request).userId, request.body, auditOrigin(request));
        return { detail: 'Two-step sign-in is off.' };
      },
    );

    app.post(
      '/user/mfa/recovery-codes/',
      {
        config: { action: 'own_account' },
        schema: {
          tags,
          summary: 'Ten new recovery codes for a current code; the old ones stop working',
          security: bearerAuth,
          body: recoveryCodesBody,
          response: { 200: recoveryCodes, ...errors, 429: detailResponse },
        },
      },
      async (request) => {
        const codes = await renewRecoveryCodes(
          db,
          signedInUser(request).userId,
          request.body.code,
          auditOrigin(request),
        );
        return { recovery_codes: codes };
      },
    );
  };
