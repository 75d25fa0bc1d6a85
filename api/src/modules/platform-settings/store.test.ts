import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { PlatformSettings } from './store.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.ready();
});
afterAll(() => t.close());

describe('the platform settings in memory', () => {
  it('answer a reader inside a transaction from memory, even when the copy is stale', async () => {
    // Always stale: every read after the first would go to the database if it could.
    const settings = new PlatformSettings(t.database.db, t.config, t.app.log, 0);
    await settings.general();
    // A billing call reads the provider while it holds its transaction. On embedded PGlite, with one
    // connection, a read that waited for the database here would wait for this transaction for ever.
    const inside = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      return settings.general();
    });
    expect(inside).toEqual({ signupsOpen: true, demoEnabled: true, defaultTrialDays: null });
  });
});
