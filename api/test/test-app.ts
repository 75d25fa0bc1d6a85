import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MODULES, type ModuleName, type UserProfile } from '@coverdesk/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import type { DatabaseHandle } from '../src/db/client.js';
import { withTenant } from '../src/db/tenant.js';
import { plans, subscriptions } from '../src/modules/billing/tables.js';
import { type FileStore, openFileStore } from '../src/modules/documents/storage.js';
import { openTestDatabase } from './database.js';

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  files: FileStore;
  close(): Promise<void>;
}

/**
 * The real app on its own database, driven through `app.inject`. With `demoAgency`, the database
 * starts with the demo agency in it, built once for the whole run rather than by each test that
 * needs it, and the test's files directory with a copy of the demo's documents' files.
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  { demoAgency = false } = {},
): Promise<TestApp> {
  const config: Config = {
    ...loadConfig({ DATA_DIR: '/nonexistent', JWT_SECRET: randomBytes(32).toString('hex') }),
    logLevel: 'silent',
    smtpUrl: undefined,
    adminEmails: [],
    appUrl: 'http://coverdesk.test',
    // The admin portal's own tests sign in with a password alone; the tests of two-step sign-in
    // turn the gate on (accounts/mfa.test.ts).
    adminMfaRequired: false,
    // Documents' files in a directory of the test's own, removed with it.
    files: { kind: 'disk', dir: mkdtempSync(path.join(os.tmpdir(), 'coverdesk-files-')) },
    ...overrides,
  };
  const database = await openTestDatabase(inject(demoAgency ? 'demoDatabaseTemplate' : 'databaseTemplate'));
  if (demoAgency && config.files.kind === 'disk') {
    cpSync(inject('demoFilesDir'), config.files.dir, { recursive: true });
  }
  const files = openFileStore(config.files);
  // Not readied here, so a test may add a route before its first request.
  const app = await buildApp(config, database, files);
  return {
    app,
    database,
    config,
    files,
    async close() {
      await app.close();
      files.close();
      await database.close();
      if (config.files.kind === 'disk') rmSync(config.files.dir, { recursive: true, force: true });
    },
  };
}

export const PASSWORD = 'quiet harbour lighthouse';

/** Registers a new agency through the API; every call gets a unique email. */
export async function registerAgency(app: FastifyInstance, overrides: Record<string, string> = {}) {
  const body = {
    email: `broker-${randomUUID().slice(0, 8)}@example.com`,
    password: PASSWORD,
    first_name: 'Noa',
    last_name: 'Peretz',
    company_name: 'Peretz Insurance',
    ...overrides,
  };
  // Each from an address of its own, as agencies sign up from their own offices: registration is
  // throttled per address.
  const response = await app.inject({
    method: 'POST',
    url: '/api/accounts/register/',
    payload: body,
    remoteAddress: `10.${randomInt(256)}.${randomInt(256)}.${randomInt(256)}`,
  });
  if (response.statusCode !== 201) throw new Error(`registration failed: ${response.body}`);
  const session = response.json() as {
    access: string;
    refresh: string;
    user: UserProfile;
  };
  return { ...session, email: body.email.toLowerCase(), password: body.password };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Calls the API as one signed-in user: `as.get('/api/customers/')`. */
export function apiAs(app: FastifyInstance, token: string) {
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE') => (url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: bearer(token),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    get: call('GET'),
    post: call('POST'),
    put: call('PUT'),
    patch: call('PATCH'),
    delete: call('DELETE'),
  };
}

/** Moves an agency to another plan or status, the way billing will. */
export async function setSubscription(
  t: TestApp,
  tenantId: string,
  changes: { plan?: string; status?: 'active' | 'expired' | 'trial' },
) {
  await withTenant(t.database.db, tenantId, async (tx) => {
    const [plan] = changes.plan ? await tx.select().from(plans).where(eq(plans.name, changes.plan)) : [];
    await tx
      .update(subscriptions)
      .set({
        ...(plan ? { planId: plan.id } : {}),
        ...(changes.status ? { status: changes.status } : {}),
      })
      .where(eq(subscriptions.tenantId, tenantId));
  });
}

/** A new agency, with a caller signed in as its owner. */
export async function signedInAgency(app: FastifyInstance, overrides: Record<string, string> = {}) {
  const session = await registerAgency(app, overrides);
  return { ...session, as: apiAs(app, session.access) };
}

/** A plan leaving one module out; the catalogue has none, so gate tests add their own. */
export async function addPlanWithout(t: TestApp, module: ModuleName): Promise<string> {
  const name = `without-${module}-${randomUUID().slice(0, 8)}`;
  await t.database.db.insert(plans).values({
    name,
    displayName: 'Test',
    description: 'A plan for one test.',
    priceMonthly: '9.99',
    priceYearly: '99.99',
    trialDays: 14,
    features: { included: MODULES.filter((included) => included !== module), excluded: [module] },
    limits: { policies: 10, customers: 10, leads: 10, users: 10, storage_mb: 10 },
  });
  return name;
}

/**
 * The database's today, which statuses, overdue instalments and payment dates are read from, and the
 * date `days` from it (negative for the past): tests count days from the same day the queries do.
 */
export async function databaseCalendar(t: TestApp) {
  const { rows } = await t.database.db.execute<{ today: string }>(sql`select current_date::text as today`);
  const today = rows[0]?.today ?? '';
  const day = (days: number) => {
    const date = new Date(`${today}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() + days);
    return date.toISOString().slice(0, 10);
  };
  return { today, day };
}
