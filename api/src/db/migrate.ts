import { readFileSync } from 'node:fs';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';
import { installJobQueue } from '../jobs/queue.js';
import { MIGRATIONS_DIR } from '../paths.js';

/** An arbitrary constant: the advisory lock that lets only one instance migrate at a time. */
const MIGRATION_LOCK_ID = 7_202_611;

/**
 * Brings the app's schema and pg-boss's up to date, one instance at a time: instances started
 * together on a new database would otherwise both create pg-boss's schema, and one would fail.
 */
export async function runMigrations(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
    await installJobQueue(client);
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
    client.release();
  }
}

export function expectedMigrationCount(): number {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

export async function appliedMigrationCount(pool: pg.Pool): Promise<number> {
  const result = await pool.query<{ count: string }>('select count(*) from drizzle.__drizzle_migrations');
  return Number(result.rows[0]?.count ?? 0);
}
