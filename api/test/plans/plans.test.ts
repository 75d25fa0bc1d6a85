// The query-plan guard (`npm run test:plans`, PostgreSQL only): an agency's book built through the
// product's own paths on a fresh database, as a new install has it (imports, an agent kept to their own
// book, an insurer's statements; nobody runs ANALYZE by hand), then every statement of the hot
// screens run again under EXPLAIN (ANALYZE, BUFFERS), at 5,000 policies and at 20,000. It fails when a
// statement reads more than twice the buffers recorded for it in budgets.json, or when it grows faster
// than the book (a plan that reads the agency again for each row). Buffers, not milliseconds: they do
// not depend on the machine, so the guard holds on a busy one. docs/testing.md says how to read it.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { MODULES } from '@coverdesk/contract';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreparingClient } from '../../src/db/prepared-statements.js';
import { plans } from '../../src/modules/billing/tables.js';
import { readThrough, uploadStatement as upload } from '../statement-upload.js';
import { addTeamMember } from '../team-book.js';
import { bearer, createTestApp, setSubscription, signedInAgency, type TestApp } from '../test-app.js';

const BUDGETS_FILE = new URL('./budgets.json', import.meta.url);
/** `PLAN_BUDGETS=record npm run test:plans` writes the buffers measured as the new budgets. */
const recording = process.env.PLAN_BUDGETS === 'record';
/** Over its budget by more than this many times, a statement fails the guard. */
const BUDGET_SLACK = 2;
/**
 * Below this many buffers at 20,000 policies a statement's growth is no square: two buffers a policy
 * is the whole book read a couple of times over, however the plan changed from the smaller book (a
 * hash join over both tables there, an index probe per row here). A plan that reads the agency again
 * for each row reads tens of buffers a policy.
 */
const GROWTH_FLOOR = 40_000;
/** The book grows fourfold; a statement may read at most this many times more (square: sixteen). */
const GROWTH_LIMIT = 8;

/** A statement the app sent, and the connection it went through. */
type Statement = { client: PreparingClient; text: string; values?: unknown[] | undefined };
type Measured = Map<string, { buffers: number; sql: string }>;
type Budgets = Record<string, Record<string, { buffers: number; sql: string }>>;

// Every statement the app sends through its pool while `captured` is set, in order.
let captured: Statement[] | undefined;
const query = PreparingClient.prototype.query;
PreparingClient.prototype.query = function (this: PreparingClient, config: unknown, ...rest: unknown[]) {
  // Drizzle passes its values beside the query's text or config, node-postgres inside the config.
  const beside = Array.isArray(rest[0]) ? rest[0] : undefined;
  if (captured && typeof config === 'string') captured.push({ client: this, text: config, values: beside });
  else if (captured && typeof config === 'object' && config !== null && 'text' in config) {
    const { text, values } = config as pg.QueryConfig;
    captured.push({ client: this, text, values: values ?? beside });
  }
  return (query as (...args: unknown[]) => unknown).call(this, config, ...rest);
} as PreparingClient['query'];

let t: TestApp;
let owner: Awaited<ReturnType<typeof signedInAgency>>;
let agent: Awaited<ReturnType<typeof addTeamMember>>;
const measured: Record<'small' | 'large', Measured> = { small: new Map(), large: new Map() };
/** Each import's policies and the buffers it read and wrote, in the order they ran. */
const imports: { policies: number; buffers: number }[] = [];
/** Buffers read uploading, reading and matching an insurer's statement. */
const statements = { small: 0, large: 0 };

const perPolicy = (done: { policies: number; buffers: number }) => done.buffers / done.policies;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const FIRST_NAMES = ['Noa', 'Yossi', 'Dana', 'Avi', 'Maya', 'Omer', 'Rina', 'Eitan', 'Tamar', 'David'];
const SURNAMES = [
  'Cohen',
  'Levi',
  'Mizrahi',
  'Peretz',
  'Biton',
  'Dahan',
  'Friedman',
  'Azulay',
  'Katz',
  'Amar',
];
const INSURERS = ['Harel', 'Clal', 'Migdal'];
const FREQUENCIES = ['Annual', 'Quarterly', 'Monthly'];

/**
 * A book as a spreadsheet exports it: policies `from` to `from + count`, three to a customer, terms
 * spread over the year before and after today so that every screen has instalments due and paid,
 * renewals coming and policies ended.
 */
