import { roleRefusal, TEAM_ACTIONS, type TeamRole } from '@coverdesk/contract';
import { like } from 'drizzle-orm';
import fc from 'fast-check';
import type { RouteOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Agency, addMember, rowFactory, rowIds, seedAgency } from '../../test/probe/agencies.js';
import { shapeOf } from '../../test/probe/arbitraries.js';
import {
  multipartForm,
  ProbeClient,
  type ProbeRequest,
  type ProbeResponse,
} from '../../test/probe/client.js';
import { fuzzedRequests } from '../../test/probe/fuzz.js';
import { problemsIn } from '../../test/probe/hygiene.js';
import { loneSurrogateCases } from '../../test/probe/lone-surrogates.js';
import { documentedPermissions } from '../../test/probe/permissions.js';
import { fillPath, type ValidRequest, validRequests, withQuery } from '../../test/probe/requests.js';
import { apiOperations, type IdKind, type Operation } from '../../test/probe/route-table.js';
import { createTestApp, setSubscription } from '../../test/test-app.js';
import { TEST_THROTTLE_PREFIX } from '../modules/notifications/setting-routes.js';
import { throttleBuckets } from '../modules/throttle/tables.js';

// The abuse probe: every API route, found in the app's own route table, is called by every kind of
// caller (the authorisation matrix), with requests generated from its zod schemas (the fuzzer) and
// with oversized ones (the time budget). A route added later is covered without being named here.

/**
 * Fastify keeps no list of its routes to read back; its onRoute hook sees each one as it is
 * declared, schemas included. So the app's Fastify instance is made with that hook in place.
 */
const declared = vi.hoisted((): RouteOptions[] => {
  // The files of a fork share its modules (vitest.config.ts): an app another file built first would
  // hold the real Fastify. Loaded afresh, every module this file imports sees the one below.
  vi.resetModules();
  return [];
});
vi.mock('fastify', async (importOriginal) => {
  const original = await importOriginal<typeof import('fastify')>();
  const withRouteTable = ((options?: Parameters<typeof original.default>[0]) => {
    const app = original.default(options);
    app.addHook('onRoute', (route) => {
      declared.push(route);
    });
    return app;
  }) as typeof original.default;
  return { ...original, default: withRouteTable };
});

/** Fixed, so a failure replays; PROBE_SEED tries others. */
const SEED = Number(process.env.PROBE_SEED ?? 20_260_113);
/** Generated requests per operation; PROBE_RUNS raises it for a longer hunt. */
const RUNS = Number(process.env.PROBE_RUNS ?? 20);
const ADMIN_EMAIL = 'probe-admin@coverdesk.test';

const t = await createTestApp({ adminEmails: [ADMIN_EMAIL] });
const operations = apiOperations(declared);
const fuzzed = operations.filter((operation) => operation.body || operation.query);
const withBody = operations.filter((operation) => operation.body);
const client = new ProbeClient(t.app);

/** Own agency, another agency, one whose plan has lapsed, and a platform admin's. */
let own: Agency;
let other: Agency;
let lapsed: Agency;
let admin: Agency;
let freshRows: ReturnType<typeof rowFactory>;
/** The own agency's members other than its owner, by role: their access tokens. */
const memberTokens: Partial<Record<TeamRole, string>> = {};
const MEMBER_ROLES = ['manager', 'agent', 'viewer'] as const satisfies readonly TeamRole[];
/** docs/permissions.md, which the answers to each role are held to. */
const permissions = documentedPermissions();
const requestsBy: Record<string, number> = {};
let counted = 0;
/** Records how many requests a part of the probe sent. */
const countPhase = (name: string) => {
  requestsBy[name] = client.requests - counted;
  counted = client.requests;
};

/** Fails with every problem listed in full, rather than a truncated diff. */
const expectNone = (problems: string[], context = '') =>
  expect(problems.length, [context, ...problems].filter(Boolean).join('\n')).toBe(0);

