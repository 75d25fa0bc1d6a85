import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.js';
import { databaseUrlFor, migrateTemplate, serverUrl, withServerClient } from './database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PGlite dump file, or the name of a PostgreSQL template database. */
    databaseTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  if (!serverUrl) {
    const dir = await mkdtemp(path.join(tmpdir(), 'coverdesk-test-'));
    const database = await openDatabase({ pglite: {} });
    await migrateTemplate(database);
    const dump = await database.pglite?.dumpDataDir('none');
    if (!dump) throw new Error('the embedded database cannot be dumped');
    const file = path.join(dir, 'template.tar');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
    await database.close();
    project.provide('databaseTemplate', file);
    return () => rm(dir, { recursive: true, force: true });
  }

  const name = `coverdesk_template_${process.pid}`;
  await withServerClient(async (client) => {
    await client.query(`drop database if exists ${name}`);
    await client.query(`create database ${name}`);
  });
  const database = await openDatabase({ url: databaseUrlFor(name), poolSize: 2 });
  await migrateTemplate(database);
  await database.close();
  project.provide('databaseTemplate', name);
  return () => withServerClient((client) => client.query(`drop database if exists ${name} with (force)`));
}
