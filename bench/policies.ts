// Scale benchmark of the policy list and stats on PostgreSQL: many agencies with a thousand
// policies each, and one with a hundred thousand. The data is written straight into the database
// (SQL, not the API) and the access tokens are signed with the server's secret, so seeding takes
// minutes, not hours. The README lists the flags and the figures.

import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  CALENDAR_EVENT_KINDS,
  commissionReportQuery,
  policyListQuery,
  SEARCH_RESULT_TYPES,
  searchQuery,
} from '@coverdesk/contract';
import autocannon, { type AutocannonRequest } from 'autocannon';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { PreparingClient } from '../api/src/db/prepared-statements.js';
import * as schema from '../api/src/db/schema.js';
import { withTenant } from '../api/src/db/tenant.js';
import { issueAccessToken } from '../api/src/modules/accounts/tokens.js';
import { withModuleFor } from '../api/src/modules/billing/access.js';
import { listCalendarEvents } from '../api/src/modules/calendar/queries.js';
import { commissionReport } from '../api/src/modules/commission-report/queries.js';
import { readDashboard } from '../api/src/modules/dashboard/queries.js';
import { listPolicies } from '../api/src/modules/policies/queries.js';
import { searchRecords } from '../api/src/modules/search/queries.js';
import { cpuSnapshot, otherCpuPercent, processTicks, readMemory } from './machine.js';
import { DEFAULT_RESULTS_DIR, positiveInteger } from './seed.js';
import { REPO_ROOT, startServer, stopServer } from './server.js';
import { timeStatement } from './statement-file.js';

/** The first page a broker opens: active policies, newest first. */
const LIST_QUERY = { status: 'active', ordering: '-start_date' };
const LIST_PATH = `/api/policies/?${new URLSearchParams(LIST_QUERY)}`;
/** The commission report as its screen first opens: the first page of rows with both summaries. */
const REPORT_QUERY = { include: 'commission_data' };
const REPORT_PATH = `/api/policies/commission_batch/?${new URLSearchParams(REPORT_QUERY)}`;
/** This month, first to last day, as the calendar's month view asks for it. */
const today = new Date();
const MONTH = {
  start: new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1)).toISOString().slice(0, 10),
  end: new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 0)).toISOString().slice(0, 10),
};
const CALENDAR_PATH = `/api/calendar/events/?${new URLSearchParams(MONTH)}`;
/**
 * What brokers type into the search: a misspelt surname (Mizrahi), a first name and surname with a
 * typo (Yossi Cohen), part of a policy number, and a customer's phone written another way (read
 * from the database, since phones follow the seeded order).
 */
const SEARCH_TEXTS = ['mizrahy', 'yosi cohen', '4821'];
const searchPath = (q: string) => `/api/search/?${new URLSearchParams({ q })}`;
const ANALYTICS_PATHS = [
  '/api/analytics/customers/?period=12m',
  '/api/analytics/portfolio/',
  '/api/analytics/portfolio-history/?months=36',
];