beforeAll(async () => {
  own = await seedAgency(client, 'alpha');
  other = await seedAgency(client, 'bravo');
  lapsed = await seedAgency(client, 'charlie');
  admin = await seedAgency(client, 'delta', ADMIN_EMAIL);
  await setSubscription(t, lapsed.ids.tenant, { status: 'expired' });
  freshRows = rowFactory(client, own);
  for (const role of MEMBER_ROLES) memberTokens[role] = await addMember(client, own, role);
  countPhase('setup');
});

/** Billing actions change an agency's subscription; every check starts from the seeded states. */
afterEach(async () => {
  for (const agency of [own, other, admin]) await setSubscription(t, agency.ids.tenant, { status: 'trial' });
  // The row factory makes bell notifications by sending tests, far more than a broker may in an hour.
  await t.database.db.delete(throttleBuckets).where(like(throttleBuckets.key, `${TEST_THROTTLE_PREFIX}%`));
  await setSubscription(t, lapsed.ids.tenant, { status: 'expired' });
});

afterAll(async () => {
  const errors = client.serverErrors;
  console.log(
    [
      'Abuse probe',
      `  operations in the route table: ${operations.length} (${operations.filter((op) => op.isPublic).length} public)`,
      `  covered by the authorisation matrix: ${operations.length}`,
      `  covered by the fuzzer: ${fuzzed.length} (${RUNS} requests each, seed ${SEED})`,
      `  requests sent: ${client.requests} (${Object.entries(requestsBy)
        .map(([phase, count]) => `${phase} ${count}`)
        .join(', ')})`,
      `  slowest: ${Math.round(client.slowest.ms)} ms, ${client.slowest.request.slice(0, 160)}`,
      `  5xx answers: ${errors.length}`,
      ...errors.map((error) => `    ${error.slice(0, 300)}`),
    ].join('\n'),
  );
  await t.close();
});

/**
 * Every agency's secrets except the caller's own. The platform admin, who is only sent to admin
 * routes, is there to see every agency's names and ids.
 */
const secretsFor = (caller: Agency | undefined) =>
  caller === admin
    ? []
    : [own, other, lapsed, admin].filter((agency) => agency !== caller).flatMap((agency) => agency.secrets);

/** A status, any success (2xx, or a redirect for the API docs), or just no server error. */
type Expected = number | 'success' | 'no server error';

function statusProblem(response: ProbeResponse, expected: Expected, who: string): string[] {
  const { status } = response;
  const met =
    expected === 'success'
      ? status >= 200 && status < 400
      : expected === 'no server error'
        ? status < 500
        : status === expected;
  if (met) return [];
  return [`${who}: expected ${expected}, got ${status} ${response.body.slice(0, 200)}`];
}

function requestOf(
  operation: Operation,
  ids: Partial<Record<IdKind, string>>,
  valid: ValidRequest | undefined,
  caller: Agency | undefined,
): ProbeRequest {
  return {
    method: operation.method,
    url: withQuery(fillPath(operation, ids), valid?.query),
    token: caller?.access,
    body: operation.body ? (valid?.body ?? {}) : undefined,
    ...valid?.file,
  };
}

/** Rows a request uses up (deleted, cancelled, paid) are made for it; reads use the seeded ones. */
async function ownTargets(operation: Operation): Promise<Record<IdKind, string>> {
  if (operation.method === 'GET') return own.ids;
  const ids = { ...own.ids };
  for (const { kind } of operation.params) {
    // The agency and its owner are the caller's own: every operation keeps them.
    if (kind && kind !== 'tenant' && kind !== 'user') ids[kind] = await freshRows[kind]();
  }
  return ids;
}

const mentionsAny = (text: string, values: string[]) => values.some((value) => text.includes(value));

