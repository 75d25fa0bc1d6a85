import { loadConfig } from '../config.js';
import { prepareDatabase } from '../db/prepare.js';
import { ensureDemoAgency, resetDemoAgency } from '../modules/demo/account.js';
import '../modules/wiring.js';
import { runCommand } from './run-command.js';

/**
 * Rebuilds the demo agency now, as the app does every day at 03:00, creating it if it is missing.
 * Opens the same database as the app. On the embedded database, stop the server first: PGlite's
 * data directory serves one process at a time.
 */
runCommand(async () => {
  // Created here rather than by prepareDatabase, so a missing agency is not seeded twice.
  const database = await prepareDatabase({ ...loadConfig(), demoEnabled: false });
  try {
    const started = Date.now();
    const reset = await resetDemoAgency(database.db);
    if (!reset) await ensureDemoAgency(database.db);
    console.log(`${reset ? 'Rebuilt' : 'Created'} the demo agency in ${Date.now() - started} ms.`);
  } finally {
    await database.close();
  }
});
