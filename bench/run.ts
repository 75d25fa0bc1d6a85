// Load benchmark of the built API (api/dist/main.js) on embedded PGlite and on PostgreSQL.
//
// For each engine and log level it starts a fresh server (new data directory or database), seeds
// agencies and users, then drives two endpoints with autocannon: reading the profile with rotating
// access tokens, and signing in with valid credentials. The README lists the flags.

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { TokenPair } from '@coverdesk/contract';
import autocannon, { type AutocannonClient, type AutocannonRequest, type AutocannonResult } from 'autocannon';
import pg from 'pg';
import { cpuSnapshot, otherCpuPercent, readMemory } from './machine.js';
import {
  DEFAULT_RESULTS_DIR,
  positiveInteger,
  range,
  type SeededUser,
  type SeedResult,
  seed,
  writeCredentials,
} from './seed.js';
import { REPO_ROOT, type RunningServer, startServer, stopServer } from './server.js';

const ENGINES = ['pglite', 'postgresql'] as const;
type Engine = (typeof ENGINES)[number];
const ENDPOINTS = ['profile', 'token'] as const;
type Endpoint = (typeof ENDPOINTS)[number];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

const REQUEST_TIMEOUT_MS = 30_000;
/** Long enough for ten abandoned sign-ins queued behind argon2 to finish. */
const SETTLE_MS = 2_000;
/** Seconds before autocannon counts a request as timed out; sign-in queues behind argon2. */
const LOAD_REQUEST_TIMEOUT_S = 10;

/** The profile target: at least this rate with p99 under this latency, on PostgreSQL. */
const TARGET = { requestsPerSecond: 2_000, p99Ms: 25 };

interface BenchOptions {
  /** The bundled server to start; another build can be compared against the current one. */
  serverEntry: string;
  engines: Engine[];
  endpoints: Endpoint[];
  logLevels: string[];
  tenants: number;
  usersPerTenant: number;
  /** How many distinct users (and so tokens or credentials) the load rotates through. */
  rotatedUsers: number;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** Passed as DATABASE_POOL_SIZE; unset leaves the server's default. */
  poolSize: string | undefined;
  /** A database on the PostgreSQL server to connect to while creating and dropping the bench one. */
  adminDatabaseUrl: string;
  benchDatabase: string;
}

interface Measurement {
  engine: Engine;
  logLevel: string;
  endpoint: Endpoint;
  requestsPerSecond: number;
  totalRequests: number;
  p50Ms: number;
  p97_5Ms: number;
  p99Ms: number;
  non2xx: number;
  /** Includes the timeouts. */
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  rssMiB: number | undefined;
  peakRssMiB: number | undefined;
  /** CPU used by processes outside the benchmark during the load; high values spoil the figures. */
  otherCpuPercent: number | undefined;
}

function parseOptions(): BenchOptions {
  const { values } = parseArgs({
    options: {
      server: { type: 'string', default: path.join(REPO_ROOT, 'api', 'dist', 'main.js') },
      engine: { type: 'string', default: 'both' },
      endpoints: { type: 'string', default: ENDPOINTS.join(',') },
      'log-levels': { type: 'string', default: 'warn' },
      tenants: { type: 'string', default: '50' },
      users: { type: 'string', default: '4' },
      'rotate-users': { type: 'string', default: '20' },
      connections: { type: 'string', default: '10' },
      duration: { type: 'string', default: '15' },
      warmup: { type: 'string', default: '3' },
      'pool-size': { type: 'string' },
      'admin-database-url': { type: 'string', default: 'postgres://root@127.0.0.1:5432/test' },
      'bench-database': { type: 'string', default: 'coverdesk_bench' },
    },
  });
  const engines = values.engine === 'both' ? [...ENGINES] : [values.engine];
  const endpoints = values.endpoints.split(',');
  const logLevels = values['log-levels'].split(',');
  const benchDatabase = values['bench-database'];
  const warmupSeconds = Number(values.warmup);
  if (!engines.every(isOneOf(ENGINES))) throw new Error('--engine must be pglite, postgresql or both');
  if (!endpoints.every(isOneOf(ENDPOINTS))) throw new Error('--endpoints must list profile and/or token');
  if (!logLevels.every(isOneOf(LOG_LEVELS)))
    throw new Error(`--log-levels must list ${LOG_LEVELS.join('/')}`);
  // The name ends up inside CREATE/DROP DATABASE, where it cannot be a bound parameter.
  if (!/^[a-z_][a-z0-9_]*$/.test(benchDatabase))
    throw new Error('--bench-database must be a plain identifier');
  if (new URL(values['admin-database-url']).pathname === `/${benchDatabase}`)
    throw new Error('--bench-database is dropped at the end: it must not be the admin database');
  if (!Number.isInteger(warmupSeconds) || warmupSeconds < 0) throw new Error('--warmup must be 0 or more');
  return {
    // npm runs the script inside bench/; a relative path means one from where npm was called.
    serverEntry: path.resolve(process.env.INIT_CWD ?? process.cwd(), values.server),
    engines,
    endpoints,
    logLevels,
    tenants: positiveInteger('tenants', values.tenants),
    usersPerTenant: positiveInteger('users', values.users),
    rotatedUsers: positiveInteger('rotate-users', values['rotate-users']),
    connections: positiveInteger('connections', values.connections),
    durationSeconds: positiveInteger('duration', values.duration),
    warmupSeconds,
    poolSize:
      values['pool-size'] === undefined
        ? undefined
        : String(positiveInteger('pool-size', values['pool-size'])),
    adminDatabaseUrl: values['admin-database-url'],
    benchDatabase,
  };
}

