import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { type DatabaseNotifications, PostgresNotifications, SoleInstance } from './notifications.js';
import { PreparingClient } from './prepared-statements.js';
import * as schema from './schema.js';

export type Database = NodePgDatabase<typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Query functions accept either, so a caller can run them inside its own transaction. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
  engine: 'postgresql' | 'pglite';
  /** The embedded database itself, for dumping it (tests clone a migrated template this way). */
  pglite?: PGlite;
  /** What other instances on this database change, as they change it (not yet listening). */
  notifications(onError: (error: Error) => void): DatabaseNotifications;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { url: string; poolSize?: number }
  /** `dataDir` undefined keeps the database in memory; `loadDataDir` starts it from a dump. */
  | { pglite: { dataDir?: string; loadDataDir?: Blob } };

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if ('url' in target) {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: target.poolSize ?? 10,
      Client: PreparingClient,
    });
    return {
      ...handle(pool, 'postgresql', () => pool.end()),
      notifications: (onError) => new PostgresNotifications(target.url, onError),
    };
  }
  return openPglite(target.pglite);
}

/**
 * The embedded database's page cache, inside the process's own memory and never given back. Its
 * pages are files of the data directory, which the operating system caches as well, so a quarter of
 * PostgreSQL's 128MB default keeps the process small at little cost to reads.
 */
const PGLITE_SHARED_BUFFERS = '32MB';

/**
 * PGlite is served on a loopback socket so the app keeps one code path (node-postgres). PGlite runs
 * one query at a time, so the pool holds a single connection: transactions queue instead of
 * interleaving on one session.
 */
async function openPglite(options: { dataDir?: string; loadDataDir?: Blob }): Promise<DatabaseHandle> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // pg_trgm and btree_gin ship with PGlite but load only when named; the search indexes need both.
  const pglite = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { btree_gin, pg_trgm },
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  const server = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 1 });
  await server.start();
  const [host, port] = server.getServerConn().split(':');
  const pool = new pg.Pool({
    host,
    port: Number(port),
    user: 'postgres',
    database: 'postgres',
    max: 1,
    connectionTimeoutMillis: 30_000,
  });
  const database = handle(pool, 'pglite', async () => {
    await pool.end();
    await server.stop();
    await pglite.close();
  });
  return { ...database, pglite };
}

function handle(pool: pg.Pool, engine: DatabaseHandle['engine'], close: () => Promise<void>): DatabaseHandle {
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return { db: drizzle(pool, { schema }), pool, engine, notifications: () => new SoleInstance(), close };
}
