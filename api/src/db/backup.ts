import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config.js';
import { users } from '../modules/accounts/tables.js';
import { tenants } from '../modules/tenants/tables.js';
import { type DatabaseHandle, openDatabase } from './client.js';
import { appliedMigrationCount, expectedMigrationCount } from './migrate.js';
import { pgliteDataDir } from './prepare.js';
import { APP_ROLE, BOOK_ROLE } from './tenant.js';

export type Engine = DatabaseHandle['engine'];

export const ENGINE_NAMES: Record<Engine, string> = {
  postgresql: 'PostgreSQL database',
  pglite: 'embedded database (PGlite)',
};

export interface BackupResult {
  engine: Engine;
  file: string;
  bytes: number;
}

export interface RestoreResult {
  engine: Engine;
  agencies: number;
  users: number;
  migrations: { applied: number; expected: number };
  /** Where `--force` moved the embedded database it replaced. */
  replacedDir?: string;
}

/**
 * Every schema the app writes: its tables, the views an own-book agent reads its figures through,
 * drizzle's migrations journal and pg-boss's queue.
 */
const APP_SCHEMAS = ['public', 'own_book', 'drizzle', 'pgboss'];

/**
 * Writes a snapshot of the configured database to `file`: a pg_dump custom archive for PostgreSQL,
 * a gzipped tarball of the data directory for the embedded database. It is written beside `file`
 * first and renamed at the end, so a backup that fails never leaves a file that looks whole.
 */
export async function backupDatabase(config: Config, file: string): Promise<BackupResult> {
  const target = path.resolve(file);
  const partial = `${target}.partial`;
  try {
    if (config.databaseUrl) await dumpPostgres(config.databaseUrl, partial);
    else await dumpPglite(pgliteDataDir(config), partial);
    await rename(partial, target);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { engine: engineOf(config), file: target, bytes: (await stat(target)).size };
}

/**
 * Loads a snapshot made by `backupDatabase` into the configured database, which must be empty unless
 * `force` is given. Then reports what came back; migrations newer than the snapshot run when
 * Coverdesk next starts.
 */
export async function restoreDatabase(
  config: Config,
  file: string,
  { force = false } = {},
): Promise<RestoreResult> {
  const source = path.resolve(file);
  const snapshot = await snapshotEngine(source);
  const engine = engineOf(config);
  if (snapshot !== engine) throw new Error(otherEngineMessage(source, snapshot));
  if (config.databaseUrl) return restorePostgres(config.databaseUrl, source, force);
  return restorePglite(pgliteDataDir(config), source, force);
}

function engineOf(config: Config): Engine {
  return config.databaseUrl ? 'postgresql' : 'pglite';
}

async function snapshotEngine(file: string): Promise<Engine> {
  const header = Buffer.alloc(5);
  try {
    const handle = await open(file, 'r');
    try {
      await handle.read(header, 0, header.length, 0);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`There is no file ${file}.`);
    throw error;
  }
  if (header.toString('latin1') === 'PGDMP') return 'postgresql';
  if (header[0] === 0x1f && header[1] === 0x8b) return 'pglite';
  throw new Error(
    `${file} is not a Coverdesk backup: it is neither a pg_dump archive nor a snapshot of the embedded database.`,
  );
}

function otherEngineMessage(file: string, snapshot: Engine): string {
  return snapshot === 'postgresql'
    ? `${file} is a backup of a PostgreSQL database, but DATABASE_URL is not set, so Coverdesk runs on the embedded database here. Set DATABASE_URL to an empty PostgreSQL database to restore it there; Coverdesk cannot move a PostgreSQL database into the embedded one.`
    : `${file} is a backup of the embedded database, but DATABASE_URL points Coverdesk at PostgreSQL. Unset DATABASE_URL to restore it into DATA_DIR; Coverdesk cannot yet move an embedded database onto PostgreSQL.`;
}

/** The counts an operator checks after a restore, refused when the snapshot is newer than the code. */
async function describeRestored(database: DatabaseHandle): Promise<Omit<RestoreResult, 'engine'>> {
  const applied = await appliedMigrationCount(database.pool);
  const expected = expectedMigrationCount();
  if (applied > expected) {
    throw new Error(
      `The backup comes from a newer Coverdesk (${applied} migrations applied; this one knows ${expected}): restore it with that version or a later one.`,
    );
  }
  return {
    agencies: await database.db.$count(tenants),
    users: await database.db.$count(users),
    migrations: { applied, expected },
  };
}

// --- PostgreSQL -------------------------------------------------------------------------------

async function dumpPostgres(url: string, file: string): Promise<void> {
  const connection = libpqConnection(url);
  const [tool, server] = await Promise.all([toolMajorVersion('pg_dump'), serverMajorVersion(url)]);
  if (tool < server) {
    throw new Error(
      `pg_dump is version ${tool} but the server runs PostgreSQL ${server}, and pg_dump cannot read a newer server: install the client tools of version ${server} or later (e.g. postgresql-client-${server}).`,
    );
  }
  await refusePartialDump(url);
  // Row-level security is forced on tenant tables, so a database user that is not a superuser reads
  // their rows through the platform_read policies (migration 0047), which need app.platform_read.
  const env = { ...connection.env, PGOPTIONS: `${connection.env.PGOPTIONS ?? ''} -c app.platform_read=on` };
  // One transaction's snapshot of the whole database, every schema included.
  await run(
    'pg_dump',
    ['--format=custom', '--enable-row-security', `--file=${file}`, `--dbname=${connection.dbname}`],
    env,
  );
}

/**
 * With row security on, pg_dump writes only the rows its user may read, so a table whose rows the
 * user reaches through no platform_read policy would be left out without a word.
 */
async function refusePartialDump(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ relname: string }>(
      `select c.relname from pg_class c
       where c.relrowsecurity and c.relnamespace = any(select oid from pg_namespace where nspname = any($1))
         and not (select rolsuper or rolbypassrls from pg_roles where rolname = current_user)
         and not exists (select 1 from pg_policies p where p.schemaname = c.relnamespace::regnamespace::name
           and p.tablename = c.relname and p.policyname = 'platform_read' and current_user = any(p.roles))
       order by 1`,
      [APP_SCHEMAS],
    );
    if (result.rows.length > 0) {
      throw new Error(
        `The database user in DATABASE_URL may not read every agency's rows of ${result.rows.map((row) => row.relname).join(', ')}, so the backup would miss them. Back up as the user Coverdesk runs as (its platform_read policies name it), or as a superuser.`,
      );
    }
  } finally {
    await client.end();
  }
}

