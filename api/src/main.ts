import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { prepareDatabase } from './db/prepare.js';
import { drainAndClose } from './http/graceful-stop.js';
import { type MetricsServer, startMetricsServer } from './http/metrics.js';
import { startScheduler } from './jobs/queue.js';
import { scheduleBillingSettlement } from './modules/billing/schedule.js';
import { ensureDemoAgency } from './modules/demo/account.js';
import { scheduleDemoReset } from './modules/demo/schedule.js';
import { openFileStore } from './modules/documents/storage.js';
import { GENERATE_CRON, GENERATE_QUEUE } from './modules/notifications/runner.js';

/** What supervisors (Docker, Kubernetes, systemd) usually wait after SIGTERM before they kill. */
const STOP_WITHIN_MS = 30_000;

const config = loadConfig();
const database = await prepareDatabase(config);
// Documents' bytes, the app's and the demo agency's: closed once both have stopped.
const files = openFileStore(config.files);
if (config.demoEnabled) await ensureDemoAgency(database.db, files);
const app = await buildApp(config, database, files);
const demoReset = config.demoEnabled ? scheduleDemoReset(database.db, files, app.log) : undefined;
const billingSettlement = scheduleBillingSettlement(database.db, app.log);
const scheduler = await startScheduler(database.pool, { [GENERATE_QUEUE]: GENERATE_CRON }, (err) =>
  app.log.error({ err }, 'job scheduler error'),
);

let metricsServer: MetricsServer | undefined;
let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'stopping: health answers 503, requests in flight are answered');
  // A request that hangs must not keep the process alive past what the supervisor allows.
  const force = setTimeout(() => {
    app.log.error('stopping took longer than 30 seconds: exiting with requests or jobs unfinished');
    process.exit(1);
  }, STOP_WITHIN_MS);
  force.unref();
  try {
    // The app's own onClose hooks hand back an import in progress and stop its job workers.
    await drainAndClose(app, config.shutdownDelaySeconds * 1000);
    // After the app, so Prometheus sees the instance until its last request is answered.
    await metricsServer?.close();
    await scheduler.stop();
    await demoReset?.stop();
    files.close();
    await billingSettlement.stop();
    await database.close();
    app.log.info('stopped');
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
// Prometheus scrapes a port of its own, never the app's (METRICS_PORT; off unless set).
if (config.metricsPort !== undefined) {
  metricsServer = await startMetricsServer({
    registry: app.metrics,
    port: config.metricsPort,
    host: config.host,
  });
}
app.log.info(
  { engine: database.engine, dataDir: database.engine === 'pglite' ? config.dataDir : undefined },
  `Coverdesk is running on ${config.appUrl}`,
);
