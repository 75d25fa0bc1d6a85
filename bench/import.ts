// Policy import at scale: a generated CSV of policies (by default 100,000 rows naming 30,000
// customers, 4 insurers and 6 policy types) uploaded and run through the HTTP API on a fresh
// database, on embedded PGlite and on PostgreSQL, timing each step and sampling the server's memory.
// The README lists the flags and the figures.

import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { repeated, workbookOf } from '../api/test/workbook-files.js';
import {
  cpuSnapshot,
  otherCpuPercent,
  postgresCpuSeconds,
  processCpuSeconds,
  readMemory,
} from './machine.js';
import { positiveInteger } from './seed.js';
import { REPO_ROOT, type RunningServer, startServer, stopServer } from './server.js';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', default: 'both' },
    rows: { type: 'string', default: '100000' },
    customers: { type: 'string', default: '30000' },
    'admin-database-url': {
      type: 'string',
      default: 'postgres://root@localhost/test?host=/var/run/postgresql',
    },
    'bench-database': { type: 'string', default: 'coverdesk_import_bench' },
    server: { type: 'string', default: 'api/dist/main.js' },
    /** Kill the server (SIGKILL) this many seconds into the job, check nothing was written, restart it. */
    'kill-after': { type: 'string' },
    /** After the import, time the database alone writing the same rows again (rolled back). */
    floor: { type: 'boolean', default: false },
    /** Ask for the import's preview (its dry run over the whole file) before starting it. */
    preview: { type: 'boolean', default: false },
    /** Instead of an import, upload the files an abuse probe sent to take the server down. */
    bombs: { type: 'boolean', default: false },
  },
});
const rows = positiveInteger('rows', values.rows);
const customerCount = positiveInteger('customers', values.customers);
const engines = values.engine === 'both' ? ['pglite', 'postgresql'] : [values.engine ?? ''];
const benchDatabase = values['bench-database'];
if (!/^[a-z_][a-z0-9_]*$/.test(benchDatabase)) throw new Error('--bench-database must be a plain identifier');
const adminUrl = values['admin-database-url'];
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${benchDatabase}` }).toString();
const serverEntry = path.resolve(REPO_ROOT, values.server);

const INSURERS = ['Harel', 'Clal', 'Migdal', 'Phoenix'];
const TYPES = ['Private motor', 'Home', 'Life', 'Health', 'Travel', 'Business'];
const FREQUENCIES = ['Annual', 'Annual', 'Quarterly', 'Monthly'];

/** A broker's book as a spreadsheet exports it: one line per policy, the customer repeated. */
function generateCsv(): Buffer {
  const lines = [
    'Policy No,Carrier,Line of business,Customer,Email,Phone,DOB,Effective date,Expiry,Premium,Commission,Frequency',
  ];
  for (let i = 0; i < rows; i++) {
    const customer = i % customerCount;
    const year = 2024 + (i % 3);
    const month = String(1 + (i % 12)).padStart(2, '0');
    lines.push(
      [
        `POL-${String(i).padStart(7, '0')}`,
        INSURERS[i % INSURERS.length],
        TYPES[i % TYPES.length],
        `Customer${customer} Family${customer % 997}`,
        `customer${customer}@example.com`,
        `+972 5${String(customer).padStart(8, '0')}`,
        `${1 + (customer % 28)}/${1 + (customer % 12)}/19${50 + (customer % 50)}`,
        `${year}-${month}-01`,
        `${year + 1}-${month}-01`,
        `"${(400 + (i % 50) * 40).toLocaleString('en-US')}.00"`,
        `${10 + (i % 3) * 2.5}%`,
        FREQUENCIES[i % FREQUENCIES.length],
      ].join(','),
    );
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

async function call(server: RunningServer, method: string, url: string, token?: string, body?: unknown) {
  const response = await fetch(new URL(url, server.url), {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body instanceof Buffer
        ? { 'content-type': 'text/csv' }
        : body
          ? { 'content-type': 'application/json' }
          : {}),
    },
    body: body instanceof Buffer ? body : body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: HTTP ${response.status} ${text}`);
  return JSON.parse(text);
}

/**
 * No catalogue plan allows 100,000 policies, so the agency moves to a plan of the benchmark's own
 * (the plan limit check itself still runs, on the whole import).
 */
