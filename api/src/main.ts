import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { prepareDatabase } from './db/prepare.js';
import { scheduleBillingSettlement } from './modules/billing/schedule.js';
import { scheduleDemoReset } from './modules/demo/schedule.js';

const config = loadConfig();
const database = await prepareDatabase(config);
const app = await buildApp(config, database);
const demoReset = config.demoEnabled ? scheduleDemoReset(database.db, app.log) : undefined;
const billingSettlement = scheduleBillingSettlement(database.db, app.log);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing requests in flight');
  // A request that hangs must not keep the process alive forever.
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await app.close();
    await demoReset?.stop();
    await billingSettlement.stop();
    await database.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
app.log.info(
  { engine: database.engine, dataDir: database.engine === 'pglite' ? config.dataDir : undefined },
  `Coverdesk is running on ${config.appUrl}`,
);