async function restorePostgres(url: string, file: string, force: boolean): Promise<RestoreResult> {
  const connection = libpqConnection(url);
  // Before anything is dropped, so a missing pg_restore leaves the database as it was.
  await toolMajorVersion('pg_restore');
  const database = await openDatabase({ url, poolSize: 1 });
  try {
    const tables = await database.pool.query<{ count: string }>(
      'select count(*) from pg_tables where schemaname = any($1)',
      [APP_SCHEMAS],
    );
    const count = Number(tables.rows[0]?.count ?? 0);
    if (count > 0 && !force) {
      throw new Error(
        `The database in DATABASE_URL is not empty (${count} tables in ${APP_SCHEMAS.join(', ')}). Restore into an empty database, or add --force to drop those schemas and restore in their place (back them up first: they are gone even if the restore then fails).`,
      );
    }
    if (force) await database.pool.query(DROP_APP_SCHEMAS);
    await database.pool.query(ENSURE_APP_ROLES);
    // Ownership goes to whoever restores (the database's own user); grants to the tenant role stay.
    await run(
      'pg_restore',
      ['--exit-on-error', '--single-transaction', '--no-owner', `--dbname=${connection.dbname}`, file],
      connection.env,
    ).catch((error: Error) => {
      const role = /role "([^"]+)" does not exist/.exec(error.message)?.[1];
      if (!role) throw error;
      throw new Error(
        `The backup's row-level security policies name the database user "${role}", which this server does not have. Create it first (CREATE ROLE "${role}" NOLOGIN;) and restore again: the restore then hands those policies to the user in DATABASE_URL.`,
      );
    });
    await database.pool.query(POLICIES_TO_RESTORING_USER);
    await database.pool.query(MARK_SEARCH_LEAKPROOF);
    return { engine: 'postgresql', ...(await describeRestored(database)) };
  } finally {
    await database.close();
  }
}

/**
 * Leaves the database as `CREATE DATABASE` makes it: `public` owned by the database's owner and open
 * to all, as the dump expects to find it. The extensions in `public` go with it; the dump makes them
 * again.
 */
const DROP_APP_SCHEMAS = `
  drop schema if exists ${APP_SCHEMAS.join(', ')} cascade;
  create schema public authorization pg_database_owner;
  grant usage on schema public to public;`;

/**
 * Roles belong to the server, not to a database, so a dump holds grants to the tenant roles but not
 * the roles themselves nor the one's membership in the other: on a new server they must exist before
 * they are restored. As migrations 0001 and `own-book-role` make them, and the restoring user must be
 * a member of both to switch to them.
 */
const ENSURE_APP_ROLES = `
  do $$
  begin
    if not exists (select 1 from pg_roles where rolname = '${APP_ROLE}') then
      create role ${APP_ROLE} nologin nobypassrls;
    end if;
    if not exists (select 1 from pg_roles where rolname = '${BOOK_ROLE}') then
      create role ${BOOK_ROLE} nologin nobypassrls;
    end if;
    grant ${APP_ROLE} to ${BOOK_ROLE};
    if not (select rolsuper from pg_roles where rolname = current_user) then
      execute format('grant ${APP_ROLE}, ${BOOK_ROLE} to %I', current_user);
    end if;
  end
  $$`;

/**
 * The migrations give the user they run as its own policies (platform_read, platform_audit,
 * contact_form: the app's reads across agencies and its writes outside one), by name. The restored
 * database is served by the user in DATABASE_URL, who restored it, and it may not be the one the
 * backup was made from.
 */
