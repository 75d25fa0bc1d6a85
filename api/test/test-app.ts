import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import type { DatabaseHandle } from '../src/db/client.js';
import { openTestDatabase } from './database.js';

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  close(): Promise<void>;
}

/** The real app on its own database, driven through `app.inject`. */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const config: Config = {
    ...loadConfig({ DATA_DIR: '/nonexistent', JWT_SECRET: randomBytes(32).toString('hex') }),
    logLevel: 'silent',
    smtpUrl: undefined,
    adminEmails: [],
    appUrl: 'http://coverdesk.test',
    ...overrides,
  };
  const database = await openTestDatabase(inject('databaseTemplate'));
  // Not readied here, so a test may add a route before its first request.
  const app = await buildApp(config, database);
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
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
  const response = await app.inject({ method: 'POST', url: '/api/accounts/register/', payload: body });
  if (response.statusCode !== 201) throw new Error(`registration failed: ${response.body}`);
  const session = response.json() as {
    access: string;
    refresh: string;
    user: { id: string; tenant_id: string };
  };
  return { ...session, email: body.email.toLowerCase(), password: body.password };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