async function matrix(operation: Operation): Promise<string[]> {
  const problems: string[] = [];
  const check = async (who: string, request: ProbeRequest, expected: Expected, caller?: Agency) => {
    const response = await client.send(request);
    problems.push(...statusProblem(response, expected, who));
    problems.push(...problemsIn(response, { secrets: secretsFor(caller), timed: false }));
  };
  const ownValid = validRequests(operation, own)[0];
  // Without a valid request to send, a 4xx is a fair answer; a 5xx never is.
  const wildcard = operation.params.some((param) => !param.kind);
  const works: Expected = !ownValid || wildcard ? 'no server error' : (ownValid.status ?? 'success');

  if (operation.isPublic) {
    await check('anonymous on a public route', requestOf(operation, own.ids, ownValid, undefined), works);
    return problems;
  }

  // Signed out: 401 for a valid request, and for a malformed one before its fields are looked at.
  await check('anonymous', requestOf(operation, own.ids, ownValid, undefined), 401);
  if (operation.params.length > 0 || operation.body || operation.query) {
    const junk = Object.fromEntries(operation.params.map((param) => [param.kind, 'not-an-id']));
    const url = `${fillPath(operation, junk)}${operation.query ? '?page=0&page_size=x' : ''}`;
    await check(
      'anonymous with a malformed request',
      {
        method: operation.method,
        url,
        ...(operation.body ? { rawBody: '[]' } : {}),
      },
      401,
    );
  }

  // Another agency's token on this agency's rows: they do not exist for it.
  const crossRequest = requestOf(operation, own.ids, ownValid, other);
  const ownIds = rowIds(own.ids);
  const query = crossRequest.url.split('?')[1] ?? '';
  const crossExpected: Expected = operation.isAdmin
    ? 403
    : operation.params.some((param) => param.kind) ||
        mentionsAny(query, ownIds) ||
        // A form's record (the customer a document is uploaded onto, a statement's insurer) is looked
        // up as a path's is.
        mentionsAny(crossRequest.rawBody ?? '', ownIds)
      ? 404
      : mentionsAny(JSON.stringify(crossRequest.body ?? null), ownIds)
        ? 400
        : works;
  await check("another agency's token on this agency's ids", crossRequest, crossExpected, other);

  // An agency whose plan lapsed: 402 wherever the plan gate stands, its usual answer elsewhere.
  const lapsedExpected: Expected = operation.isAdmin ? 403 : operation.isGated ? 402 : works;
  await check(
    'an agency whose plan has expired',
    requestOf(operation, lapsed.ids, validRequests(operation, lapsed)[0], lapsed),
    lapsedExpected,
    lapsed,
  );

  // Each member of the agency by role: refused with the role's sentence exactly where
  // docs/permissions.md says the role may not, and let past the role check everywhere else.
  const action = operation.isAdmin ? undefined : permissions.operations[operation.key];
  if (!operation.isAdmin && !action) {
    problems.push(
      `docs/permissions.md does not list ${operation.key}: add it to the operations' table with its action`,
    );
  }
  for (const role of action ? MEMBER_ROLES : []) {
    const allowed = permissions.actions[action as string]?.includes(role) ?? false;
    // A request of its own: names that must be unique in the agency are new again.
    const response = await client.send({
      ...requestOf(operation, await ownTargets(operation), validRequests(operation, own)[0], own),
      token: memberTokens[role],
    });
    const refused =
      response.status === 403 && response.body.includes(JSON.stringify(roleRefusal(role)).slice(1, -1));
    if (allowed === refused || response.status >= 500) {
      problems.push(
        `${role}: ${allowed ? 'may' : 'may not'} (${action}), answered ${response.status} ${response.body.slice(0, 160)}`,
      );
    }
  }

  // The agency's owner, who registered it: the request works where docs/permissions.md lets owners
  // (platform-admin routes are not theirs).
  const ownerRefused =
    operation.isAdmin || (action !== undefined && !permissions.actions[action]?.includes('owner'));
  const ownRequest = requestOf(operation, await ownTargets(operation), ownValid, own);
  await check(
    operation.isAdmin ? 'a broker on an admin route' : 'the owner',
    ownRequest,
    ownerRefused ? 403 : works,
    own,
  );

  if (operation.isAdmin) {
    await check(
      'a platform admin',
      requestOf(operation, admin.ids, validRequests(operation, admin)[0], admin),
      works,
      admin,
    );
  }
  return problems;
}

