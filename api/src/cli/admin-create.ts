import { parseArgs } from 'node:util';
import { emailField, passwordField } from '@coverdesk/contract';
import { loadConfig } from '../config.js';
import { prepareDatabase } from '../db/prepare.js';
import { HttpError } from '../http/errors.js';
import { createAdmin } from '../modules/accounts/admins.js';
import '../modules/wiring.js';

const USAGE =
  'Usage: npm run admin:create -- --email EMAIL --password PASSWORD [--first-name NAME] [--last-name NAME]';

/**
 * Creates a platform admin from the command line. On the embedded database, stop the server first:
 * PGlite's data directory serves one process at a time.
 */
async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: 'string', default: '' },
      password: { type: 'string', default: '' },
      'first-name': { type: 'string', default: 'Platform' },
      'last-name': { type: 'string', default: 'Administrator' },
    },
  });
  const email = emailField.safeParse(values.email);
  if (!email.success) throw new Error(`--email: ${email.error.issues[0]?.message}\n${USAGE}`);
  const password = passwordField.safeParse(values.password);
  if (!password.success) throw new Error(`--password: ${password.error.issues[0]?.message}\n${USAGE}`);

  const database = await prepareDatabase(loadConfig());
  try {
    const outcome = await createAdmin(database.db, {
      email: email.data,
      password: password.data,
      firstName: values['first-name'],
      lastName: values['last-name'],
    });
    console.log(outcome === 'created' ? `Created admin ${email.data}.` : `${email.data} is now an admin.`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  const message =
    error instanceof HttpError
      ? Object.values(error.body).flat().join(' ')
      : error instanceof Error
        ? error.message
        : String(error);
  console.error(message);
  process.exit(1);
});
