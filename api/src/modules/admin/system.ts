import {
  detailResponse,
  type EmailSetup,
  type EmailSetupBody,
  emailSetup,
  emailSetupBody,
  emailTestBody,
  emailTestResult,
  fieldErrorsResponse,
  type PaddleSetup,
  type PlatformSettings as PlatformSettingsView,
  paddleCheckResult,
  paddleSetup,
  paddleSetupBody,
  platformSettings,
  SMTP_PASSWORD_AGAIN,
} from '@coverdesk/contract';
import { asc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.js';
import type { Transaction } from '../../db/client.js';
import { bearerAuth, signedInUser } from '../../http/authenticate.js';
import { conflict, fieldError, HttpError } from '../../http/errors.js';
import { findUserById } from '../accounts/queries.js';
import { auditOrigin, changedFields, recordAudit } from '../audit/record.js';
import type { FieldChanges } from '../audit/tables.js';
import { applyPaddlePrices } from '../billing/plan-catalogue.js';
import { plans } from '../billing/tables.js';
import { checkPaddleConnection } from '../platform-settings/paddle-check.js';
import { SecretUnreadable, sealSecret } from '../platform-settings/secrets.js';
import {
  type GeneralSettings,
  SECRET_PURPOSE,
  type StoredEmail,
  type StoredPaddle,
} from '../platform-settings/store.js';
import type { PlatformSettingsKey } from '../platform-settings/tables.js';

const NO_ENCRYPTION_KEY =
  'Secrets cannot be saved: this server has no SETTINGS_ENCRYPTION_KEY. Set it to 32 random bytes (openssl rand -hex 32) on every instance and restart, then save again.';

/**
 * Whether the saved password may go on to the server in `body`: only to the very host, port,
 * security and user it was given for, so nobody can send it to a server of their own by changing
 * the host and leaving the password blank.
 */
const sameServer = (saved: StoredEmail, body: EmailSetupBody) =>
  saved.host === body.host &&
  saved.port === body.port &&
  saved.security === body.security &&
  saved.username === body.username;

const lastFour = (secret: string) => (secret.length > 8 ? secret.slice(-4) : null);

const toView = (settings: GeneralSettings): PlatformSettingsView => ({
  signups_open: settings.signupsOpen,
  demo_enabled: settings.demoEnabled,
  default_trial_days: settings.defaultTrialDays,
});

/** A secret in the audit log: only whether it was there and whether it changed, never the value. */
const secretChange = (
  field: string,
  before: string | null | undefined,
  after: string | null | undefined,
): FieldChanges =>
  before === after ? {} : { [field]: { before: before ? 'saved' : null, after: after ? 'changed' : null } };

/** How the platform runs and is set up: health, performance, caches, settings, email and Paddle. */
export const adminSystemRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { config, db, settings } = ctx;

    /** Saves one setting with its audit row in one transaction; this instance applies it at once. */
    async function saveAudited<K extends PlatformSettingsKey>(
      request: FastifyRequest,
      key: K,
      save: (tx: Transaction, adminId: string) => Promise<FieldChanges>,
    ) {
      const { userId } = signedInUser(request);
      const admin = await findUserById(db, userId);
      await db.transaction(async (tx) => {
        const changes = await save(tx, userId);
        if (Object.keys(changes).length === 0) return;
        await recordAudit(tx, auditOrigin(request), {
          tenantId: null,
          userId,
          actorEmail: admin?.email ?? null,
          action: 'platform_settings_changed',
          entity: 'platform_settings',
          entityId: key,
          changes,
        });
      });
      await settings.reload();
    }

    const requireKey = () => {
      if (!settings.encryptionKey) throw conflict({ detail: NO_ENCRYPTION_KEY });
      return settings.encryptionKey;
    };

    app.get(
      '/settings/',
      {
        schema: {
          tags: ['admin'],
          summary: 'Sign-ups, the demo and the default trial',
          security: bearerAuth,
          response: { 200: platformSettings },
        },
      },
      async () => toView(await settings.general()),
    );

    app.put(
      '/settings/',
      {
        schema: {
          tags: ['admin'],
          summary: 'Open or close sign-ups, switch the demo, set the default trial (audited)',
          security: bearerAuth,
          body: platformSettings,
          response: { 200: platformSettings, 400: fieldErrorsResponse },
        },
      },
      async (request) => {
        const next: GeneralSettings = {
          signupsOpen: request.body.signups_open,
          demoEnabled: request.body.demo_enabled,
          defaultTrialDays: request.body.default_trial_days,
        };
        await saveAudited(request, 'general', async (tx, adminId) => {
          const before = toView(await settings.general());
          await settings.save(tx, 'general', next, adminId);
          return changedFields(before, toView(next));
        });
        return toView(next);
      },
    );

    /** The email screen's view: the saved settings with the password as "set" only, or what is in force. */
    async function emailView(): Promise<EmailSetup> {
      const saved = await settings.saved('email');
      const source = saved ? 'saved' : config.smtpUrl ? 'environment' : 'none';
      const stored = saved?.value;
      return {
        host: stored?.host ?? '',
        port: stored?.port ?? null,
        security: stored?.security ?? 'starttls',
        username: stored?.username ?? '',
        password: { set: Boolean(stored?.password), last4: null },
        from_email: stored?.fromEmail ?? '',
        from_name: stored?.fromName ?? '',
        saved: Boolean(saved),
        source,
        encryption_key_set: Boolean(settings.encryptionKey),
        updated_at: saved?.updatedAt.toISOString() ?? null,
      };
    }

    app.get(
      '/email-setup/',
      {
        schema: {
          tags: ['admin'],
          summary: 'The mail server the app sends through (the password is never returned)',
          security: bearerAuth,
          response: { 200: emailSetup },
        },
      },
      async () => emailView(),
    );

    app.put(
      '/email-setup/',
      {
        schema: {
          tags: ['admin'],
          summary:
            'Save the mail server; without a password the saved one is kept for the same host, port, security and user (audited)',
          security: bearerAuth,
          body: emailSetupBody,
          response: { 200: emailSetup, 400: fieldErrorsResponse, 409: detailResponse },
        },
      },
      async (request) => {
        const body = request.body;
        const before = (await settings.saved('email'))?.value;
        let password: string | null = null;
        if (body.username) {
          if (body.password) password = sealSecret(requireKey(), SECRET_PURPOSE.smtpPassword, body.password);
          else if (before?.password && sameServer(before, body)) password = before.password;
          else if (before?.password) throw fieldError('password', SMTP_PASSWORD_AGAIN);
          else throw fieldError('password', 'Enter the password the mail server expects for this user.');
        }
        const next: StoredEmail = {
          host: body.host,
          port: body.port,
          security: body.security,
          username: body.username,
          password,
          fromEmail: body.from_email,
          fromName: body.from_name,
        };
        await saveAudited(request, 'email', async (tx, adminId) => {
          await settings.save(tx, 'email', next, adminId);
          const visible = (value: StoredEmail | undefined) =>
            value && {
              host: value.host,
              port: value.port,
              security: value.security,
              username: value.username,
              from_email: value.fromEmail,
              from_name: value.fromName,
            };
          return {
            ...changedFields(visible(before) ?? null, visible(next) ?? null),
            ...secretChange('password', before?.password, password),
          };
        });
        return emailView();
      },
    );

    app.delete(
      '/email-setup/',
      {
        schema: {
          tags: ['admin'],
          summary: 'Forget the saved mail server: the app goes back to SMTP_URL (audited)',
          security: bearerAuth,
          response: { 200: emailSetup },
        },
      },
      async (request) => {
        await saveAudited(request, 'email', async (tx): Promise<FieldChanges> => {
          const wasSaved = await settings.forgetSaved(tx, 'email');
          return wasSaved ? { saved: { before: true, after: false } } : {};
        });
        return emailView();
      },
    );

    app.post(
      '/email-setup/test/',
      {
        schema: {
          tags: ['admin'],
          summary: "Send a test email (to the admin unless told otherwise) and return the server's answer",
          security: bearerAuth,
          body: emailTestBody,
          response: { 200: emailTestResult, 400: fieldErrorsResponse },
        },
      },
      async (request) => {
        const admin = await findUserById(db, signedInUser(request).userId);
        const to = request.body.to ?? admin?.email ?? '';
        return ctx.mailer.test(
          {
            to,
            subject: 'Coverdesk test email',
            text: [
              'This is a test email from Coverdesk.',
              '',
              `${admin?.email ?? 'An admin'} sent it from the admin portal's email setup, to check that email reaches its readers.`,
            ].join('\n'),
          },
          request.log,
        );
      },
    );

    /** The Paddle screen's view: secrets as "set" and their last four characters at most. */
    async function paddleView(): Promise<PaddleSetup> {
      const saved = await settings.saved('paddle');
      const stored = saved?.value;
      const fromEnvironment = config.paddle;
      const catalogue = await db
        .select()
        .from(plans)
        .where(eq(plans.isActive, true))
        .orderBy(asc(plans.sortOrder));
      return {
        environment: stored?.environment ?? fromEnvironment?.environment ?? 'sandbox',
        api_key: stored
          ? { set: true, last4: stored.apiKeyLast4 || null }
          : { set: Boolean(fromEnvironment), last4: null },
        client_token: stored?.clientToken ?? fromEnvironment?.clientToken ?? '',
        webhook_secret: stored
          ? { set: true, last4: stored.webhookSecretLast4 || null }
          : { set: Boolean(fromEnvironment), last4: null },
        // The prices in force are the ones written on the plans, whichever way they came.
        prices: catalogue.map((plan) => ({
          plan: plan.name,
          display_name: plan.displayName,
          monthly: plan.paddlePriceMonthlyId ?? '',
          yearly: plan.paddlePriceYearlyId ?? '',
        })),
        saved: Boolean(saved),
        source: saved ? 'saved' : fromEnvironment ? 'environment' : 'none',
        encryption_key_set: Boolean(settings.encryptionKey),
        webhook_url: `${config.appUrl}/api/billing/webhooks/paddle/`,
        updated_at: saved?.updatedAt.toISOString() ?? null,
      };
    }

    app.get(
      '/paddle-setup/',
      {
        schema: {
          tags: ['admin'],
          summary: 'Paddle Billing as set up (the API key and webhook secret are never returned)',
          security: bearerAuth,
          response: { 200: paddleSetup },
        },
      },
      async () => paddleView(),
    );

    app.put(
      '/paddle-setup/',
      {
        schema: {
          tags: ['admin'],
          summary:
            'Save Paddle Billing; secrets left out keep the saved ones (audited, secrets never logged)',
          security: bearerAuth,
          body: paddleSetupBody,
          response: { 200: paddleSetup, 400: fieldErrorsResponse, 409: detailResponse },
        },
      },
      async (request) => {
        const body = request.body;
        const key = requireKey();
        const before = (await settings.saved('paddle'))?.value;
        const catalogue = await db.select({ name: plans.name }).from(plans);
        const known = new Set(catalogue.map((plan) => plan.name));
        const unknown = Object.keys(body.prices).find((name) => !known.has(name));
        if (unknown) throw fieldError(`prices.${unknown}`, `There is no plan named ${unknown}.`);
        if (!body.api_key && !before) throw fieldError('api_key', 'Enter the API key.');
        if (!body.webhook_secret && !before) throw fieldError('webhook_secret', 'Enter the webhook secret.');
        const next: StoredPaddle = {
          environment: body.environment,
          apiKey: body.api_key
            ? sealSecret(key, SECRET_PURPOSE.paddleApiKey, body.api_key)
            : (before?.apiKey ?? ''),
          apiKeyLast4: body.api_key ? (lastFour(body.api_key) ?? '') : (before?.apiKeyLast4 ?? ''),
          clientToken: body.client_token,
          webhookSecret: body.webhook_secret
            ? sealSecret(key, SECRET_PURPOSE.paddleWebhookSecret, body.webhook_secret)
            : (before?.webhookSecret ?? ''),
          webhookSecretLast4: body.webhook_secret
            ? (lastFour(body.webhook_secret) ?? '')
            : (before?.webhookSecretLast4 ?? ''),
          prices: Object.fromEntries(
            Object.entries(body.prices).map(([name, price]) => [
              name,
              { monthly: price.monthly, yearly: price.yearly },
            ]),
          ),
        };
        await saveAudited(request, 'paddle', async (tx, adminId) => {
          await settings.save(tx, 'paddle', next, adminId);
          // Checkouts read the price ids from the plans.
          await applyPaddlePrices(tx, next);
          const visible = (value: StoredPaddle | undefined) =>
            value && {
              environment: value.environment,
              client_token: value.clientToken,
              prices: value.prices,
            };
          return {
            ...changedFields(visible(before) ?? null, visible(next) ?? null),
            ...secretChange('api_key', before?.apiKey, next.apiKey),
            ...secretChange('webhook_secret', before?.webhookSecret, next.webhookSecret),
          };
        });
        return paddleView();
      },
    );

    app.post(
      '/paddle-setup/check/',
      {
        schema: {
          tags: ['admin'],
          summary: 'Call Paddle with the API key in force and say whether it answered',
          security: bearerAuth,
          response: { 200: paddleCheckResult, 409: detailResponse },
        },
      },
      async () => {
        const paddle = await settings.paddleConfig().catch((error: unknown) => {
          if (error instanceof SecretUnreadable) {
            throw new HttpError(409, { detail: `The saved Paddle keys cannot be read: ${error.message}.` });
          }
          throw error;
        });
        if (!paddle) return { ok: false, detail: 'Paddle is not set up: save an API key first.' };
        return checkPaddleConnection(paddle);
      },
    );
  };
