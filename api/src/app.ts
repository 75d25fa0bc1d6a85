import { existsSync } from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Registry } from 'prom-client';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import type { DatabaseHandle } from './db/client.js';
import { registerAuthentication } from './http/authenticate.js';
import { registerBodyPace, UploadSlots } from './http/body-pace.js';
import { answerFrameworkError, registerErrorHandling } from './http/errors.js';
import { registerDraining } from './http/graceful-stop.js';
import { registerMetrics } from './http/metrics.js';
import { requestId } from './http/request-id.js';
import { RouteTimings, registerRouteTimings } from './http/route-timings.js';
import { lacksTwoStep } from './modules/accounts/queries.js';
import { RevokedSessions } from './modules/accounts/revoked-sessions.js';
import { accountRoutes } from './modules/accounts/routes.js';
import { SessionActivity } from './modules/accounts/session-activity.js';
import { adminRoutes } from './modules/admin/routes.js';
import { alertRoutes } from './modules/alerts/routes.js';
import { analyticsRoutes } from './modules/analytics/routes.js';
import { auditRoutes } from './modules/audit-log/routes.js';
import { billingRoutes } from './modules/billing/routes.js';
import { calendarRoutes } from './modules/calendar/routes.js';
import { claimRoutes } from './modules/claims/routes.js';
import { commissionReportRoutes } from './modules/commission-report/routes.js';
import { statementReviewRoutes } from './modules/commission-statements/review-routes.js';
import { commissionStatementRoutes } from './modules/commission-statements/routes.js';
import { StatementRunner } from './modules/commission-statements/runner.js';
import { rateRoutes } from './modules/companies/rate-routes.js';
import { companyRoutes } from './modules/companies/routes.js';
import { contactRoutes } from './modules/contact/routes.js';
import { customerRoutes } from './modules/customers/routes.js';
import { dashboardRoutes } from './modules/dashboard/routes.js';
import { FileReleases } from './modules/documents/releases.js';
import { documentRoutes } from './modules/documents/routes.js';
import type { FileStore } from './modules/documents/storage.js';
import { healthRoutes } from './modules/health/routes.js';
import { importRoutes } from './modules/imports/routes.js';
import { ImportRunner } from './modules/imports/runner.js';
import { leadRoutes } from './modules/leads/routes.js';
import { createMailer } from './modules/mail/mailer.js';
import { notificationRoutes } from './modules/notifications/routes.js';
import { NotificationRunner } from './modules/notifications/runner.js';
import { paymentRoutes } from './modules/payments/routes.js';
import { platformSettingsRoutes } from './modules/platform-settings/routes.js';
import { PlatformSettings } from './modules/platform-settings/store.js';
import { policyRoutes } from './modules/policies/routes.js';
import { policyTypeRoutes } from './modules/policy-types/routes.js';
import { searchRoutes } from './modules/search/routes.js';
import { setupRoutes } from './modules/setup/routes.js';
import { supportRoutes } from './modules/support/routes.js';
import { invitationRoutes } from './modules/team/invitation-routes.js';
import { reassignRoutes } from './modules/team/reassign-routes.js';
import { teamRoutes } from './modules/team/routes.js';
import './modules/wiring.js';
import { WEB_DIST_DIR } from './paths.js';

/**
 * A request as the log shows it. A calendar feed's address is its credential, and calendar apps
 * fetch it for ever, so the secret in the path never reaches the log.
 */
function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url.replace(/(\/calendar\/feed\/)[^/?]+/, '$1[secret]'),
    host: request.host,
    remoteAddress: request.ip,
  };
}

/**
 * The hosts Paddle.js uses in each environment: its script from the CDN, the checkout overlay in a
 * frame from the buy host, and the calls the checkout makes to Paddle's APIs. Only these, so a
 * script injected into another paddle.com subdomain finds no way in.
 */
function paddleSources(environment: 'sandbox' | 'production') {
  const prefix = environment === 'sandbox' ? 'sandbox-' : '';
  // Paddle.js itself always comes from the production CDN; the sandbox serves its assets from its own.
  return {
    scriptSrc: [...new Set(['https://cdn.paddle.com', `https://${prefix}cdn.paddle.com`])],
    frameSrc: [`https://${prefix}buy.paddle.com`],
    connectSrc: [
      `https://${prefix}checkout-service.paddle.com`,
      `https://${prefix}api.paddle.com`,
      `https://${prefix}cdn.paddle.com`,
    ],
  };
}

