import path from 'node:path';
import type { Config } from '../config.js';
import { promoteAdmins } from '../modules/accounts/queries.js';
import { applyPaddlePrices, seedPlans } from '../modules/billing/plan-catalogue.js';
import { savedPaddleSettings } from '../modules/platform-settings/store.js';
import { type DatabaseHandle, openDatabase } from './client.js';
import { runMigrations } from './migrate.js';

/** Where the embedded database lives when no DATABASE_URL is set. */
export function pgliteDataDir(config: Config): string {
  return path.join(config.dataDir, 'pglite');
}

/** Opens the configured database and brings it up to date: migrations, plans, admins. */
export async function prepareDatabase(config: Config): Promise<DatabaseHandle> {
  const database = await openDatabase(
    config.databaseUrl
      ? { url: config.databaseUrl, poolSize: config.databasePoolSize }
      : { pglite: { dataDir: pgliteDataDir(config) } },
  );
  try {
    await runMigrations(database.pool);
    await seedPlans(database.db);
    // Prices saved in /admin/paddle-setup win over PADDLE_PRICES, as the rest of its settings do.
    await applyPaddlePrices(database.db, (await savedPaddleSettings(database.db)) ?? config.paddle);
    await promoteAdmins(database.db, config.adminEmails);
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}
