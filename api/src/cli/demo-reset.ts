import { loadConfig } from '../config.js';
import { prepareDatabase } from '../db/prepare.js';
import { ensureDemoAgency, resetDemoAgency } from '../modules/demo/account.js';
import { openFileStore } from '../modules/documents/storage.js';
import '../modules/wiring.js';
import { runCommand } from './run-command.js';

/**
 * Rebuilds the demo agency now, as the app does every day at 03:00, creating it if it is missing.
 * Opens the same database and file store as the app. On the embedded database, stop the server
 * first: PGlite's data directory serves one process at a time. The files of the documents it
 * replaced are deleted by the app's release runner: on PostgreSQL as soon as it hears of them,
 * else when it next starts or looks (every minute).
 */
runCommand(async () => {
  const config = loadConfig();
  const database = await prepareDatabase(config);
  const files = openFileStore(config.files);
  try {
    const started = Date.now();
    const reset = await resetDemoAgency(database.db, files);
    if (!reset) await ensureDemoAgency(database.db, files);
    console.log(`${reset ? 'Rebuilt' : 'Created'} the demo agency in ${Date.now() - started} ms.`);
  } finally {
    files.close();
    await database.close();
  }
});
