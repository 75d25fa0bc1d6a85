import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { createServerDatabase, serverUrl } from '../../test/database.js';
import { loadConfig } from '../config.js';
import { users } from '../modules/accounts/tables.js';
import { agencyUsers, tenants } from '../modules/tenants/tables.js';
import { backupDatabase, restoreDatabase } from './backup.js';
import { type DatabaseHandle, openDatabase } from './client.js';
import { expectedMigrationCount } from './migrate.js';
import { pgliteDataDir } from './prepare.js';
import { withTenant } from './tenant.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'coverdesk-backup-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** The configuration the commands read; JWT_SECRET given so no secret is written into DATA_DIR. */
function configFor(dataDir: string, databaseUrl?: string) {
  return loadConfig({ DATA_DIR: path.join(work, dataDir), DATABASE_URL: databaseUrl, JWT_SECRET: 'test' });
}

async function addAgency(database: DatabaseHandle, name: string): Promise<string> {
  const [agency] = await database.db.insert(tenants).values({ name }).returning({ id: tenants.id });
  if (!agency) throw new Error('no agency inserted');
  await database.db
    .insert(users)
    .values({ tenantId: agency.id, email: `${randomUUID()}@example.com`, firstName: name });
  return agency.id;
}

async function agencyNames(database: DatabaseHandle): Promise<string[]> {
  const rows = await database.db.select({ name: tenants.name }).from(tenants).orderBy(tenants.name);
  return rows.map((row) => row.name);
}

const expectedLevel = { applied: expectedMigrationCount(), expected: expectedMigrationCount() };

describe('a snapshot that is not for this database', () => {
  it('refuses a PostgreSQL dump on the embedded database, saying how to restore it', async () => {
    const file = path.join(work, 'postgres.dump');
    await writeFile(file, 'PGDMP and the rest of an archive');
    await expect(restoreDatabase(configFor('pg-dump-target'), file)).rejects.toThrow(/set DATABASE_URL/i);
    expect(existsSync(pgliteDataDir(configFor('pg-dump-target')))).toBe(false);
  });

  it('refuses a file that is not a backup at all, and one that is missing', async () => {
    const file = path.join(work, 'notes.txt');
    await writeFile(file, 'not a backup');
    await expect(restoreDatabase(configFor('notes-target'), file)).rejects.toThrow(/not a Coverdesk backup/);
    await expect(restoreDatabase(configFor('notes-target'), path.join(work, 'missing'))).rejects.toThrow(
      /There is no file/,
    );
  });
});

describe.skipIf(serverUrl)('backup and restore on the embedded database', () => {
  const source = () => configFor('source');
  let snapshot: string;
  let agencyId: string;

  beforeAll(async () => {
    // The migrated template of this run, in a data directory as the app keeps one.
    const database = await openDatabase({
      pglite: {
        dataDir: pgliteDataDir(source()),
        loadDataDir: new Blob([await readFile(inject('databaseTemplate'))]),
      },
    });
    try {
      agencyId = await addAgency(database, 'Harbour Insurance');
    } finally {
      await database.close();
    }
    snapshot = path.join(work, 'pglite.dump');
    const backup = await backupDatabase(source(), snapshot);
    expect(backup).toMatchObject({ engine: 'pglite', file: snapshot });
    expect(backup.bytes).toBeGreaterThan(0);
  });

  it('restores the snapshot into an empty data directory, closed and ready to start', async () => {
    const target = configFor('restored');
    const restored = await restoreDatabase(target, snapshot);
    expect(restored).toEqual({
      engine: 'pglite',
      agencies: 1,
      users: 1,
      migrations: expectedLevel,
      replacedDir: undefined,
    });
    // Left closed, so the server (or the next backup) may open it.
    expect(existsSync(path.join(pgliteDataDir(target), 'postmaster.pid'))).toBe(false);
    const database = await openDatabase({ pglite: { dataDir: pgliteDataDir(target) } });
    try {
      expect(await agencyNames(database)).toEqual(['Harbour Insurance']);
      const colleagues = await withTenant(database.db, agencyId, (tx) => tx.select().from(agencyUsers));
      expect(colleagues.map((user) => user.firstName)).toEqual(['Harbour Insurance']);
    } finally {
      await database.close();
    }
  });

  it('refuses a data directory that holds a database unless forced, then moves it aside', async () => {
    const target = configFor('occupied');
    const dataDir = pgliteDataDir(target);
    await mkdir(dataDir, { recursive: true });
    await writeFile(path.join(dataDir, 'PG_VERSION'), '17\n');

    await expect(restoreDatabase(target, snapshot)).rejects.toThrow(/already holds a database.*--force/);
    expect(await readdir(dataDir)).toEqual(['PG_VERSION']);

    const restored = await restoreDatabase(target, snapshot, { force: true });
    expect(restored.agencies).toBe(1);
    expect(restored.replacedDir).toMatch(/pglite\.replaced-\d{4}-\d\d-\d\dT[\d-]+Z$/);
    expect(await readdir(restored.replacedDir ?? '')).toEqual(['PG_VERSION']);
    expect(await readdir(dataDir)).toContain('base');
  });

  it('refuses to back up or restore over a database another process has open', async () => {
    const target = configFor('open');
    await mkdir(pgliteDataDir(target), { recursive: true });
    for (const name of ['PG_VERSION', 'postmaster.pid']) {
      await writeFile(path.join(pgliteDataDir(target), name), '');
    }
    const file = path.join(work, 'open.dump');
    await expect(backupDatabase(target, file)).rejects.toThrow(/^Stop Coverdesk first/);
    await expect(restoreDatabase(target, snapshot, { force: true })).rejects.toThrow(/^Stop Coverdesk first/);
    expect(existsSync(file) || existsSync(`${file}.partial`)).toBe(false);
  });

  it('leaves no file behind when there is nothing to back up', async () => {
    const file = path.join(work, 'nothing.dump');
    await expect(backupDatabase(configFor('nothing'), file)).rejects.toThrow(/no embedded database/);
    expect(existsSync(file) || existsSync(`${file}.partial`)).toBe(false);
  });
});

