// Seeds N agencies x M users against a running Coverdesk server and writes their credentials to JSON.
//
//   tsx seed.ts --url http://127.0.0.1:8080 --tenants 50 --users 4 --database-url postgres://root@127.0.0.1/db
//
// Agencies are registered through the API, so each gets its owner and trial the way a real sign-up
// does. The API cannot add users to an agency yet, so the other M-1 users are inserted with SQL and
// reuse an owner's password hash: one known password for everyone, without thousands of argon2 runs.
// That needs the server's PostgreSQL database; embedded PGlite cannot be reached from outside, so
// there M must be 1.

import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { RegisterBody, UserProfile } from '@coverdesk/contract';
import pg from 'pg';
import { v7 as uuidv7 } from 'uuid';

export interface SeedOptions {
  url: string;
  tenants: number;
  usersPerTenant: number;
  /** The server's own database; required when `usersPerTenant` > 1. */
  databaseUrl?: string;
}

export interface SeededUser {
  email: string;
  tenantId: string;
  isOwner: boolean;
}

export interface SeedResult {
  url: string;
  /** Shared by every seeded user. */
  password: string;
  users: SeededUser[];
}

export const DEFAULT_RESULTS_DIR = path.join(import.meta.dirname, 'results');

/** argon2 runs on the server's libuv pool (4 threads), so more parallel sign-ups would only queue. */
const REGISTER_CONCURRENCY = 4;
const REQUEST_TIMEOUT_MS = 30_000;

export async function seed(options: SeedOptions): Promise<SeedResult> {
  if (options.usersPerTenant > 1 && !options.databaseUrl) {
    throw new Error('More than one user per tenant needs --database-url (PostgreSQL only).');
  }
  // A fresh tag per run keeps emails unique when seeding a server that already holds a previous run.
  const runTag = Date.now().toString(36);
  const password = `bench-${randomBytes(12).toString('base64url')}`;
  const emailOf = (tenant: number, user: number) => `t${tenant}-u${user}.${runTag}@bench.coverdesk.example`;

  const owners = await mapWithConcurrency(range(options.tenants), REGISTER_CONCURRENCY, (tenant) =>
    registerAgency(options.url, {
      email: emailOf(tenant, 0),
      password,
      first_name: 'Bench',
      last_name: `Owner ${tenant}`,
      company_name: `Bench Agency ${tenant}`,
    }),
  );
  const users: SeededUser[] = owners.map((owner) => ({
    email: owner.email,
    tenantId: owner.tenant_id,
    isOwner: true,
  }));

  if (options.usersPerTenant > 1 && options.databaseUrl) {
    const staff = owners.flatMap((owner, tenant) =>
      range(options.usersPerTenant - 1).map((index) => ({
        email: emailOf(tenant, index + 1),
        tenantId: owner.tenant_id,
        isOwner: false,
      })),
    );
    await insertStaff(options.databaseUrl, owners[0]?.email ?? '', staff);
    users.push(...staff);
  }
  return { url: options.url, password, users };
}

async function registerAgency(url: string, body: RegisterBody): Promise<UserProfile> {
  const response = await fetch(new URL('/api/accounts/register/', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (response.status !== 201) {
    throw new Error(`register ${body.email}: HTTP ${response.status} ${await response.text()}`);
  }
  const { user } = (await response.json()) as { user: UserProfile };
  return user;
}

async function insertStaff(databaseUrl: string, ownerEmail: string, staff: SeededUser[]): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const owner = await client.query<{ password_hash: string }>(
      'select password_hash from users where email = $1',
      [ownerEmail],
    );
    const passwordHash = owner.rows[0]?.password_hash;
    if (!passwordHash) {
      throw new Error(`${ownerEmail} is not in that database: is --database-url the server's own?`);
    }
    // One statement for all rows: unnest turns the column arrays back into rows.
    await client.query(
      `insert into users (id, tenant_id, email, password_hash, first_name, last_name)
       select id, tenant_id, email, $4, 'Bench', 'Staff'
       from unnest($1::uuid[], $2::uuid[], $3::text[]) as staff(id, tenant_id, email)`,
      [
        staff.map(() => uuidv7()),
        staff.map((user) => user.tenantId),
        staff.map((user) => user.email),
        passwordHash,
      ],
    );
  } finally {
    await client.end();
  }
}

export function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index);
}

async function mapWithConcurrency<T, R>(
  items: T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(range(Math.min(concurrency, items.length)).map(worker));
  return results;
}

export function writeCredentials(result: SeedResult, file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
}

export function positiveInteger(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`--${name} must be a positive integer`);
  return number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://127.0.0.1:8080' },
      tenants: { type: 'string', default: '50' },
      users: { type: 'string', default: '1' },
      'database-url': { type: 'string' },
      out: { type: 'string', default: path.join(DEFAULT_RESULTS_DIR, 'users.json') },
    },
  });
  const result = await seed({
    url: values.url,
    tenants: positiveInteger('tenants', values.tenants),
    usersPerTenant: positiveInteger('users', values.users),
    databaseUrl: values['database-url'],
  });
  writeCredentials(result, values.out);
  console.log(`Seeded ${result.users.length} users; credentials in ${values.out}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await main();
}
