import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { backupDatabase, ENGINE_NAMES } from '../db/backup.js';
import { runCommand } from './run-command.js';

const USAGE = 'Usage: npm run backup -- FILE';

/**
 * Writes a snapshot of the database Coverdesk is configured for (DATABASE_URL, else DATA_DIR) to
 * FILE. On the embedded database, stop the server first: its data directory serves one process at a
 * time.
 */
runCommand(async () => {
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new Error(USAGE);
  const backup = await backupDatabase(loadConfig(), file);
  console.log(`Backed up the ${ENGINE_NAMES[backup.engine]} to ${backup.file} (${megabytes(backup.bytes)}).`);
});

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 2 : 0)} MB`;
}