describe.runIf(serverUrl)('backup and restore on PostgreSQL', () => {
  let source: Awaited<ReturnType<typeof createServerDatabase>>;
  let snapshot: string;
  let agencyId: string;

  beforeAll(async () => {
    source = await createServerDatabase('coverdesk_backup', inject('databaseTemplate'));
    const database = await openDatabase({ url: source.url, poolSize: 1 });
    try {
      agencyId = await addAgency(database, 'Harbour Insurance');
    } finally {
      await database.close();
    }
    snapshot = path.join(work, 'postgres.dump');
    const backup = await backupDatabase(configFor('unused', source.url), snapshot);
    expect(backup).toMatchObject({ engine: 'postgresql', file: snapshot });
  });
  afterAll(() => source?.drop());

  async function emptyDatabase() {
    const target = await createServerDatabase('coverdesk_backup');
    onTestFinished(async () => {
      await target.drop();
    });
    return target;
  }

  it('restores the dump into a fresh database, grants to the tenant role included', async () => {
    const target = await emptyDatabase();
    const restored = await restoreDatabase(configFor('unused', target.url), snapshot);
    expect(restored).toEqual({ engine: 'postgresql', agencies: 1, users: 1, migrations: expectedLevel });
    const database = await openDatabase({ url: target.url, poolSize: 1 });
    try {
      expect(await agencyNames(database)).toEqual(['Harbour Insurance']);
      const colleagues = await withTenant(database.db, agencyId, (tx) => tx.select().from(agencyUsers));
      expect(colleagues.map((user) => user.firstName)).toEqual(['Harbour Insurance']);
      // The dump leaves out the marks the migrations give them; the restore, run as a superuser
      // here, sets them again.
      const leakproof = await database.pool.query(
        "select proname, proleakproof from pg_proc where proname in ('word_similarity_op', 'textlike') order by 1",
      );
      expect(leakproof.rows).toEqual([
        { proname: 'textlike', proleakproof: true },
        { proname: 'word_similarity_op', proleakproof: true },
      ]);
    } finally {
      await database.close();
    }
  });

  it('refuses a database with tables unless forced, then replaces its schemas', async () => {
    const target = await emptyDatabase();
    const config = configFor('unused', target.url);
    await restoreDatabase(config, snapshot);
    const database = await openDatabase({ url: target.url, poolSize: 1 });
    try {
      await addAgency(database, 'Added after the backup');
      await expect(restoreDatabase(config, snapshot)).rejects.toThrow(/not empty.*--force/);
      expect(await agencyNames(database)).toEqual(['Added after the backup', 'Harbour Insurance']);

      const restored = await restoreDatabase(config, snapshot, { force: true });
      expect(restored.agencies).toBe(1);
      expect(await agencyNames(database)).toEqual(['Harbour Insurance']);
    } finally {
      await database.close();
    }
  });

  it('refuses a snapshot of the embedded database, saying how to restore it', async () => {
    const file = path.join(work, 'pglite.dump');
    await writeFile(file, Buffer.from([0x1f, 0x8b, 0x08, 0, 0]));
    await expect(restoreDatabase(configFor('unused', source.url), file)).rejects.toThrow(
      /Unset DATABASE_URL/,
    );
  });
});
