import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { seedPlans } from '../src/modules/billing/plan-catalogue.js';

/**
 * Tests run on a real database: embedded PGlite by default, the PostgreSQL server named by
 * TEST_DATABASE_URL when set. Either way each test file gets its own copy of a database migrated once.
 */
export const serverUrl = process.env.TEST_DATABASE_URL || undefined;

export function databaseUrlFor(name: string): string {
  const url = new URL(serverUrl ?? '');
  url.pathname = `/${name}`;
  return url.toString();
}

/** Applies migrations and the plan catalogue to a fresh database. */
export async function migrateTemplate(database: DatabaseHandle): Promise<void> {
  await runMigrations(database.pool);
  await seedPlans(database.db);
}

export async function withServerClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh database cloned from the template: a PGlite dump, or a PostgreSQL template database. */
export async function openTestDatabase(template: string): Promise<DatabaseHandle> {
  if (!serverUrl) {
    const { readFile } = await import('node:fs/promises');
    return openDatabase({ pglite: { loadDataDir: new Blob([await readFile(template)]) } });
  }
  const server = await createServerDatabase('coverdesk_test', template);
  const database = await openDatabase({ url: server.url, poolSize: 4 });
  return {
    ...database,
    async close() {
      await database.close();
      await server.drop();
    },
  };
}

/** A database of its own on the test server, empty or a copy of `template`, to drop when done. */
export async function createServerDatabase(prefix: string, template?: string) {
  const name = `${prefix}_${randomUUID().replaceAll('-', '')}`;
  await withServerClient((client) =>
    client.query(`create database ${name}${template ? ` template ${template}` : ''}`),
  );
  return {
    url: databaseUrlFor(name),
    drop: () => withServerClient((client) => client.query(`drop database if exists ${name} with (force)`)),
  };
}
