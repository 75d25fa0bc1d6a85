import { parseArgs } from 'node:util';
import { emailField, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@coverdesk/contract';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../config.js';
import { prepareDatabase } from '../db/prepare.js';
import { HttpError } from '../http/errors.js';
import { hashPassword } from '../modules/accounts/passwords.js';
import { findUserByEmail } from '../modules/accounts/queries.js';
import { assertAcceptablePassword, createAgency } from '../modules/accounts/service.js';
import { users } from '../modules/accounts/tables.js';

const usage =
  'Usage: npm run admin:create -- --email EMAIL --password PASSWORD [--first-name NAME] [--last-name NAME]';

/**
 * Creates a platform admin, or makes an existing account one and sets its password. On the embedded
 * database, stop the server first: PGlite's data directory serves one process at a time.
 */
async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string', default: 'Platform' },
      'last-name': { type: 'string', default: 'Administrator' },
    },
  });
  const parsedEmail = emailField.safeParse(values.email ?? '');
  const password = values.password ?? '';
  if (!parsedEmail.success) throw new Error(`A valid --email is required.\n${usage}`);
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw new Error(
      `--password must have ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.\n${usage}`,
    );
  }
  const email = parsedEmail.data;
  assertAcceptablePassword('password', password, [email]);

  const config = loadConfig();
  const database = await prepareDatabase({ ...config, demoEnabled: false });
  try {
    const existing = await findUserByEmail(database.db, email);
    if (existing) {
      await database.db
        .update(users)
        .set({ isAdmin: true, passwordHash: await hashPassword(password) })
        .where(eq(users.id, existing.id));
      console.log(`${email} is now an admin; its password was updated.`);
    } else {
      await createAgency(database.db, {
        email,
        password,
        firstName: values['first-name'] ?? 'Platform',
        lastName: values['last-name'] ?? 'Administrator',
        companyName: 'Coverdesk administration',
        isAdmin: true,
      });
      console.log(`Created admin ${email}.`);
    }
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