function isOneOf<T extends string>(allowed: readonly T[]) {
  return (value: string): value is T => (allowed as readonly string[]).includes(value);
}

async function main(): Promise<void> {
  const options = parseOptions();
  if (!existsSync(options.serverEntry)) {
    throw new Error(`${options.serverEntry} is missing: run \`npm run build -w api\` first.`);
  }
  mkdirSync(DEFAULT_RESULTS_DIR, { recursive: true });

  const measurements: Measurement[] = [];
  for (const engine of options.engines) {
    for (const logLevel of options.logLevels) {
      measurements.push(...(await runScenario(options, engine, logLevel)));
    }
  }

  const stamp = new Date().toISOString().replaceAll(':', '-');
  const resultsFile = path.join(DEFAULT_RESULTS_DIR, `bench-${stamp}.json`);
  writeFileSync(resultsFile, `${JSON.stringify({ options, measurements }, null, 2)}\n`);
  console.log(`\n${formatTable(measurements)}\n`);
  for (const verdict of targetVerdicts(measurements)) console.log(verdict);
  console.log(`\nDetails: ${resultsFile}`);
}

/** One fresh server: seed, load each endpoint, stop, and remove its data whatever happens. */
async function runScenario(options: BenchOptions, engine: Engine, logLevel: string): Promise<Measurement[]> {
  const label = `${engine}, LOG_LEVEL=${logLevel}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'coverdesk-bench-'));
  const databaseUrl = engine === 'postgresql' ? benchDatabaseUrl(options) : undefined;
  let server: RunningServer | undefined;
  try {
    if (databaseUrl) await recreateDatabase(options);
    console.log(`[${label}] starting server`);
    server = await startServer(options.serverEntry, {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      DATABASE_POOL_SIZE: options.poolSize ?? '',
      LOG_LEVEL: logLevel,
      logFile: path.join(DEFAULT_RESULTS_DIR, `server-${engine}-${logLevel}.log`),
    });

    // Extra users per agency go in with SQL, which PGlite inside the server does not allow.
    const usersPerTenant = databaseUrl ? options.usersPerTenant : 1;
    console.log(`[${label}] seeding ${options.tenants} tenants x ${usersPerTenant} users`);
    const seeded = await seed({ url: server.url, tenants: options.tenants, usersPerTenant, databaseUrl });
    writeCredentials(seeded, path.join(DEFAULT_RESULTS_DIR, `users-${engine}-${logLevel}.json`));
    const rotated = spread(seeded.users, options.rotatedUsers);

    const serverPid = server.pid;
    const measurements: Measurement[] = [];
    for (const endpoint of options.endpoints) {
      // Tokens are fetched just before use so a long run never meets their 15-minute expiry.
      const requests =
        endpoint === 'profile' ? await profileRequests(seeded, rotated) : signInRequests(seeded, rotated);
      console.log(
        `[${label}] ${endpoint}: ${options.warmupSeconds}s warm-up, ${options.durationSeconds}s load`,
      );
      const cpuBefore = cpuSnapshot(serverPid);
      const result = await autocannon({
        url: server.url,
        connections: options.connections,
        duration: options.durationSeconds,
        timeout: LOAD_REQUEST_TIMEOUT_S,
        requests,
        setupClient: staggerStart(requests, options.connections),
        warmup:
          options.warmupSeconds > 0
            ? { connections: options.connections, duration: options.warmupSeconds }
            : undefined,
      });
      const otherCpu = otherCpuPercent(cpuBefore, cpuSnapshot(serverPid));
      // autocannon drops its connections at the deadline, but the server still finishes the
      // requests it had started; they must not spill into the next load or into shutdown.
      await sleep(SETTLE_MS);
      measurements.push({
        ...toMeasurement(engine, logLevel, endpoint, result, serverPid),
        otherCpuPercent: otherCpu,
      });
    }
    return measurements;
  } catch (error) {
    if (server) console.error(`Server log: ${server.logFile}`);
    throw error;
  } finally {
    if (server) await stopServer(server.process);
    rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl) await dropDatabase(options);
  }
}

/** Every n-th user, so the rotation covers owners and staff across all agencies. */
function spread(users: SeededUser[], count: number): SeededUser[] {
  const step = Math.max(1, users.length / count);
  return range(Math.min(count, users.length)).map((index) => users[Math.floor(index * step)] as SeededUser);
}

/**
 * Every connection would otherwise start at the first user and move in step with the others, so
 * several connections would sign in the same user at once. The throttle counts sign-ins in flight
 * per email and address (5 at most), so that would draw 429s no real user causes.
 */
function staggerStart(requests: AutocannonRequest[], connections: number) {
  const step = Math.max(1, Math.floor(requests.length / connections));
  let connection = 0;
  return (client: AutocannonClient) => {
    const offset = ((connection++ % connections) * step) % requests.length;
    client.setRequests([...requests.slice(offset), ...requests.slice(0, offset)]);
  };
}

async function profileRequests(seeded: SeedResult, users: SeededUser[]): Promise<AutocannonRequest[]> {
  const requests: AutocannonRequest[] = [];
  for (const user of users) {
    const { access } = await signIn(seeded.url, user.email, seeded.password);
    requests.push({
      method: 'GET',
      path: '/api/user/profile/',
      headers: { authorization: `Bearer ${access}` },
    });
  }
  return requests;
}

function signInRequests(seeded: SeedResult, users: SeededUser[]): AutocannonRequest[] {
  return users.map((user) => ({
    method: 'POST',
    path: '/api/token/',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: seeded.password }),
  }));
}

async function signIn(url: string, email: string, password: string): Promise<TokenPair> {
  const response = await fetch(new URL('/api/token/', url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (response.status !== 200)
    throw new Error(`sign-in ${email}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as TokenPair;
}

