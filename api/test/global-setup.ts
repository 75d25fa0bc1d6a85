import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client.js';
import { ensureDemoAgency } from '../src/modules/demo/account.js';
import { DiskStore } from '../src/modules/documents/storage.js';
// The demo agency is built here, outside the app: its trial and audit need the modules' registries.
import '../src/modules/wiring.js';
import { databaseUrlFor, migrateTemplate, serverUrl, withServerClient } from './database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PGlite dump file, or the name of a PostgreSQL template database. */
    databaseTemplate: string;
    /** The same with the demo agency built in it. */
    demoDatabaseTemplate: string;
    /** The demo agency's documents' files, which a test opening the demo gets a copy of. */
    demoFilesDir: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(tmpdir(), 'coverdesk-test-'));
  const demoFiles = new DiskStore(path.join(dir, 'demo-files'));
  project.provide('demoFilesDir', path.join(dir, 'demo-files'));
  const removeDir = () => rm(dir, { recursive: true, force: true });
  if (!serverUrl) {
    const database = await openDatabase({ pglite: {} });
    await migrateTemplate(database);
    const dumpTo = async (name: string) => {
      const dump = await database.pglite?.dumpDataDir('none');
      if (!dump) throw new Error('the embedded database cannot be dumped');
      const file = path.join(dir, name);
      await writeFile(file, Buffer.from(await dump.arrayBuffer()));
      return file;
    };
    project.provide('databaseTemplate', await dumpTo('template.tar'));
    await ensureDemoAgency(database.db, demoFiles);
    project.provide('demoDatabaseTemplate', await dumpTo('demo-template.tar'));
    await database.close();
    return removeDir;
  }

  const name = `coverdesk_template_${process.pid}`;
  const demoName = `coverdesk_demo_template_${process.pid}`;
  const dropBoth = () =>
    withServerClient(async (client) => {
      for (const template of [demoName, name])
        await client.query(`drop database if exists ${template} with (force)`);
    });
  await dropBoth();
  await withServerClient((client) => client.query(`create database ${name}`));
  const database = await openDatabase({ url: databaseUrlFor(name), poolSize: 2 });
  await migrateTemplate(database);
  await database.close();
  await withServerClient((client) => client.query(`create database ${demoName} template ${name}`));
  const demo = await openDatabase({ url: databaseUrlFor(demoName), poolSize: 2 });
  await ensureDemoAgency(demo.db, demoFiles);
  await demo.close();
  project.provide('databaseTemplate', name);
  project.provide('demoDatabaseTemplate', demoName);
  return async () => {
    await dropBoth();
    await removeDir();
  };
}