const POLICIES_TO_RESTORING_USER = `
  do $$
  declare
    policy record;
  begin
    for policy in
      select policyname, tablename from pg_policies
      where schemaname = 'public' and not (roles && array['public', '${APP_ROLE}', '${BOOK_ROLE}']::name[])
    loop
      execute format('alter policy %I on public.%I to current_user', policy.policyname, policy.tablename);
    end loop;
  end
  $$`;

/**
 * pg_dump leaves out what was changed on a function an extension made or PostgreSQL's own, so the
 * dump loses the LEAKPROOF marks migrations 0036 and 0072 give pg_trgm's similarity operator and
 * LIKE, without which search reads an agency's rows one by one. Only a superuser may set them again,
 * as only one could in the migrations.
 */
const MARK_SEARCH_LEAKPROOF = `
  do $$
  begin
    if (select rolsuper from pg_roles where rolname = current_user) then
      alter function word_similarity_op(text, text) leakproof;
      alter function textlike(text, text) leakproof;
    end if;
  end
  $$`;

/**
 * pg_dump and pg_restore's connection: the URL without its password, which goes in PGPASSWORD
 * instead, since every user of the machine can read a process's command line (`ps`).
 */
function libpqConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = parsed.password
    ? decodeURIComponent(parsed.password)
    : (parsed.searchParams.get('password') ?? undefined);
  parsed.password = '';
  parsed.searchParams.delete('password');
  return {
    dbname: parsed.toString(),
    env: password === undefined ? process.env : { ...process.env, PGPASSWORD: password },
  };
}

async function serverMajorVersion(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ server_version_num: string }>('show server_version_num');
    return Math.floor(Number(result.rows[0]?.server_version_num) / 10_000);
  } finally {
    await client.end();
  }
}

/** Also tells the operator, in a sentence, when the tool is not installed at all. */
async function toolMajorVersion(tool: string): Promise<number> {
  const version = /\d+/.exec(await run(tool, ['--version']))?.[0];
  if (!version) throw new Error(`Could not tell which version ${tool} is.`);
  return Number(version);
}

function run(tool: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new Error(
              `${tool} was not found. Install PostgreSQL's client tools, of the server's version or later (e.g. apt install postgresql-client), and run this again.`,
            )
          : error,
      );
    });
    child.on('close', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${tool} failed: ${stderr.trim() || `exit code ${code}`}`));
    });
  });
}

// --- Embedded database (PGlite) ----------------------------------------------------------------

async function dumpPglite(dataDir: string, file: string): Promise<void> {
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    throw new Error(
      `There is no embedded database in ${dataDir} to back up. Set DATA_DIR to the directory Coverdesk runs with, or DATABASE_URL to back up PostgreSQL.`,
    );
  }
  refuseWhileOpen(dataDir);
  const database = await openDatabase({ pglite: { dataDir } });
  try {
    if (!database.pglite) throw new Error('the embedded database cannot be dumped');
    const dump = await database.pglite.dumpDataDir('gzip');
    const handle = await open(file, 'w');
    try {
      await handle.writeFile(Buffer.from(await dump.arrayBuffer()));
      await handle.sync();
    } finally {
      await handle.close();
    }
  } finally {
    await database.close();
  }
}

async function restorePglite(dataDir: string, file: string, force: boolean): Promise<RestoreResult> {
  refuseWhileOpen(dataDir);
  const occupied = (await readdir(dataDir).catch(() => [])).length > 0;
  if (occupied && !force) {
    throw new Error(
      `${dataDir} already holds a database. Restore into an empty DATA_DIR, or add --force to move it aside (kept as pglite.replaced-<time> beside it) and restore in its place.`,
    );
  }
  // Loaded beside the target and moved in only once it opens and checks out, so a failed restore
  // leaves the current database where it was.
  const staging = `${dataDir}.restoring`;
  await rm(staging, { recursive: true, force: true });
  let restored: Omit<RestoreResult, 'engine'>;
  try {
    const database = await openDatabase({
      pglite: { dataDir: staging, loadDataDir: new Blob([await readFile(file)]) },
    });
    try {
      restored = await describeRestored(database);
    } finally {
      await database.close();
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  let replacedDir: string | undefined;
  if (occupied) {
    replacedDir = `${dataDir}.replaced-${new Date().toISOString().replaceAll(/[:.]/g, '-')}`;
    await rename(dataDir, replacedDir);
  } else {
    await rm(dataDir, { recursive: true, force: true });
  }
  await rename(staging, dataDir);
  return { engine: 'pglite', ...restored, replacedDir };
}

/**
 * PGlite writes postmaster.pid while a process has the directory open and removes it on close, but
 * does not itself stop a second process from opening it, which would corrupt the database.
 */
function refuseWhileOpen(dataDir: string): void {
  if (existsSync(path.join(dataDir, 'postmaster.pid'))) {
    throw new Error(
      `Stop Coverdesk first: the embedded database in ${dataDir} is open in another process, and it serves one process at a time. If no Coverdesk is running, the last one stopped without closing it: start Coverdesk and stop it once (Ctrl+C), then run this again.`,
    );
  }
}
