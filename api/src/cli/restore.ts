import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { ENGINE_NAMES, restoreDatabase } from '../db/backup.js';
import { runCommand } from './run-command.js';

const USAGE = 'Usage: npm run restore -- FILE [--force]';

/**
 * Loads a snapshot written by `npm run backup` into the database Coverdesk is configured for, which
 * must be empty unless --force is given. Stop the server first.
 */
runCommand(async () => {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { force: { type: 'boolean', default: false } },
  });
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0) throw new Error(USAGE);
  const restored = await restoreDatabase(loadConfig(), file, { force: values.force });
  const { applied, expected } = restored.migrations;
  console.log(
    `Restored ${file} into the ${ENGINE_NAMES[restored.engine]}: ${restored.agencies} agencies, ${restored.users} users.`,
  );
  console.log(
    applied === expected
      ? `It is at this Coverdesk's migration level (${applied}).`
      : `It has ${applied} of this Coverdesk's ${expected} migrations; the rest run when Coverdesk starts.`,
  );
  if (restored.replacedDir) console.log(`The database it replaced was moved to ${restored.replacedDir}.`);
});