const { values } = parseArgs({
  options: {
    tenants: { type: 'string', default: '1000' },
    policies: { type: 'string', default: '1000' },
    'large-policies': { type: 'string', default: '100000' },
    'rotate-tenants': { type: 'string', default: '50' },
    connections: { type: 'string', default: '10' },
    duration: { type: 'string', default: '15' },
    // PostgreSQL on this machine, reached over its local socket as a server beside it would be.
    'admin-database-url': {
      type: 'string',
      default: 'postgres://root@localhost/test?host=/var/run/postgresql',
    },
    'bench-database': { type: 'string', default: 'coverdesk_policies_bench' },
    /** Keep the seeded database after the run and start from it next time, to compare changes quickly. */
    reuse: { type: 'boolean', default: false },
    /** Measure only these parts (comma-separated; all when absent), to compare one change quickly. */
    only: { type: 'string' },
  },
});
const tenants = positiveInteger('tenants', values.tenants);
const policiesPerTenant = positiveInteger('policies', values.policies);
const largePolicies = positiveInteger('large-policies', values['large-policies']);
const rotate = Math.min(tenants, positiveInteger('rotate-tenants', values['rotate-tenants']));
const connections = positiveInteger('connections', values.connections);
const duration = positiveInteger('duration', values.duration);
const benchDatabase = values['bench-database'];
if (!/^[a-z_][a-z0-9_]*$/.test(benchDatabase)) throw new Error('--bench-database must be a plain identifier');
const PARTS = [
  'list',
  'stats',
  'commission',
  'dashboard',
  'calendar',
  'search',
  'pdf',
  'statements',
  'analytics',
  'agent',
] as const;
const only = values.only?.split(',') ?? [...PARTS];
const unknownPart = only.find((part) => !(PARTS as readonly string[]).includes(part));
if (unknownPart) throw new Error(`--only takes ${PARTS.join(', ')}; not ${unknownPart}`);
const measures = (part: (typeof PARTS)[number]) => only.includes(part);
const adminUrl = values['admin-database-url'];
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${benchDatabase}` }).toString();

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/**
 * Gives the agencies' customers names and phones a broker would search for: surnames shared by a
 * few dozen customers each in the large agency, first names by more, and numbers written with a
 * dash, given before the searches are timed. The seed names everyone "Customer No n", which no
 * search would tell apart.
 */
async function nameCustomers(client: pg.Client, tenantIds: string[]) {
  await client.query(
    `update customers c set first_name = (array['Noa', 'Yossi', 'Dana', 'Avi', 'Maya', 'Omer', 'Rina', 'Eitan',
         'Tamar', 'David', 'Shira', 'Moshe', 'Yael', 'Itai', 'Michal', 'Ron', 'Hila', 'Gil', 'Neta', 'Amir'])[1 + n.g % 20],
       last_name = (array['Cohen', 'Levi', 'Mizrahi', 'Peretz', 'Biton', 'Dahan', 'Avraham', 'Friedman', 'Azulay',
         'Katz', 'Yosef', 'David', 'Amar', 'Ohayon', 'Hadad', 'Gabay', 'Ben David', 'Shapiro', 'Golan', 'Klein',
         'Sasson', 'Malka', 'Vaknin', 'Segal', 'Tal', 'Barak', 'Rosen', 'Weiss', 'Levy', 'Halevi', 'Navon', 'Ashkenazi',
         'Carmi', 'Elbaz', 'Zohar', 'Harari', 'Shalom', 'Nahum', 'Oren', 'Regev', 'Shemesh', 'Tzur', 'Yaron',
         'Ziv', 'Alon', 'Bar', 'Dror', 'Even', 'Gafni', 'Hazan', 'Kaplan', 'Lavi', 'Meir', 'Noy', 'Paz',
         'Raz', 'Sharon', 'Toledano', 'Uziel', 'Zaken'])[1 + (n.g / 20) % 60],
       phone = '05' || n.g % 10 || '-' || lpad(((n.g * 7919) % 10000000)::text, 7, '0'),
       email = 'customer' || n.g || '@example.com'
     from (select id, row_number() over (order by id) g from customers where tenant_id = any($1::uuid[])) n
     where c.id = n.id and c.first_name = 'Customer'`,
    [tenantIds],
  );
  // As autovacuum would: the update leaves a dead row per customer, and the new rows wait in the GIN
  // indexes' pending lists, which every search would otherwise read through.
  await client.query('vacuum analyze customers');
}

/**
 * Agencies with a type, two insurers (one pro rata), customers, policies spread over three years
 * (so every status occurs) and four quarterly instalments each, the older ones paid.
 */
async function seedPolicies(client: pg.Client, tenantIds: string[], perTenant: number, customers: number) {
  // As an import writes a book: its kept totals caught up once it is all written and the planner's
  // statistics know it (db/tenant.ts refreshStatistics), rather than by every statement's triggers.
  await client.query(`select set_config('app.kept_totals_deferred', 'on', false)`);
  await client.query(
    `insert into policy_types (id, tenant_id, name, category)
     select gen_random_uuid(), t, 'Private motor', 'auto' from unnest($1::uuid[]) t`,
    [tenantIds],
  );
  await client.query(
    `insert into companies (id, tenant_id, name, commission_payment_method)
     select gen_random_uuid(), t, name, method
     from unnest($1::uuid[]) t, (values ('Harel', 'full_policy'), ('Clal', 'pro_rata')) c(name, method)`,
    [tenantIds],
  );
  await client.query(
    `insert into customers (id, tenant_id, first_name, last_name, email)
     select gen_random_uuid(), t, 'Customer', 'No ' || g, 'customer' || g || '@example.com'
     from unnest($1::uuid[]) t, generate_series(1, $2) g`,
    [tenantIds, customers],
  );
  await client.query(
    `insert into policies (id, tenant_id, policy_number, customer_id, company_id, policy_type_id,
       start_date, end_date, total_premium, net_premium, commission_percentage, payment_frequency,
       total_installments)
     select gen_random_uuid(), t.id, 'P-' || g, cu.ids[1 + g % array_length(cu.ids, 1)],
       co.ids[1 + g % 2], pt.id, start, (start + interval '1 year' - interval '1 day')::date,
       400 + (g % 50) * 40, 360 + (g % 50) * 36, 12.5, 'quarterly', 4
     from unnest($1::uuid[]) t(id)
     cross join lateral (select array_agg(id) ids from customers where tenant_id = t.id) cu
     cross join lateral (select array_agg(id order by name) ids from companies where tenant_id = t.id) co
     cross join lateral (select id from policy_types where tenant_id = t.id) pt
     cross join lateral generate_series(1, $2) g
     cross join lateral (select (current_date - 900 + (g * 1100 / $2))::date start) s`,
    [tenantIds, perTenant],
  );
  await client.query(
    `insert into installments (id, tenant_id, policy_id, sequence, due_date, amount_due, amount_paid, status, paid_date)
     select gen_random_uuid(), p.tenant_id, p.id, n + 1, (p.start_date + make_interval(months => 3 * n))::date,
       p.total_premium / 4,
       case when p.start_date + make_interval(months => 3 * n) < current_date - 30 then p.total_premium / 4 else 0 end,
       case when p.start_date + make_interval(months => 3 * n) < current_date - 30 then 'paid' else 'pending' end,
       case when p.start_date + make_interval(months => 3 * n) < current_date - 30 then (p.start_date + make_interval(months => 3 * n))::date end
     from policies p, generate_series(0, 3) n where p.tenant_id = any($1::uuid[])`,
    [tenantIds],
  );
  await client.query(
    `update policies p set amount_paid = s.paid, installments_paid = s.count
     from (select policy_id, sum(amount_paid) paid, count(*) filter (where status = 'paid') count
           from installments where tenant_id = any($1::uuid[]) group by policy_id) s
     where s.policy_id = p.id`,
    [tenantIds],
  );
  await client.query(`select set_config('app.kept_totals_deferred', '', false)`);
  await client.query('analyze customers, policies, installments');
  await client.query(
    'select kept_totals_catch_up(array(select id from policies where tenant_id = any($1::uuid[])))',
    [tenantIds],
  );
}

/**
 * The large agency's pipeline beside its book: leads in every status with follow-ups spread over a
 * year around today, claims on its policies reported over the last three years, and meetings, so the
 * dashboard and the calendar read as much as a busy agency's would.
 */
async function seedPipeline(
  client: pg.Client,
  tenantId: string,
  leads: number,
  claims: number,
  meetings: number,
) {
  await client.query(
    `insert into leads (id, tenant_id, first_name, last_name, email, status, estimated_premium, next_follow_up_at,
       created_at)
     select gen_random_uuid(), $1, 'Lead', 'No ' || g, 'lead' || g || '@example.com',
       (array['new', 'contacted', 'qualified', 'quoted', 'won', 'lost'])[1 + g % 6], 300 + (g % 40) * 25,
       now() + make_interval(hours => (g * 37) % (365 * 24) - 180 * 24), now() - make_interval(hours => g % 9000)
     from generate_series(1, $2) g`,
    [tenantId, leads],
  );
  await client.query(
    `insert into claims (id, tenant_id, policy_id, claim_number, incident_date, reported_date, claim_type, status,
       amount_claimed, amount_approved, amount_paid)
     select gen_random_uuid(), $1, p.id, 'CLM-' || p.g, p.start_date + 10, p.start_date + 12, 'accident', c.status,
       c.amount, case when c.status in ('approved', 'paid') then c.amount end,
       case when c.status = 'paid' then c.amount else 0 end
     from (select id, start_date, row_number() over (order by id) g from policies where tenant_id = $1) p
     cross join lateral (select (array['open', 'in_review', 'approved', 'paid', 'rejected', 'closed'])[1 + p.g % 6] status,
       1000 + (p.g % 30) * 100 amount) c
     where p.g <= $2`,
    [tenantId, claims],
  );
  // Meetings through the year around today, a few on each working hour.
  await client.query(
    `insert into meetings (id, tenant_id, title, starts_at, ends_at)
     select gen_random_uuid(), $1, 'Meeting ' || g, s, s + interval '45 minutes'
     from generate_series(1, $2) g
     cross join lateral (select date_trunc('hour', now()) + make_interval(hours => (g * 7) % (365 * 24) - 180 * 24) s) m`,
    [tenantId, meetings],
  );
}

async function createTenants(client: pg.Client, count: number, prefix: string): Promise<string[]> {
  const created = await client.query<{ id: string }>(
    `insert into tenants (id, name) select gen_random_uuid(), $2 || g from generate_series(1, $1) g returning id`,
    [count, prefix],
  );
  const ids = created.rows.map((row) => row.id);
  await client.query(
    `insert into subscriptions (id, tenant_id, plan_id, status)
     select gen_random_uuid(), t, (select id from plans where name = 'agency'), 'active' from unnest($1::uuid[]) t`,
    [ids],
  );
  return ids;
}

/** Every response's time is kept, so the percentiles the targets name are exact, p95 included. */
async function load(url: string, requests: AutocannonRequest[], parallel = connections) {
  const times: number[] = [];
  const run = autocannon({ url, connections: parallel, duration, requests });
  run.on('response', (_client, status, _bytes, milliseconds) => {
    if (status < 300) times.push(milliseconds);
  });
  const result = await run;
  return { result, ...percentiles(times) };
}

function percentiles(times: number[]) {
  times.sort((a, b) => a - b);
  const at = (share: number) => times[Math.min(times.length - 1, Math.floor(times.length * share))] ?? 0;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

const requestsFor = (tokens: string[], pathname: string): AutocannonRequest[] =>
  tokens.map((token) => ({ method: 'GET', path: pathname, headers: { authorization: `Bearer ${token}` } }));

/** A route's SQL, captured from its query code for one agency. */
type CaptureSql = (db: ReturnType<typeof drizzle<typeof schema>>, tenantId: string) => Promise<unknown>;

const LIST_SQL: CaptureSql = (db, tenantId) =>
  withTenant(db, tenantId, (tx) => listPolicies(tx, tenantId, policyListQuery.parse(LIST_QUERY)));
const REPORT_SQL: CaptureSql = (db, tenantId) =>
  withTenant(db, tenantId, (tx) => commissionReport(tx, tenantId, commissionReportQuery.parse(REPORT_QUERY)));

// Through the module gate, as the route runs it.
const DASHBOARD_SQL: CaptureSql = (db, tenantId) =>
  withModuleFor({ db }, { tenantId, userId: randomUUID() }, 'module_dashboard', (tx, _auth, modules) =>
    readDashboard(tx, tenantId, modules),
  );
const CALENDAR_SQL: CaptureSql = (db, tenantId) =>
  withTenant(db, tenantId, (tx) =>
    listCalendarEvents(tx, tenantId, { ...MONTH, kinds: CALENDAR_EVENT_KINDS }),
  );

const SEARCH_SQL =
  (q: string): CaptureSql =>
  (db, tenantId) =>
    withTenant(db, tenantId, (tx) =>
      searchRecords(tx, tenantId, searchQuery.parse({ q }), SEARCH_RESULT_TYPES),
    );

/**
 * The SQL a route runs, captured from the query code itself, then timed through pg alone,
 * prepared once per connection as the server's connections do. Several captures take turns, as
 * several requests do under load.
 */
async function timeRawSql(tenantIds: string[], captures: CaptureSql | CaptureSql[]) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: connections, Client: PreparingClient });
  const statements: { sql: string; params: unknown[] }[] = [];
  const db = drizzle(pool, {
    schema,
    logger: { logQuery: (sql, params) => statements.push({ sql, params }) },
  });
  const turns: { sql: string; params: unknown[] }[][] = [];
  for (const tenantId of tenantIds) {
    for (const capture of ([] as CaptureSql[]).concat(captures)) {
      statements.length = 0;
      await capture(db, tenantId);
      turns.push([...statements]);
    }
  }
  const latencies: number[] = [];
  const deadline = performance.now() + duration * 1000;
  let turn = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = await pool.connect();
      try {
        while (performance.now() < deadline) {
          const steps = turns[turn++ % turns.length] ?? [];
          const started = performance.now();
          await client.query('begin');
          for (const step of steps) await client.query({ text: step.sql, values: step.params });
          await client.query('commit');
          latencies.push(performance.now() - started);
        }
      } finally {
        client.release();
      }
    }),
  );
  await pool.end();
  return { ...percentiles(latencies), perSecond: latencies.length / duration };
}

/**
 * The whole book as a PDF, read as a browser would, while the server's resident memory is sampled:
 * the export streams when the server grows by a batch's worth, not by the book's.
 */
async function timePdf(url: string, token: string, serverPid: number) {
  const before = readMemory(serverPid)?.rssMiB ?? Number.NaN;
  let highest = before;
  const sampler = setInterval(() => {
    highest = Math.max(highest, readMemory(serverPid)?.rssMiB ?? highest);
  }, 50);
  const started = performance.now();
  try {
    const response = await fetch(`${url}/api/policies/commission_pdf/`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!response.ok || !response.body) throw new Error(`PDF export answered ${response.status}`);
    let bytes = 0;
    let firstByte = 0;
    for await (const chunk of response.body) {
      if (bytes === 0) firstByte = performance.now() - started;
      bytes += chunk.byteLength;
    }
    return {
      seconds: (performance.now() - started) / 1000,
      firstByte,
      bytes,
      before,
      growth: highest - before,
    };
  } finally {
    clearInterval(sampler);
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** CPU ticks (1/100 s) so far of the server and of each PostgreSQL backend connected to the bench database. */
async function serverTicks(serverPid: number) {
  const backends = await withClient(adminUrl, (client) =>
    client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [benchDatabase]),
  );
  return {
    server: processTicks(String(serverPid)),
    backends: new Map(backends.rows.map(({ pid }) => [pid, processTicks(String(pid))])),
  };
}

/**
 * Loads a route while counting the CPU it costs per request: the server's, and that of the
 * PostgreSQL backends serving the bench database, so a machine busy with other work shows as
 * waiting rather than as cost.
 */
async function loadWithCpu(url: string, requests: AutocannonRequest[], serverPid: number) {
  const before = await serverTicks(serverPid);
  const machineBefore = cpuSnapshot(serverPid);
  const measured = await load(url, requests);
  const machineAfter = cpuSnapshot(serverPid);
  const after = await serverTicks(serverPid);
  let database = 0;
  for (const [pid, ticks] of after.backends) database += ticks - (before.backends.get(pid) ?? 0);
  const count = Math.max(1, measured.result.requests.total);
  return {
    ...measured,
    serverCpu: ((after.server - before.server) * 10) / count,
    databaseCpu: (database * 10) / count,
    otherCpu: otherCpuPercent(machineBefore, machineAfter),
  };
}

const report = (label: string, { result, p50, p95, p99 }: Awaited<ReturnType<typeof load>>) =>
  console.log(
    `${label}: ${Math.round(result.requests.average)} req/s, p50 ${ms(p50)}, p95 ${ms(p95)}, p99 ${ms(p99)}, non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}`,
  );

/** The seeded agencies of an earlier run kept with --reuse, or undefined when there is none. */
async function seededEarlier(): Promise<{ normal: string[]; large: string } | undefined> {
  const exists = await withClient(adminUrl, (client) =>
    client.query('select 1 from pg_database where datname = $1', [benchDatabase]),
  );
  if (!values.reuse || exists.rowCount === 0) return undefined;
  return withClient(databaseUrl, async (client) => {
    const found = await client.query<{ id: string; large: boolean }>(
      `select id, name like 'Large agency %' large from tenants
       where name like 'Bench agency %' or name like 'Large agency %' order by name`,
    );
    const large = found.rows.find((row) => row.large)?.id;
    const normal = found.rows.filter((row) => !row.large).map((row) => row.id);
    return large && normal.length >= tenants ? { normal, large } : undefined;
  });
}

/** The search texts, with a phone of the large agency written with spaces instead of its dash. */
async function searchTexts(large: string): Promise<string[]> {
  return withClient(databaseUrl, async (client) => {
    const all = await client.query<{ id: string }>('select id from tenants');
    await nameCustomers(
      client,
      all.rows.map((row) => row.id),
    );
    const found = await client.query<{ phone: string }>(
      `select phone from customers where tenant_id = $1 and phone <> '' order by id offset 1234 limit 1`,
      [large],
    );
    const phone = found.rows[0]?.phone ?? '';
    return [...SEARCH_TEXTS, `${phone.slice(0, 3)} ${phone.slice(4, 7)} ${phone.slice(7)}`];
  });
}

/**
 * An agent of the large agency who sees only their own book: every tenth of its customers, with
 * their policies, instalments and claims (the agency's `agents_see_own_book`). Made once; a database
 * kept with --reuse gets one too.
 */
async function ensureBookAgent(large: string): Promise<string> {
  return withClient(databaseUrl, async (client) => {
    const email = 'book-agent@large.bench';
    const found = await client.query<{ id: string }>('select id from users where email = $1', [email]);
    if (found.rows[0]) return found.rows[0].id;
    const { rows } = await client.query<{ id: string }>(
      `insert into users (id, tenant_id, email, password_hash, first_name, last_name, role)
       values (gen_random_uuid(), $1, $2, '', 'Book', 'Agent', 'agent') returning id`,
      [large, email],
    );
    const agent = rows[0]?.id as string;
    await client.query(
      'update customers set assigned_to = $2 where tenant_id = $1 and hashtext(id::text) % 10 = 0',
      [large, agent],
    );
    await client.query('update tenants set agents_see_own_book = true where id = $1', [large]);
    // The reassignment moved the agent's figures into the member totals: analysed, as after an import.
    await client.query(
      'vacuum analyze customers, member_book_totals, member_type_totals, member_calendar_day_totals, member_book_months',
    );
    return agent;
  });
}

async function seed() {
  const started = performance.now();
  return withClient(databaseUrl, async (client) => {
    const normal = await createTenants(client, tenants, 'Bench agency ');
    const [large] = await createTenants(client, 1, 'Large agency ');
    for (let index = 0; index < normal.length; index += 100) {
      await seedPolicies(client, normal.slice(index, index + 100), policiesPerTenant, 200);
    }
    await seedPolicies(client, [large as string], largePolicies, 5000);
    await seedPipeline(client, large as string, largePolicies / 10, largePolicies / 50, largePolicies / 50);
    // Autovacuum would get there on its own; a benchmark should not depend on when it does.
    await client.query('vacuum analyze');
    const counts = await client.query(
      'select (select count(*) from policies) policies, (select count(*) from installments) installments',
    );
    console.log(`seeded ${JSON.stringify(counts.rows[0])} in ${seconds(started)}`);
    return { normal, large: large as string };
  });
}

async function main() {
  const earlier = await seededEarlier();
  if (!earlier) {
    await withClient(adminUrl, async (client) => {
      await client.query(`drop database if exists ${benchDatabase} with (force)`);
      await client.query(`create database ${benchDatabase}`);
    });
  }
  mkdirSync(DEFAULT_RESULTS_DIR, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'coverdesk-policies-bench-'));
  const server = await startServer(path.join(REPO_ROOT, 'api', 'dist', 'main.js'), {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '10',
    LOG_LEVEL: 'warn',
    logFile: path.join(DEFAULT_RESULTS_DIR, 'policies-server.log'),
  });
  try {
    const { normal, large } = earlier ?? (await seed());
    const secret = new TextEncoder().encode(server.jwtSecret);
    const token = (tenantId: string) =>
      issueAccessToken(
        { userId: randomUUID(), tenantId, sessionId: randomUUID(), twoStep: false, role: 'owner' },
        secret,
      );
    const rotated = normal.slice(0, rotate);
    const normalTokens = await Promise.all(rotated.map(token));
    const largeToken = [await token(large)];

    // A short pass first, so the database's caches and the server's code paths are warm.
    await autocannon({
      url: server.url,
      connections,
      duration: 3,
      requests: requestsFor(normalTokens, LIST_PATH),
    });
    if (measures('list')) {
      const list = await load(server.url, requestsFor(normalTokens, LIST_PATH));
      report('list, normal agencies', list);
      report('list, large agency', await load(server.url, requestsFor(largeToken, LIST_PATH)));
      const sql = await timeRawSql(rotated, LIST_SQL);
      console.log(
        `list SQL alone (same statements through pg, ${connections} connections): ${Math.round(sql.perSecond)}/s, p50 ${ms(sql.p50)}, p95 ${ms(sql.p95)}, p99 ${ms(sql.p99)}`,
      );
      console.log(`API time / SQL time, normal agencies' list at p50: ${(list.p50 / sql.p50).toFixed(2)}`);
    }
    if (measures('stats')) {
      report('stats, large agency', await load(server.url, requestsFor(largeToken, '/api/policies/stats/')));
    }
    for (const [part, label, pathname, capture] of [
      ['commission', 'commission report first page', REPORT_PATH, REPORT_SQL],
      ['dashboard', 'dashboard', '/api/dashboard/', DASHBOARD_SQL],
      ['calendar', 'calendar events of this month', CALENDAR_PATH, CALENDAR_SQL],
    ] as const) {
      if (!measures(part)) continue;
      const api = await load(server.url, requestsFor(largeToken, pathname));
      report(`${label}, large agency`, api);
      const alone = await timeRawSql([large], capture);
      console.log(
        `${label} SQL alone, large agency: p50 ${ms(alone.p50)}, p95 ${ms(alone.p95)}; API / SQL at p50 ${(api.p50 / alone.p50).toFixed(2)}, at p95 ${(api.p95 / alone.p95).toFixed(2)}`,
      );
    }
    if (measures('search')) {
      const searches = await searchTexts(large);
      const search = await loadWithCpu(
        server.url,
        searches.flatMap((q) => requestsFor(largeToken, searchPath(q))),
        server.process.pid as number,
      );
      report(`search (${searches.map((q) => `"${q}"`).join(', ')} in turn), large agency`, search);
      console.log(
        `search CPU per request: server ${ms(search.serverCpu)}, its PostgreSQL backends ${ms(search.databaseCpu)}; other processes used ${search.otherCpu ?? '-'} % of the machine`,
      );
      const searchSql = await timeRawSql([large], searches.map(SEARCH_SQL));
      console.log(
        `search SQL alone, large agency: p50 ${ms(searchSql.p50)}, p95 ${ms(searchSql.p95)}; API / SQL at p50 ${(search.p50 / searchSql.p50).toFixed(2)}, at p95 ${(search.p95 / searchSql.p95).toFixed(2)}`,
      );
    }
    if (measures('pdf')) {
      const pdf = await timePdf(server.url, largeToken[0] as string, server.process.pid as number);
      console.log(
        `commission PDF of the large agency: ${(pdf.bytes / 2 ** 20).toFixed(1)} MiB in ${pdf.seconds.toFixed(1)} s, first byte after ${ms(pdf.firstByte)}, server RSS ${pdf.before} MiB growing by at most ${pdf.growth} MiB`,
      );
    }
    if (measures('statements')) {
      // Insured names as real books have them, many sharing a first name or a surname.
      const statement = await withClient(databaseUrl, async (client) => {
        await nameCustomers(client, [large]);
        return timeStatement(client, server.url, largeToken[0] as string, large);
      });
      console.log(
        `commission statement of ${statement.lines} lines against the large agency: the upload answered (202) in ${ms(statement.answered)}, read and matched in ${ms(statement.uploaded)}, read back in ${ms(statement.read)}, ${JSON.stringify(statement.counts)}; health asked ${statement.health.checks} times meanwhile, slowest ${ms(statement.health.slowest)}, p99 ${ms(statement.health.p99)}; accepted in ${ms(statement.accepted)}; what insurers owe by age read in ${ms(statement.agedList)}`,
      );
    }
    if (measures('agent')) {
      const agent = await ensureBookAgent(large);
      const agentToken = [
        await issueAccessToken(
          { userId: agent, tenantId: large, sessionId: randomUUID(), twoStep: false, role: 'agent' },
          secret,
        ),
      ];
      for (const [label, pathname] of [
        ['list', LIST_PATH],
        ['stats', '/api/policies/stats/'],
        ['commission report first page', REPORT_PATH],
        ['dashboard', '/api/dashboard/'],
        ['calendar events of this month', CALENDAR_PATH],
        [`search "${SEARCH_TEXTS[0]}"`, searchPath(SEARCH_TEXTS[0] as string)],
      ] as const) {
        report(
          `${label}, large agency's agent kept to their own book`,
          await load(server.url, requestsFor(agentToken, pathname)),
        );
      }
    }
    // Last: a request the load gave up on still runs in the server for a while, and would slow what follows.
    // One broker at a time, as an agency opens its analytics; the report's target is for ten at once.
    for (const analytics of measures('analytics') ? ANALYTICS_PATHS : []) {
      report(
        `${analytics}, large agency, 1 connection`,
        await load(server.url, requestsFor(largeToken, analytics), 1),
      );
    }
  } finally {
    await stopServer(server.process);
    rmSync(dataDir, { recursive: true, force: true });
    if (!values.reuse) {
      await withClient(adminUrl, (client) =>
        client.query(`drop database if exists ${benchDatabase} with (force)`),
      );
    }
  }
}

await main();