/**
 * Fastify (since 5.12.1) trusts nobody when given a number, because a count cannot tell a proxy from a
 * client that reached the app directly; every client would then share the proxy's address and its
 * limits. So Coverdesk counts the hops itself, for installs that only the proxies can reach (the
 * README says so); their addresses are the safer setting.
 */
function proxyTrust(trust: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Writes reminders and sends their emails; tests drive it on a clock of their own. */
    notificationRunner: NotificationRunner;
    /** This app's Prometheus metrics, served on a port of their own by `startMetricsServer`. */
    metrics: Registry;
    /** Deletes the files of deleted documents; tests wait for it (`settled`). */
    documentFileReleases: FileReleases;
  }
}

/** Largest JSON body the API accepts; larger requests get 413. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The app on a database and a file store its caller opened, and closes after it: the demo's daily
 * reset uses the same ones.
 */
export async function buildApp(
  config: Config,
  database: DatabaseHandle,
  files: FileStore,
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: { req: requestForLog },
    },
    genReqId: requestId,
    bodyLimit: BODY_LIMIT_BYTES,
    frameworkErrors: answerFrameworkError,
    trustProxy: proxyTrust(config.trustProxy),
    // A request arriving on a kept-alive connection while the instance stops is answered, not
    // refused with 503: it was sent to this instance before it stopped listening (see graceful-stop.ts).
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerDraining(app);
  registerBodyPace(app, config.bodies);
  app.decorate('uploadSlots', new UploadSlots(config.bodies));
  const routeTimings = new RouteTimings();
  registerRouteTimings(app, routeTimings);
  app.decorate('metrics', registerMetrics(app, database.pool, app.log));
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  await app.register(compress, { threshold: 1024 });
  // Other instances' sign-outs and settings, as the database announces them; subscribers are added
  // before it listens (below), and read the database once it does, so nothing falls between.
  const notifications = database.notifications((err) =>
    app.log.warn({ err }, "lost the connection that hears of other instances' changes; opening it again"),
  );
  const settings = new PlatformSettings(database.db, config, app.log);
  settings.followChanges(notifications);
  // Paddle may be set up (or moved to production) in /admin/paddle-setup while the app runs, so the
  // policy names Paddle's hosts per response, from the settings as they are now. This hook runs
  // before helmet's, which computes the header synchronously.
  // Read once before the first request, so no later reader waits for the database (see PlatformSettings).
  app.addHook('onReady', async () => settings.refreshPaddleEnvironment());
  app.addHook('onRequest', async () => settings.refreshPaddleEnvironment());
  const paddleHosts = (kind: keyof ReturnType<typeof paddleSources>) => () => {
    const environment = settings.paddleEnvironment();
    return environment ? paddleSources(environment)[kind].join(' ') : '';
  };
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // A document's preview is its bytes fetched with the token, shown from an object URL.
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Paddle's checkout: its script, and the overlay it opens in a frame of its own.
        scriptSrc: ["'self'", paddleHosts('scriptSrc')],
        frameSrc: ["'self'", 'blob:', paddleHosts('frameSrc')],
        connectSrc: ["'self'", paddleHosts('connectSrc')],
        upgradeInsecureRequests: null,
      },
    },
  });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Coverdesk API',
        version: '1.0.0',
        description: 'The API behind the Coverdesk web app.',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // Swagger UI sets a few inline styles as it renders; scripts stay limited to its own files.
    transformStaticCSP: (header) =>
      header.replace("style-src 'self' https:", "style-src 'self' 'unsafe-inline'"),
  });

  const mailer = createMailer(config, database.db, settings, app.log);
  app.addHook('onClose', async () => mailer.close());
  const revokedSessions = new RevokedSessions(database.db, app.log, notifications);
  const fileReleases = new FileReleases(database.db, files, app.log);
  fileReleases.follow(notifications);
  app.decorate('documentFileReleases', fileReleases);
  app.addHook('onReady', async () => fileReleases.start());
  app.addHook('onClose', () => fileReleases.stop());
  // A delete answered here may have taken documents with it (a customer's, a policy's secure
  // delete): their files go now rather than at the next sweep. On PostgreSQL the trigger's
  // notification says so as well, to every instance.
  app.addHook('onResponse', async (request, reply) => {
    const deleting = request.method === 'DELETE' || request.url.includes('/secure-delete/');
    if (deleting && reply.statusCode < 300) fileReleases.kick();
  });
  await notifications.start();
  app.addHook('onClose', () => notifications.stop());
  await revokedSessions.start();
  app.addHook('onClose', () => revokedSessions.stop());
  const sessionActivity = new SessionActivity(database.db, app.log);
  registerAuthentication(app, config.jwtSecret, revokedSessions, sessionActivity, (userId) =>
    lacksTwoStep(database.db, userId),
  );
  const ctx: AppContext = {
    config,
    db: database.db,
    databaseEngine: database.engine,
    mailer,
    documentFiles: { store: files, releases: fileReleases },
    revokedSessions,
    routeTimings,
    settings,
  };
  const importRunner = new ImportRunner(database, app.log);
  app.addHook('onReady', () => importRunner.start());
  app.addHook('onClose', () => importRunner.stop());
  const statementRunner = new StatementRunner(database, app.log);
  app.addHook('onReady', () => statementRunner.start());
  app.addHook('onClose', () => statementRunner.stop());
  const notificationRunner = new NotificationRunner(
    database,
    mailer,
    { appUrl: config.appUrl, retryDelaySeconds: config.notificationRetrySeconds },
    app.log,
  );
  app.decorate('notificationRunner', notificationRunner);
  app.addHook('onReady', () => notificationRunner.start());
  app.addHook('onClose', () => notificationRunner.stop());

  await app.register(
    async (api) => {
      // API answers belong to one user or carry tokens: no browser or proxy may keep a copy.
      api.addHook('onRequest', (_request, reply, done) => {
        reply.header('cache-control', 'no-store');
        done();
      });
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      await api.register(healthRoutes(database.pool));
      await api.register(accountRoutes(ctx));
      await api.register(platformSettingsRoutes(ctx));
      await api.register(billingRoutes(ctx));
      await api.register(contactRoutes(ctx));
      await api.register(adminRoutes(ctx), { prefix: '/admin' });
      await api.register(policyTypeRoutes(ctx));
      await api.register(companyRoutes(ctx));
      await api.register(rateRoutes(ctx));
      await api.register(customerRoutes(ctx));
      await api.register(setupRoutes(ctx));
      await api.register(policyRoutes(ctx));
      await api.register(paymentRoutes(ctx));
      await api.register(analyticsRoutes(ctx));
      await api.register(commissionReportRoutes(ctx));
      await api.register(commissionStatementRoutes(ctx, statementRunner));
      await api.register(statementReviewRoutes(ctx));
      await api.register(claimRoutes(ctx));
      await api.register(leadRoutes(ctx));
      await api.register(dashboardRoutes(ctx));
      await api.register(alertRoutes(ctx));
      await api.register(calendarRoutes(ctx));
      await api.register(importRoutes(ctx, importRunner));
      await api.register(searchRoutes(ctx));
      await api.register(notificationRoutes(ctx, notificationRunner));
      await api.register(supportRoutes(ctx));
      await api.register(auditRoutes(ctx));
      await api.register(teamRoutes(ctx));
      await api.register(invitationRoutes(ctx));
      await api.register(reassignRoutes(ctx));
      await api.register(documentRoutes(ctx));
    },
    { prefix: '/api' },
  );

  await serveWebApp(app);
  return app;
}

/** Serves the built web app, answering unknown non-API paths with index.html for client routing. */
async function serveWebApp(app: FastifyInstance): Promise<void> {
  const hasWebBuild = existsSync(path.join(WEB_DIST_DIR, 'index.html'));
  if (hasWebBuild) {
    await app.register(fastifyStatic, {
      root: WEB_DIST_DIR,
      wildcard: false,
      index: false,
      // Built assets carry a content hash in their names, so browsers may keep them for good.
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const { pathname } = new URL(request.url, 'http://localhost');
    // A missing file (an old asset name) is a 404, not the app: only page paths get index.html.
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      !/\.[A-Za-z0-9]+$/.test(pathname);
    if (hasWebBuild && wantsPage) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ detail: 'Not found.' });
  });
}