const LIFT_LIMITS = `
  insert into plans (id, name, display_name, description, price_monthly, price_yearly, trial_days, features, limits)
  select gen_random_uuid(), 'bench-import', 'Benchmark', 'Import benchmark', 0, 0, 14, features,
    '{"policies": 1000000, "customers": 1000000, "leads": 1000000, "storage_mb": 100000}'::jsonb
  from plans where name = 'agency'
  on conflict (name) do nothing;
  update subscriptions set plan_id = (select id from plans where name = 'bench-import'), status = 'active';`;

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const COUNT_WRITTEN = `select (select count(*) from policies)::int policies,
  (select count(*) from customers)::int customers, (select count(*) from installments)::int installments`;

/** What the database holds; on PGlite only while its server is down (the server owns the directory). */
async function countWritten(engine: string, dataDir: string) {
  if (engine === 'postgresql') {
    return withClient(databaseUrl, async (client) => (await client.query(COUNT_WRITTEN)).rows[0]);
  }
  const pglite = await PGlite.create({ dataDir: path.join(dataDir, 'pglite') });
  try {
    return (await pglite.query(COUNT_WRITTEN)).rows[0];
  } finally {
    await pglite.close();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Asks the server's health check every 100 ms, as a load balancer would, until stopped: how many
 * times, the slowest answer and how many failed (an error status, or none within 10 s), per phase.
 */
function watchHealth(server: RunningServer) {
  const phases = new Map<string, { asked: number; slowestMs: number; failed: number }>();
  let phase = 'start';
  let running = true;
  const watching = (async () => {
    while (running) {
      const started = performance.now();
      let ok = false;
      try {
        const response = await fetch(new URL('/api/health/', server.url), {
          signal: AbortSignal.timeout(10_000),
        });
        await response.text();
        ok = response.ok;
      } catch {}
      const seen = phases.get(phase) ?? { asked: 0, slowestMs: 0, failed: 0 };
      phases.set(phase, seen);
      seen.asked += 1;
      if (!ok) seen.failed += 1;
      seen.slowestMs = Math.max(seen.slowestMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    phase(name: string) {
      phase = name;
    },
    async stop() {
      running = false;
      await watching;
      return Object.fromEntries(
        [...phases].map(([name, seen]) => [
          name,
          { asked: seen.asked, slowest: `${(seen.slowestMs / 1000).toFixed(2)} s`, failed: seen.failed },
        ]),
      );
    },
  };
}

/** The server's resident memory sampled every 50 ms until stopped: the highest seen, in MiB. */
function sampleRss(server: RunningServer) {
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, readMemory(server.pid)?.rssMiB ?? 0);
  }, 50);
  return () => {
    clearInterval(sampler);
    return peak;
  };
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The probe's files, or ones that cross the same bounds (see api/src/modules/imports/file-bombs.test.ts). */
async function bombs(): Promise<[name: string, bytes: Buffer, type: string][]> {
  return [
    [
      'XLSX, 5,000,000 shared strings of 1,000 characters (5 GB unzipped)',
      await workbookOf({
        sharedStrings: repeated(5_000_000, () => `<si><t>${'x'.repeat(1_000)}</t></si>`),
        sheetData: ['<row r="1"><c t="s"><v>0</v></c></row>'],
      }),
      XLSX,
    ],
    [
      'XLSX, a sheet of 1.5 GB unzipped',
      await workbookOf({
        sheetData: repeated(
          150_000,
          (index) => `<row r="${index + 1}"><c t="inlineStr"><is><t>${'x'.repeat(10_000)}</t></is></c></row>`,
        ),
      }),
      XLSX,
    ],
    [
      'CSV, one quoted cell of 49 MB',
      Buffer.from(`Name,Notes\nDana,"${'n'.repeat(49 * 1024 * 1024)}"\n`),
      'text/csv',
    ],
    ['CSV, 1,000,000 columns in 5 MB', Buffer.from(`${'Name,'.repeat(1_000_000)}Notes\nDana\n`), 'text/csv'],
  ];
}

async function uploadBombs(server: RunningServer, token: string, engine: string) {
  for (const [name, bytes, type] of await bombs()) {
    const health = watchHealth(server);
    const peakRss = sampleRss(server);
    const started = performance.now();
    const response = await fetch(new URL('/api/imports/?kind=customers&file_name=bomb', server.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type },
      body: bytes,
    });
    const answer = await response.text();
    const took = performance.now() - started;
    console.log(
      JSON.stringify({
        engine,
        bomb: name,
        megabytes: (bytes.length / 1024 / 1024).toFixed(1),
        status: response.status,
        answer: answer.slice(0, 200),
        took: seconds(took),
        peakRssMiB: peakRss(),
        health: (await health.stop()).start,
      }),
    );
  }
}

/**
 * The database's own part, with no server at all: the imported policies and their instalments
 * written once more by two `insert ... select` statements in one transaction (new keys and policy
 * numbers, the kept totals deferred as the import defers them), then rolled back. Every index,
 * foreign key and trigger of the schema does its work, so no import of these rows can be faster.
 */
const BARE_INSERTS = [
  `create temp table floor_keys on commit drop as
    select id as old_id, ('01900000-0000-7000-8000-' || lpad(to_hex(row_number() over (order by id)), 12, '0'))::uuid as id
    from policies`,
  `select set_config('app.kept_totals_deferred', 'on', true)`,
  `insert into policies (id, tenant_id, policy_number, customer_id, company_id, policy_type_id, start_date,
      end_date, total_premium, net_premium, commission_percentage, payment_frequency, total_installments)
    select k.id, p.tenant_id, p.policy_number || '-again', p.customer_id, p.company_id, p.policy_type_id,
      p.start_date, p.end_date, p.total_premium, p.net_premium, p.commission_percentage, p.payment_frequency,
      p.total_installments
    from policies p join floor_keys k on k.old_id = p.id order by k.id`,
  `insert into installments (id, tenant_id, policy_id, sequence, due_date, amount_due)
    select ('01910000-0000-7000-8000-' || lpad(to_hex(row_number() over (order by k.id, i.sequence)), 12, '0'))::uuid,
      i.tenant_id, k.id, i.sequence, i.due_date, i.amount_due
    from installments i join floor_keys k on k.old_id = i.policy_id order by k.id, i.sequence`,
];

async function timeBareInserts(query: (text: string) => Promise<unknown>) {
  await query('begin');
  const timings: Record<string, string> = {};
  try {
    for (const [index, statement] of BARE_INSERTS.entries()) {
      const started = performance.now();
      await query(statement);
      if (index >= 2)
        timings[index === 2 ? 'policies' : 'installments'] = seconds(performance.now() - started);
    }
  } finally {
    await query('rollback');
  }
  return timings;
}

async function runEngine(engine: string, file: Buffer) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'coverdesk-import-bench-'));
  const settings = {
    DATA_DIR: engine === 'pglite' ? dataDir : path.join(dataDir, 'unused'),
    DATABASE_URL: engine === 'postgresql' ? databaseUrl : '',
    DATABASE_POOL_SIZE: '10',
    LOG_LEVEL: 'warn',
    logFile: path.join(dataDir, 'server.log'),
  };
  if (engine === 'postgresql') {
    await withClient(adminUrl, async (client) => {
      await client.query(`drop database if exists ${benchDatabase} with (force)`);
      await client.query(`create database ${benchDatabase}`);
    });
  }
  let server = await startServer(serverEntry, settings);
  try {
    const email = `bench-${randomUUID().slice(0, 8)}@example.com`;
    const password = 'import benchmark harbour';
    await call(server, 'POST', '/api/accounts/register/', undefined, {
      email,
      password,
      first_name: 'Bench',
      last_name: 'Mark',
      company_name: 'Import Bench',
    });
    if (engine === 'postgresql') {
      await withClient(databaseUrl, (client) => client.query(LIFT_LIMITS));
    } else {
      // The embedded database belongs to the server process; change it while the server is down.
      await stopServer(server.process);
      const pglite = await PGlite.create({ dataDir: path.join(dataDir, 'pglite') });
      await pglite.exec(LIFT_LIMITS);
      await pglite.close();
      server = await startServer(serverEntry, settings);
    }
    const { access } = await call(server, 'POST', '/api/token/', undefined, { email, password });
    if (values.bombs) {
      await uploadBombs(server, access, engine);
      return;
    }

    const peakRssDuringImport = sampleRss(server);
    const health = watchHealth(server);
    health.phase('upload');
    const cpuBefore = cpuSnapshot(server.pid);
    const serverCpuBefore = processCpuSeconds(server.pid) ?? 0;
    const postgresCpuBefore = postgresCpuSeconds(benchDatabase);
    const started = performance.now();
    const upload = await call(server, 'POST', '/api/imports/?kind=policies&file_name=book.csv', access, file);
    const uploaded = performance.now();
    if (values.preview) {
      health.phase('preview');
      await call(server, 'GET', `/api/imports/${upload.id}/preview/`, access);
    }
    const previewed = performance.now();
    health.phase('start');
    await call(server, 'POST', `/api/imports/${upload.id}/start/`, access);
    const queued = performance.now();
    health.phase('job');
    let token = access;
    if (values['kill-after']) {
      await new Promise((resolve) => setTimeout(resolve, Number(values['kill-after']) * 1000));
      const exited = new Promise((resolve) => server.process.once('exit', resolve));
      server.process.kill('SIGKILL');
      await exited;
      const writtenAfterKill = await countWritten(engine, dataDir);
      console.log(JSON.stringify({ engine, killedAfterSeconds: values['kill-after'], writtenAfterKill }));
      server = await startServer(serverEntry, settings);
      ({ access: token } = await call(server, 'POST', '/api/token/', undefined, { email, password }));
    }
    let record = upload;
    while (record.status !== 'done' && record.status !== 'failed') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      record = await call(server, 'GET', `/api/imports/${upload.id}/`, token);
    }
    const finished = performance.now();
    const peakRss = peakRssDuringImport();
    const healthByPhase = await health.stop();
    const memory = readMemory(server.pid);
    // After a kill the server is a new process: its CPU counts from zero, the killed one's is lost.
    const serverCpu = (processCpuSeconds(server.pid) ?? 0) - (values['kill-after'] ? 0 : serverCpuBefore);
    const postgresCpu = postgresCpuSeconds(benchDatabase) - postgresCpuBefore;
    const result = {
      engine,
      rows,
      customers: customerCount,
      status: record.status,
      created: record.created,
      failed: record.failed,
      upload: seconds(uploaded - started),
      ...(values.preview ? { preview: seconds(previewed - uploaded) } : {}),
      start: seconds(queued - previewed),
      job: seconds(finished - queued),
      total: seconds(finished - started),
      peakRssDuringImportMiB: peakRss,
      peakRssWholeRunMiB: memory?.peakRssMiB,
      serverCpu: seconds(serverCpu * 1000),
      ...(engine === 'postgresql' ? { postgresCpu: seconds(postgresCpu * 1000) } : {}),
      otherCpuPercent: otherCpuPercent(cpuBefore, cpuSnapshot(server.pid)),
      health: healthByPhase,
    };
    console.log(JSON.stringify(result));
    if (record.status !== 'done') throw new Error(`import ${record.status}: ${record.detail}`);
    if (engine === 'postgresql') {
      console.log(JSON.stringify({ engine, written: await countWritten(engine, dataDir) }));
    }
    if (values.floor) {
      const bare =
        engine === 'postgresql'
          ? await withClient(databaseUrl, (client) => timeBareInserts((text) => client.query(text)))
          : await (async () => {
              // The embedded database belongs to the server process; write to it while the server is down.
              await stopServer(server.process);
              const pglite = await PGlite.create({
                dataDir: path.join(dataDir, 'pglite'),
                extensions: { btree_gin, pg_trgm },
              });
              try {
                return await timeBareInserts((text) => pglite.query(text));
              } finally {
                await pglite.close();
              }
            })();
      console.log(JSON.stringify({ engine, bareInserts: bare }));
    }
  } finally {
    await stopServer(server.process);
    rmSync(dataDir, { recursive: true, force: true });
    if (engine === 'postgresql') {
      await withClient(adminUrl, (client) =>
        client.query(`drop database if exists ${benchDatabase} with (force)`),
      );
    }
  }
}

const file = values.bombs ? Buffer.alloc(0) : generateCsv();
if (!values.bombs) {
  console.log(`CSV: ${rows} rows, ${customerCount} customers, ${(file.length / 1024 / 1024).toFixed(1)} MB`);
}
for (const engine of engines) await runEngine(engine, file);