describe('authorisation matrix', () => {
  it('finds the whole API in the route table', () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(operations.map((operation) => operation.key)).toContain('DELETE /api/customers/:id/');
  });

  it("holds docs/permissions.md's roles to the API's own table, and lists no operation that is gone", () => {
    expect(permissions.actions).toEqual(TEAM_ACTIONS);
    const keys = new Set(operations.map((operation) => operation.key));
    expect(Object.keys(permissions.operations).filter((key) => !keys.has(key))).toEqual([]);
  });

  for (const operation of operations) {
    it(operation.key, async () => {
      const problems = await matrix(operation);
      expectNone(problems);
    });
  }

  afterAll(() => countPhase('matrix'));
});

/** The caller that reaches an operation's code: nobody on public routes, the admin on admin routes. */
const callerOf = (operation: Operation) => (operation.isPublic ? undefined : operation.isAdmin ? admin : own);

async function timedProblems(requests: ProbeRequest[], caller: Agency | undefined): Promise<string[]> {
  const problems: string[] = [];
  for (const request of requests) {
    problems.push(...problemsIn(await client.send(request), { secrets: secretsFor(caller), timed: true }));
  }
  return problems;
}

describe('time budget: oversized and malformed requests are answered within a second', () => {
  const requestTo = (operation: Operation, extra: Partial<ProbeRequest>): ProbeRequest => {
    const caller = callerOf(operation);
    return {
      method: operation.method,
      url: fillPath(operation, (caller ?? own).ids),
      token: caller?.access,
      ...extra,
    };
  };

  it('a JSON body of nearly 1 MB, one over the limit, and arrays nested 10,000 deep', async () => {
    const problems: string[] = [];
    for (const operation of operations.filter((op) => op.body)) {
      const caller = callerOf(operation);
      const example = validRequests(operation, caller ?? own)[0]?.body;
      const fields = Object.keys(shapeOf(operation.body as NonNullable<Operation['body']>));
      const names = fields.length > 0 ? fields : ['padding'];
      // Every field at once, the whole just under the 1 MB body limit.
      const filler = 'x'.repeat(Math.floor(1_000_000 / names.length));
      const large = { ...(example as object), ...Object.fromEntries(names.map((name) => [name, filler])) };
      const tooLarge = requestTo(operation, { rawBody: JSON.stringify({ padding: 'x'.repeat(2_000_000) }) });
      const response = await client.send(tooLarge);
      if (response.status !== 413) problems.push(`2 MB body answered ${response.status}: ${operation.key}`);
      problems.push(...problemsIn(response, { secrets: secretsFor(caller), timed: true }));
      problems.push(
        ...(await timedProblems(
          [
            requestTo(operation, { body: large }),
            requestTo(operation, { rawBody: `${'['.repeat(10_000)}${']'.repeat(10_000)}` }),
          ],
          caller,
        )),
      );
    }
    expectNone(problems);
  });

  it('health, asked every 100 ms while a 5,000-line statement matching no policy is read and matched', async () => {
    // The whole 50,000 lines a statement may have: commission-statements/large-statement.test.ts.
    const lines = 5_000;
    const operation = operations.find((op) => op.key === 'POST /api/commission-statements/') as Operation;
    const rows = Array.from(
      { length: lines },
      (_, row) => `ZZ-${row},Customer No ${row},${1000 + row}.00,1.00`,
    );
    const upload = requestOf(
      operation,
      own.ids,
      {
        file: multipartForm(
          { company_id: own.ids.company, statement_date: '2026-01-31', total_amount: `${lines}.00` },
          {
            field: 'file',
            name: 'large.csv',
            text: `Policy No.,Insured Name,Gross Premium,Commission\r\n${rows.join('\r\n')}\r\n`,
          },
        ),
      },
      own,
    );
    const answer = await client.send(upload);
    const problems =
      answer.status === 202 ? [] : [`upload answered ${answer.status} ${answer.body.slice(0, 200)}`];
    // The file is read through in a worker thread before the answer, whose start alone can take a
    // second on a busy machine; what is timed is everything else meanwhile.
    problems.push(...problemsIn(answer, { secrets: secretsFor(own), timed: false }));
    const { id } = JSON.parse(answer.body) as { id: string };
    const statement: ProbeRequest = {
      method: 'GET',
      url: `/api/commission-statements/${id}/`,
      token: own.access,
    };
    for (let polls = 0; polls < 6_000; polls += 1) {
      problems.push(...(await timedProblems([{ method: 'GET', url: '/api/health/' }], undefined)));
      if (polls % 10 === 0) {
        const read = await client.send(statement);
        problems.push(...problemsIn(read, { secrets: secretsFor(own), timed: true }));
        if ((JSON.parse(read.body) as { status: string }).status !== 'processing') break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const done = JSON.parse((await client.send(statement)).body) as { status: string; line_count: number };
    if (done.status !== 'review' || done.line_count !== lines)
      problems.push(`expected ${lines} lines in review, got ${JSON.stringify(done).slice(0, 300)}`);
    expectNone(problems);
  });

  it('100 KB in each query field', async () => {
    const problems: string[] = [];
    // Characters that LIKE and percent-encoding treat specially, 100 KB of them.
    const huge = "%_\\'x".repeat(20_000);
    for (const operation of operations.filter((op) => op.query)) {
      const request = requestTo(operation, {});
      const names = Object.keys(shapeOf(operation.query as NonNullable<Operation['query']>));
      const requests = names.map((name) => ({
        ...request,
        url: `${request.url}?${new URLSearchParams({ [name]: huge })}`,
      }));
      problems.push(...(await timedProblems(requests, callerOf(operation))));
    }
    expectNone(problems);
  });

  it('policy terms from 0001-01-01 to 9999-12-31 and from 1900 to 2200, and lists over the same span', async () => {
    const policy = await freshRows.policy();
    const term = {
      policy_number: 'POL-LONG',
      customer_id: own.ids.customer,
      company_id: own.ids.company,
      policy_type_id: own.ids.policyType,
      start_date: '0001-01-01',
      end_date: '9999-12-31',
      total_premium: '999999999999.99',
      payment_frequency: 'monthly',
    };
    const as = (method: ProbeRequest['method'], url: string, body?: unknown): ProbeRequest => ({
      method,
      url,
      token: own.access,
      body,
    });
    const problems = await timedProblems(
      [
        as('POST', '/api/policies/', term),
        as('POST', '/api/policies/', {
          ...term,
          policy_number: 'POL-LONG-2',
          payment_frequency: 'custom',
          custom_installments: 120,
        }),
        as('PUT', `/api/policies/${policy}/`, { ...term, policy_number: 'POL-LONG-3' }),
        as('POST', `/api/policies/${own.ids.policy}/renew/`, {
          start_date: '0001-01-01',
          end_date: '9999-12-31',
        }),
        // The longest term the contract accepts.
        as('POST', '/api/policies/', {
          ...term,
          policy_number: 'POL-LONG-4',
          start_date: '1900-01-01',
          end_date: '2200-12-31',
        }),
        as('POST', '/api/policies/', {
          ...term,
          policy_number: 'POL-LONG-5',
          start_date: '1900-01-01',
          end_date: '2200-12-31',
          payment_frequency: 'custom',
          custom_installments: 120,
        }),
        as('GET', '/api/installments/?due_date_from=0001-01-01&due_date_to=9999-12-31&page_size=100'),
        as('GET', '/api/installments/?due_date_from=1900-01-01&due_date_to=2200-12-31&ordering=-amount_due'),
        as('GET', `/api/policies/${own.ids.policy}/installments/`),
        as(
          'GET',
          '/api/policies/?start_date_from=0001-01-01&end_date_to=9999-12-31&expiring_within_days=3650',
        ),
      ],
      own,
    );
    expectNone(problems);
  });

  afterAll(() => countPhase('time budget'));
});

describe('forms: cut short, without a boundary, and statement amounts past what an amount holds', () => {
  const formOperations = operations.filter((operation) => operation.takesForm);

  it('finds every route that takes a file form', () => {
    expect(formOperations.map((operation) => operation.key)).toEqual(
      expect.arrayContaining([
        'POST /api/commission-statements/',
        'POST /api/documents/',
        'POST /api/support/tickets/',
      ]),
    );
  });

  for (const operation of formOperations) {
    it(operation.key, async () => {
      const caller = callerOf(operation);
      const valid = validRequests(operation, caller ?? own).find((request) => request.file);
      if (!valid?.file)
        throw new Error(`${operation.key} takes a form: give it one in api/test/probe/requests.ts`);
      const form = valid.file;
      const boundary = /boundary=(.+)$/.exec(form.contentType)?.[1] ?? '';
      const ids = caller === own ? await ownTargets(operation) : (caller ?? own).ids;
      const sent = (file: NonNullable<ValidRequest['file']>) =>
        requestOf(operation, ids, { ...valid, file }, caller);
      const problems: string[] = [];
      for (const request of [
        // `--x` without its closing `--x--`, and the same cut inside the file's part.
        sent({ ...form, rawBody: form.rawBody.replace(`--${boundary}--\r\n`, '') }),
        sent({ ...form, rawBody: form.rawBody.slice(0, form.rawBody.lastIndexOf(`\r\n--${boundary}`) - 2) }),
        sent({ ...form, contentType: 'multipart/form-data' }),
      ]) {
        const response = await client.send(request);
        if (response.status !== 400)
          problems.push(`expected 400, got ${response.status} ${response.body.slice(0, 200)}`);
        problems.push(...problemsIn(response, { secrets: secretsFor(caller), timed: true }));
      }
      expectNone(problems);
    });
  }

  it('POST /api/commission-statements/ with amounts of 13 integer digits and totals that read two ways', async () => {
    const statement = (fields: Record<string, string>, lines: string) =>
      requestOf(
        formOperations.find((operation) => operation.key === 'POST /api/commission-statements/') as Operation,
        own.ids,
        {
          file: multipartForm(
            { company_id: own.ids.company, statement_date: '2026-01-31', total_amount: '10.00', ...fields },
            { field: 'file', name: 'statement.csv', text: `Policy,Premium,Commission\r\n${lines}` },
          ),
        },
        own,
      );
    const cases: [ProbeRequest, string][] = [
      [statement({}, 'P-1,1234567890123,10.00\r\n'), 'Row 2: the premium "1234567890123" is too large'],
      [
        statement({}, 'P-1,100.00,9999999999999.99\r\n'),
        'Row 2: the commission "9999999999999.99" is too large',
      ],
      [
        statement({}, 'P-1,100.00,-1e400\r\nP-2,1e400,10.00\r\n'),
        'Row 3: the premium "1e400" is not an amount',
      ],
      [statement({ total_amount: '1.000' }, 'P-1,100.00,10.00\r\n'), '“1.000” could be 1000 or 1.00'],
      [statement({ total_amount: '10000000000000' }, 'P-1,100.00,10.00\r\n'), 'Enter the statement’s total'],
    ];
    const problems: string[] = [];
    for (const [request, expected] of cases) {
      const response = await client.send(request);
      // As the JSON body writes it: quotes escaped.
      if (response.status !== 400 || !response.body.includes(JSON.stringify(expected).slice(1, -1))) {
        problems.push(
          `expected 400 saying ${expected}, got ${response.status} ${response.body.slice(0, 300)}`,
        );
      }
      // Each file is read in a worker thread, whose start alone can take a second on a busy
      // machine: what these cases hold is the answer, not its time.
      problems.push(...problemsIn(response, { secrets: secretsFor(own), timed: false }));
    }
    expectNone(problems);
  });

  afterAll(() => countPhase('forms'));
});

describe('fuzzing from the contract', () => {
  /** Each operation has its own stream of cases, unchanged when routes are added before it. */
  const seedFor = (operation: Operation) =>
    [...operation.key].reduce((hash, char) => (hash * 31 + char.charCodeAt(0)) | 0, SEED);

  for (const operation of fuzzed) {
    it(operation.key, async () => {
      const reader = callerOf(operation);
      // Requests that change rows get rows of their own, so the seeded ones stay as every other
      // operation expects them (an insurer that sells the type, a policy not yet renewed).
      const caller = reader === own ? { ...own, ids: await ownTargets(operation) } : reader;
      // Public routes borrow the own agency's examples (its email to sign in with); an admin's
      // requests stay on its own agency, since lapsing another's plan would close the rest of the probe.
      const others = operation.isPublic ? [own] : operation.isAdmin ? [] : [other];
      const seed = seedFor(operation);
      const requests = fc.sample(fuzzedRequests(operation, caller, others), { seed, numRuns: RUNS });
      const problems: string[] = [];
      for (const [index, request] of requests.entries()) {
        const response = await client.send(request);
        const found = problemsIn(response, { secrets: secretsFor(reader), timed: true });
        problems.push(...found.map((problem) => `case ${index} of seed ${seed}: ${problem}`));
      }
      expectNone(problems, `replay with PROBE_SEED=${SEED} PROBE_RUNS=${RUNS}`);
    });
  }

  afterAll(() => countPhase('fuzzer'));
});

/** Whether an answer is a 400 with a message for the field, or for the list it is in ("columns" for "columns.2"). */
function namesField(response: ProbeResponse, field: string): boolean {
  if (response.status !== 400) return false;
  let named: string[];
  try {
    named = Object.keys(JSON.parse(response.body));
  } catch {
    return false;
  }
  return named.some((name) => field === name || field.startsWith(`${name}.`));
}

describe('text PostgreSQL cannot store: a lone surrogate in any string field is a 400 naming it', () => {
  it('finds the string fields of a body without examples', () => {
    const emailSetup = withBody.find((operation) => operation.key === 'PUT /api/admin/email-setup/');
    const fields = loneSurrogateCases(emailSetup?.body as NonNullable<Operation['body']>, []).map(
      (entry) => entry.field,
    );
    expect(fields).toEqual(expect.arrayContaining(['host', 'username', 'password', 'from_name']));
  });

  for (const operation of withBody) {
    it(operation.key, async () => {
      const reader = callerOf(operation);
      // Each body is refused, so nothing changes; were one let through, it would act on rows of
      // its own, like the fuzzer's.
      const caller = reader === own ? { ...own, ids: await ownTargets(operation) } : reader;
      const examples = validRequests(operation, caller ?? own).flatMap((request) =>
        !request.file && request.body && typeof request.body === 'object' && !Array.isArray(request.body)
          ? [request.body as Record<string, unknown>]
          : [],
      );
      const problems: string[] = [];
      for (const { field, body } of loneSurrogateCases(
        operation.body as NonNullable<Operation['body']>,
        examples,
      )) {
        const request = requestOf(operation, (caller ?? own).ids, { body }, caller);
        const response = await client.send(request);
        if (!namesField(response, field)) {
          problems.push(
            `${field}: expected 400 naming it, got ${response.status} ${response.body.slice(0, 200)}`,
          );
        }
        problems.push(...problemsIn(response, { secrets: secretsFor(reader), timed: true }));
      }
      expectNone(problems);
    });
  }

  afterAll(() => countPhase('lone surrogates'));
});