function toMeasurement(
  engine: Engine,
  logLevel: string,
  endpoint: Endpoint,
  result: AutocannonResult,
  serverPid: number,
): Omit<Measurement, 'otherCpuPercent'> {
  const memory = readMemory(serverPid);
  return {
    engine,
    logLevel,
    endpoint,
    requestsPerSecond: result.requests.average,
    totalRequests: result.requests.total,
    p50Ms: result.latency.p50,
    p97_5Ms: result.latency.p97_5,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]),
    ),
    rssMiB: memory?.rssMiB,
    peakRssMiB: memory?.peakRssMiB,
  };
}

function benchDatabaseUrl(options: BenchOptions): string {
  const url = new URL(options.adminDatabaseUrl);
  url.pathname = `/${options.benchDatabase}`;
  return url.toString();
}

async function recreateDatabase(options: BenchOptions): Promise<void> {
  await dropDatabase(options);
  await withAdminClient(options, (client) => client.query(`create database ${options.benchDatabase}`));
}

async function dropDatabase(options: BenchOptions): Promise<void> {
  // FORCE: a server that had to be killed may have left its connections behind.
  await withAdminClient(options, (client) =>
    client.query(`drop database if exists ${options.benchDatabase} with (force)`),
  );
}

async function withAdminClient(options: BenchOptions, work: (client: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: options.adminDatabaseUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

function formatTable(measurements: Measurement[]): string {
  const header = [
    'engine',
    'LOG_LEVEL',
    'endpoint',
    'req/s',
    'p50 ms',
    'p97.5 ms',
    'p99 ms',
    'non-2xx',
    'errors',
    'server RSS MiB (peak)',
    'other CPU %',
  ];
  const rows = measurements.map((m) => [
    m.engine,
    m.logLevel,
    m.endpoint === 'profile' ? 'GET /api/user/profile/' : 'POST /api/token/',
    Math.round(m.requestsPerSecond).toLocaleString('en-US'),
    String(m.p50Ms),
    String(m.p97_5Ms),
    String(m.p99Ms),
    String(m.non2xx),
    m.timeouts > 0 ? `${m.errors} (${m.timeouts} timeouts)` : String(m.errors),
    m.rssMiB === undefined ? '-' : `${m.rssMiB} (${m.peakRssMiB})`,
    m.otherCpuPercent === undefined ? '-' : String(m.otherCpuPercent),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

function targetVerdicts(measurements: Measurement[]): string[] {
  return measurements
    .filter((m) => m.engine === 'postgresql' && m.endpoint === 'profile')
    .map((m) => {
      const met = m.requestsPerSecond >= TARGET.requestsPerSecond && m.p99Ms < TARGET.p99Ms && m.non2xx === 0;
      return (
        `Target (PostgreSQL profile >= ${TARGET.requestsPerSecond} req/s, p99 < ${TARGET.p99Ms} ms) ` +
        `at LOG_LEVEL=${m.logLevel}: ${met ? 'MET' : 'NOT MET'} ` +
        `(${Math.round(m.requestsPerSecond)} req/s, p99 ${m.p99Ms} ms)`
      );
    });
}

await main();