function bookFile(from: number, count: number): Buffer {
  const lines = [
    'Policy No,Carrier,Line of business,Customer,Email,Effective date,Expiry,Premium,Commission,Frequency',
  ];
  for (let n = from; n < from + count; n++) {
    const customer = Math.floor(n / 3);
    const start = -360 + (n % 720);
    lines.push(
      [
        `P-${String(n).padStart(6, '0')}`,
        INSURERS[n % INSURERS.length],
        'Private motor',
        `${FIRST_NAMES[customer % 10]} ${SURNAMES[Math.floor(customer / 10) % 10]}${customer}`,
        `customer${customer}@example.com`,
        day(start),
        day(start + 364),
        `${400 + (n % 50) * 40}.00`,
        `${10 + (n % 3) * 2.5}%`,
        FREQUENCIES[n % FREQUENCIES.length],
      ].join(','),
    );
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

/** Buffers the whole database has read or found in its cache so far, from its statistics. */
async function databaseBuffers(): Promise<number> {
  // Each connection of the app's pool sends its counts at once once idle (pg_stat_force_next_flush).
  const clients = await Promise.all(
    Array.from({ length: t.database.pool.options.max }, () => t.database.pool.connect()),
  );
  try {
    for (const client of clients) await client.query('select pg_stat_force_next_flush()');
  } finally {
    for (const client of clients) client.release();
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  const { rows } = await t.database.pool.query<{ buffers: string }>(
    `select pg_stat_clear_snapshot(), (select blks_hit + blks_read from pg_stat_database where datname = current_database())::text as buffers`,
  );
  return Number(rows[0]?.buffers);
}

/** Imports policies `from` to `from + count` as `who`, through the upload, columns and start. */
async function importBook(who: { access: string }, from: number, count: number) {
  const before = await databaseBuffers();
  const uploaded = await t.app.inject({
    method: 'POST',
    url: '/api/imports/?kind=policies&file_name=book.csv',
    headers: { ...bearer(who.access), 'content-type': 'text/csv' },
    payload: bookFile(from, count),
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const record = uploaded.json() as { id: string; columns: (string | null)[] };
  const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(who.access), ...(payload ? { payload } : {}) });
  const settled = await call('PUT', `/api/imports/${record.id}/`, {
    columns: record.columns,
    duplicates: 'skip',
    all_or_nothing: true,
  });
  expect(settled.statusCode, settled.body).toBe(200);
  const started = await call('POST', `/api/imports/${record.id}/start/`);
  expect(started.statusCode, started.body).toBe(202);
  for (;;) {
    const state = (await call('GET', `/api/imports/${record.id}/`)).json() as {
      status: string;
      created: number;
      detail: string;
    };
    if (state.status === 'failed') throw new Error(`the import failed: ${state.detail}`);
    if (state.status === 'done') {
      expect(state.created).toBe(count);
      imports.push({ policies: count, buffers: (await databaseBuffers()) - before });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Grows the book to `size`, a fifth of what it adds imported by the agent. A new install's first
 * import starts on tables the planner has no statistics of, so the small book's comes in two: a
 * thousand policies, then the rest straight after, before autovacuum has looked at them.
 */
async function growBook(from: number, size: number) {
  const agentShare = Math.floor((size - from) / 5);
  const first = from === 0 ? 1_000 : 0;
  if (first) await importBook(owner, 0, first);
  await importBook(owner, from + first, size - from - first - agentShare);
  await importBook(agent, size - agentShare, agentShare);
}

/**
 * Runs the statements a connection sent during one request again, in order, each read under EXPLAIN,
 * and rolls back what they began. The job queue's polls, which share the pool, are left out.
 */
async function explainEach(statements: Statement[], into: Measured) {
  const client = await t.database.pool.connect();
  try {
    for (const { text, values } of statements) {
      const sql = text.trim();
      if (/\bpgboss\./.test(sql)) continue;
      if (/^(commit|rollback)\b(?! to)/i.test(sql)) await client.query('rollback');
      else if (/^(begin|savepoint|release|rollback to)\b/i.test(sql) || /^select set_config\(/i.test(sql))
        await client.query(sql, values);
      else if (/^(select|with)\b/i.test(sql)) {
        const { rows } = await client.query(`explain (analyze, buffers, format json) ${sql}`, values);
        const plan = rows[0]['QUERY PLAN'][0].Plan as Record<string, number>;
        const buffers = (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
        const key = createHash('sha256').update(sql).digest('hex').slice(0, 12);
        into.set(key, { buffers: Math.max(buffers, into.get(key)?.buffers ?? 0), sql: sql.slice(0, 160) });
      }
    }
  } finally {
    await client.query('rollback');
    client.release();
  }
}

const month = () => {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0));
  return `start=${first.toISOString().slice(0, 10)}&end=${last.toISOString().slice(0, 10)}`;
};

/** The screens a broker opens all day, as the owner and as the agent who sees only their own book. */
const HOT_READS = [
  '/api/policies/?status=active&ordering=-start_date',
  '/api/policies/stats/',
  '/api/dashboard/',
  '/api/policies/commission_batch/?include=commission_data',
  `/api/calendar/events/?${month()}`,
  '/api/search/?q=mizrahy',
  '/api/search/?q=dana%20levy',
  '/api/analytics/customers/?period=12m',
  '/api/analytics/portfolio/',
  '/api/analytics/portfolio-history/?months=36',
  '/api/customers/',
  '/api/installments/?status=overdue',
];
const OWNER_READS = ['/api/commission-report/insurers-owed/', '/api/commission-statements/'];

/** Reads each hot screen as the owner and as the agent, keeping each statement's buffers. */
async function measureReads(stage: 'small' | 'large', statementId: string) {
  const callers = [
    ['owner', owner, [...HOT_READS, ...OWNER_READS, `/api/commission-statements/${statementId}/`]],
    ['agent', agent, HOT_READS],
  ] as const;
  for (const [role, who, urls] of callers) {
    for (const url of urls) {
      captured = [];
      const response = await t.app.inject({ method: 'GET', url, headers: bearer(who.access) });
      const statements = captured;
      captured = undefined;
      expect(response.statusCode, `${role} ${url}: ${response.body}`).toBe(200);
      const perStatement: Measured = new Map();
      for (const connection of new Set(statements.map((statement) => statement.client)))
        await explainEach(
          statements.filter((statement) => statement.client === connection),
          perStatement,
        );
      const screen = url.split('?')[0]?.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, ':id');
      for (const [key, value] of perStatement) measured[stage].set(`${role} GET ${screen} ${key}`, value);
    }
  }
}

/** Lines of each insurer's statement: as many at 20,000 policies as at 5,000. */
const STATEMENT_LINES = 500;

/**
 * A statement of Harel's (every third policy, from `first`): nine lines in ten name their policy the
 * insurer's way (`p 000003` for `P-000003`), the tenth only its insured, surname first, and premium.
 */
async function uploadStatement(companyId: string, first: number) {
  const rows = ['Policy No.,Insured Name,Gross Premium,Commission,Trans Date'];
  for (let n = 0; n < STATEMENT_LINES; n++) {
    const policy = first + n * INSURERS.length;
    const customer = Math.floor(policy / 3);
    const number = n % 10 === 9 ? '' : `p ${String(policy).padStart(6, '0')}`;
    const insured = `${SURNAMES[Math.floor(customer / 10) % 10]}${customer} ${FIRST_NAMES[customer % 10]}`;
    rows.push(`${number},${insured},${400 + (policy % 50) * 40}.00,50.00,${day(-20)}`);
  }
  const fields = {
    company_id: companyId,
    statement_date: day(-1),
    total_amount: (STATEMENT_LINES * 50).toFixed(2),
  };
  const file = Buffer.from(`${rows.join('\r\n')}\r\n`);
  const before = await databaseBuffers();
  // The upload and its job's reading and matching, with the few buffers of the polls that wait for it.
  const { id } = await readThrough(owner.as, await upload(t.app, owner.access, fields, file));
  return { id, buffers: (await databaseBuffers()) - before };
}

async function stage(name: 'small' | 'large', from: number, size: number) {
  await growBook(from, size);
  const companies = (
    await t.app.inject({ method: 'GET', url: '/api/companies/', headers: bearer(owner.access) })
  ).json() as {
    results: { id: string; name: string }[];
  };
  const harel = companies.results.find((company) => company.name === 'Harel');
  if (!harel) throw new Error('the import made no insurer Harel');
  // Harel's policies among those the stage added: every third, the first a multiple of three.
  const statement = await uploadStatement(harel.id, Math.ceil(from / 3) * 3);
  statements[name] = statement.buffers;
  await measureReads(name, statement.id);
}

beforeAll(async () => {
  t = await createTestApp({ logLevel: 'error' });
  owner = await signedInAgency(t.app);
  await t.database.db.insert(plans).values({
    name: 'plan-guard',
    displayName: 'Plan guard',
    description: 'Room for the guard’s book.',
    priceMonthly: '1.00',
    priceYearly: '10.00',
    trialDays: 14,
    features: { included: [...MODULES], excluded: [] },
    limits: { policies: 100_000, customers: 100_000, leads: 100_000, users: 50, storage_mb: 50_000 },
  });
  await setSubscription(t, owner.user.tenant_id, { plan: 'plan-guard', status: 'active' });
  agent = await addTeamMember(t.app, owner, 'agent');
  const own = await owner.as.patch('/api/team/settings/', { agents_see_own_book: true });
  expect(own.statusCode, own.body).toBe(200);
  await stage('small', 0, 5_000);
  await stage('large', 5_000, 20_000);
}, 600_000);

afterAll(async () => {
  console.log(
    `imports (policies: buffers per policy): ${imports.map((done) => `${done.policies}: ${Math.round(perPolicy(done))}`).join(', ')}; statement of ${STATEMENT_LINES} lines: ${statements.small} buffers at 5,000 policies, ${statements.large} at 20,000`,
  );
  if (recording) {
    const budgets: Budgets = {};
    for (const [key, value] of [...measured.large].sort(([a], [b]) => a.localeCompare(b))) {
      const [screen, hash] = [key.slice(0, key.lastIndexOf(' ')), key.slice(key.lastIndexOf(' ') + 1)];
      budgets[screen] = { ...budgets[screen], [hash]: value };
    }
    budgets['import, per policy'] = {
      total: { buffers: Math.round(Math.max(...imports.map(perPolicy))), sql: '' },
    };
    budgets['statement upload'] = { total: { buffers: statements.large, sql: '' } };
    writeFileSync(BUDGETS_FILE, `${JSON.stringify(budgets, null, 2)}\n`);
  }
  await t?.close();
});

describe('query plans at 5,000 and 20,000 policies', () => {
  it.skipIf(recording)('keeps every hot statement within its recorded buffers', () => {
    const budgets = JSON.parse(readFileSync(BUDGETS_FILE, 'utf8')) as Budgets;
    const over: string[] = [];
    for (const [key, { buffers, sql }] of measured.large) {
      const [screen, hash] = [key.slice(0, key.lastIndexOf(' ')), key.slice(key.lastIndexOf(' ') + 1)];
      // A statement with no budget counts as one of none: a cache's occasional read of a settings
      // row (a few buffers) comes and goes with the clock, while a new statement of weight fails.
      const budget = budgets[screen]?.[hash]?.buffers;
      const against = budget === undefined ? 'no budget' : `a budget of ${budget}`;
      if (buffers > BUDGET_SLACK * Math.max(budget ?? 0, 50))
        over.push(`${screen}: ${buffers} buffers against ${against}: ${sql}`);
    }
    expect(
      over,
      'Record new budgets with PLAN_BUDGETS=record once a change is meant (docs/testing.md)',
    ).toEqual([]);
  });

  it('grows no statement faster than the book', () => {
    const faster: string[] = [];
    for (const [key, large] of measured.large) {
      const small = measured.small.get(key)?.buffers ?? 0;
      if (large.buffers > GROWTH_FLOOR && large.buffers > GROWTH_LIMIT * Math.max(small, 1))
        faster.push(`${key}: ${small} buffers at 5,000 policies, ${large.buffers} at 20,000: ${large.sql}`);
    }
    expect(faster).toEqual([]);
  });

  it('imports a policy for the same buffers into a large book as into a small one', () => {
    // Each import after the first adds to a larger book: a catch-up that reads the agency's whole
    // book for each policy it adds reads several times more per policy than the first import did.
    const [first, ...later] = imports.map(perPolicy);
    for (const each of later) expect(each).toBeLessThan(2 * (first ?? 0));
  });

  it('matches a statement of the same lines for about the same buffers in a book four times larger', () => {
    // Each line finds its policy through an index: the larger book deepens it, never reads it whole.
    expect(statements.large).toBeLessThan(2 * statements.small);
  });

  it.skipIf(recording)('imports and matches statements within their recorded buffers', () => {
    const budgets = JSON.parse(readFileSync(BUDGETS_FILE, 'utf8')) as Budgets;
    const importBudget = budgets['import, per policy']?.total?.buffers ?? 0;
    expect(Math.max(...imports.map(perPolicy))).toBeLessThan(BUDGET_SLACK * importBudget);
    const statementBudget = budgets['statement upload']?.total?.buffers ?? 0;
    expect(statements.large).toBeLessThan(BUDGET_SLACK * statementBudget);
  });
});
