import type { ImportPreview, ImportRecord } from '@coverdesk/contract';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptAndAfresh, statsFromPolicies } from '../../../test/kept-totals.js';
import {
  addPlanWithout,
  bearer,
  createTestApp,
  setSubscription,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';
import { buildApp } from '../../app.js';
import { withTenant } from '../../db/tenant.js';
import { JobQueue } from '../../jobs/queue.js';
import { customers } from '../customers/tables.js';
import type { leads } from '../leads/tables.js';
import { installments, policies } from '../policies/tables.js';
import { imports } from './tables.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { demoAgency: true });
});
afterAll(() => t.close());

type Agency = Awaited<ReturnType<typeof signedInAgency>>;

const csv = (rows: (string | number)[][], delimiter = ',') =>
  `${rows.map((row) => row.map((cell) => (/[",;\n]/.test(String(cell)) ? `"${String(cell).replaceAll('"', '""')}"` : cell)).join(delimiter)).join('\r\n')}\r\n`;

async function upload(
  app: TestApp['app'],
  agency: Agency,
  kind: string,
  body: string | Buffer,
  fileName = 'book.csv',
  type = 'text/csv',
) {
  return app.inject({
    method: 'POST',
    url: `/api/imports/?kind=${kind}&file_name=${fileName}`,
    headers: { ...bearer(agency.access), 'content-type': type },
    payload: typeof body === 'string' ? Buffer.from(body) : body,
  });
}

async function uploaded(agency: Agency, kind: string, body: string | Buffer, type?: string) {
  const response = await upload(t.app, agency, kind, body, 'book.csv', type);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as ImportRecord;
}

async function waitForImport(agency: Agency, id: string, app = t.app): Promise<ImportRecord> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const response = await app.inject({
      method: 'GET',
      url: `/api/imports/${id}/`,
      headers: bearer(agency.access),
    });
    const record = response.json() as ImportRecord;
    if (record.status === 'done' || record.status === 'failed') return record;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the import did not finish');
}

async function settle(agency: Agency, record: ImportRecord, settings: Record<string, unknown> = {}) {
  const response = await agency.as.put(`/api/imports/${record.id}/`, {
    columns: record.columns,
    duplicates: 'skip',
    all_or_nothing: true,
    ...settings,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ImportRecord;
}

async function run(agency: Agency, record: ImportRecord) {
  const started = await agency.as.post(`/api/imports/${record.id}/start/`);
  expect(started.statusCode, started.body).toBe(202);
  return waitForImport(agency, record.id);
}

const count = (tenantId: string, table: typeof customers | typeof policies | typeof leads) =>
  withTenant(t.database.db, tenantId, async (tx) => {
    const [row] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(table)
      .where(eq(table.tenantId, tenantId));
    return row?.count ?? 0;
  });

const POLICY_HEADER = [
  'Policy No',
  'Carrier',
  'Line of business',
  'Insured',
  'E-mail',
  'DOB',
  'Effective date',
  'Expiry',
  'Premium',
  'Frequency',
];

function policyRow(index: number, overrides: Partial<Record<number, string>> = {}) {
  const row: string[] = [
    `P-${1000 + index}`,
    index % 2 ? 'Harel' : 'Clal',
    'Private motor',
    `Customer ${index % 3} Cohen`,
    `customer${index % 3}@example.com`,
    '14/02/1980',
    '2026-01-01',
    '2026-12-31',
    '1,200.00',
    index % 2 ? 'Quarterly' : 'Annual',
  ];
  for (const [column, value] of Object.entries(overrides)) row[Number(column)] = value ?? '';
  return row;
}

describe('policy import', () => {
  it('maps common header names, creates customers, insurers and types once, and the schedules the policy form would', async () => {
    const agency = await signedInAgency(t.app);
    const record = await uploaded(
      agency,
      'policies',
      csv([POLICY_HEADER, ...Array.from({ length: 6 }, (_, i) => policyRow(i))]),
    );
    expect(record.columns).toEqual([
      'policy_number',
      'company',
      'policy_type',
      'customer_full_name',
      'customer_email',
      'customer_date_of_birth',
      'start_date',
      'end_date',
      'total_premium',
      'payment_frequency',
    ]);
    const preview = (await agency.as.get(`/api/imports/${record.id}/preview/`)).json() as ImportPreview;
    expect(preview).toMatchObject({ total_rows: 6, create: 6, update: 0, skip: 0, fail: 0 });
    // A dry run writes nothing.
    expect(await count(agency.user.tenant_id, policies)).toBe(0);

    const done = await run(agency, record);
    expect(done).toMatchObject({ status: 'done', created: 6, updated: 0, skipped: 0, failed: 0 });
    expect(await count(agency.user.tenant_id, customers)).toBe(3);
    const list = (await agency.as.get('/api/policies/?ordering=policy_number')).json();
    expect(list.count).toBe(6);
    const quarterly = list.results.find(
      (policy: { policy_number: string }) => policy.policy_number === 'P-1001',
    );
    expect(quarterly).toMatchObject({
      company_name: 'Harel',
      policy_type_name: 'Private motor',
      customer_name: 'Customer 1 Cohen',
      total_premium: '1200.00',
      net_premium: '1200.00',
      payment_frequency: 'quarterly',
      total_installments: 4,
    });
    const schedule = (await agency.as.get(`/api/policies/${quarterly.id}/installments/`)).json();
    expect(schedule.results.map((row: { amount_due: string }) => row.amount_due)).toEqual([
      '300.00',
      '300.00',
      '300.00',
      '300.00',
    ]);
    const companies = (await agency.as.get('/api/companies/')).json();
    expect(companies.count).toBe(2);
  });

  it('commits nothing under all-or-nothing when a row in the middle is bad, and lists that row with its reason', async () => {
    const agency = await signedInAgency(t.app);
    const rows = Array.from({ length: 9 }, (_, i) => policyRow(i));
    rows[4] = policyRow(4, { 6: '2026-02-30', 8: 'lots' });
    const record = await settle(agency, await uploaded(agency, 'policies', csv([POLICY_HEADER, ...rows])));
    const done = await run(agency, record);
    expect(done).toMatchObject({ status: 'failed', created: 0, failed: 1 });
    expect(done.detail).toContain('nothing was imported');
    expect(await count(agency.user.tenant_id, policies)).toBe(0);
    expect(await count(agency.user.tenant_id, customers)).toBe(0);
    expect((await agency.as.get('/api/companies/')).json().count).toBe(0);

    const failures = await agency.as.get(`/api/imports/${record.id}/failures/`);
    expect(failures.headers['content-type']).toContain('text/csv');
    const lines = failures.body.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe(`Row,Problems,${POLICY_HEADER.join(',')}`);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^6,"Start date: Enter a valid date \(YYYY-MM-DD\)\.; Premium: /);
  });

  it('skips bad rows into the failed rows and commits the rest when the broker lets it', async () => {
    const agency = await signedInAgency(t.app);
    const rows = Array.from({ length: 5 }, (_, i) => policyRow(i));
    rows[2] = policyRow(2, { 0: '' });
    const record = await settle(agency, await uploaded(agency, 'policies', csv([POLICY_HEADER, ...rows])), {
      all_or_nothing: false,
    });
    const done = await run(agency, record);
    expect(done).toMatchObject({ status: 'done', created: 4, failed: 1 });
    expect(await count(agency.user.tenant_id, policies)).toBe(4);
    const failures = await agency.as.get(`/api/imports/${record.id}/failures/`);
    expect(failures.body).toContain('4,Policy number: ');
  });

  it('imports a file once: the same file again answers the finished import and creates nothing', async () => {
    const agency = await signedInAgency(t.app);
    const file = csv([POLICY_HEADER, ...Array.from({ length: 3 }, (_, i) => policyRow(i))]);
    const first = await run(agency, await uploaded(agency, 'policies', file));
    expect(first.created).toBe(3);
    const again = await uploaded(agency, 'policies', file);
    expect(again).toMatchObject({ id: first.id, status: 'done', created: 3 });
    const restart = await agency.as.post(`/api/imports/${first.id}/start/`);
    expect(restart.statusCode).toBe(409);
    expect(restart.json().detail).toContain('Importing it again would add nothing');
    expect(await count(agency.user.tenant_id, policies)).toBe(3);
  });

  it('finds policies already in the book by number, insurer and start date, and skips or updates them', async () => {
    const agency = await signedInAgency(t.app);
    // Nothing paid on them yet, so their premium may still change.
    const first = await uploaded(agency, 'policies', csv([POLICY_HEADER, policyRow(1), policyRow(2)]));
    await run(agency, await settle(agency, first, { past_instalments: 'unpaid' }));
    const changed = [policyRow(1, { 8: '2400' }), policyRow(2, { 8: '999' }), policyRow(3)];

    const skipping = await uploaded(agency, 'policies', csv([POLICY_HEADER, ...changed]));
    const preview = (await agency.as.get(`/api/imports/${skipping.id}/preview/`)).json() as ImportPreview;
    expect(preview).toMatchObject({ create: 1, skip: 2, update: 0 });
    expect(preview.rows[0]?.note).toBe('Matches policy P-1001.');

    const updating = await settle(agency, skipping, { duplicates: 'update' });
    expect(await run(agency, updating)).toMatchObject({ status: 'done', created: 1, updated: 2 });
    const list = (await agency.as.get('/api/policies/?search=P-1001')).json();
    expect(list.results[0]).toMatchObject({ total_premium: '2400.00', total_installments: 4 });
  });

  // Thousands of rows: more time than the suite's usual 30 s on a busy machine.
  it('keeps the book, history, customer, type and calendar totals equal to the records over an import of several batches', async () => {
    const agency = await signedInAgency(t.app);
    const tenantId = agency.user.tenant_id;
    await setSubscription(t, tenantId, { plan: 'agency' });
    // Their past instalments left unpaid, so that one is paid by hand and the other's premium may change.
    const first = await uploaded(agency, 'policies', csv([POLICY_HEADER, policyRow(1), policyRow(2)]));
    await run(agency, await settle(agency, first, { past_instalments: 'unpaid' }));
    const paid = (await agency.as.get('/api/policies/?search=P-1002')).json().results[0];
    const schedule = (await agency.as.get(`/api/policies/${paid.id}/installments/`)).json();
    const payment = await agency.as.post(`/api/installments/${schedule.results[0].id}/payment/`, {
      payment_method: 'cash',
    });
    expect(payment.statusCode, payment.body).toBe(200);

    // More rows than a batch: customers whose policies fall in different batches, one customer the
    // book already has, and P-1001 again with a new premium, which updates it. Their instalments due
    // before today are recorded as paid by the import, and counted in the totals.
    const pad = (value: number) => String(value).padStart(2, '0');
    const rows = Array.from({ length: 2_100 }, (_, i) => {
      const year = 2024 + (i % 3);
      const person =
        i % 50 === 0
          ? ['Customer 1 Cohen', 'customer1@example.com']
          : [`Client ${i % 40} Levi`, `levi${i % 40}@example.com`];
      return policyRow(i + 10, {
        2: i % 3 ? 'Private motor' : 'Home',
        3: person[0],
        4: person[1],
        6: `${year}-${pad(1 + (i % 12))}-${pad(1 + (i % 28))}`,
        7: `${year + 1}-${pad(1 + (i % 12))}-${pad(i % 28)}`.replace(/-00$/, '-28'),
        8: `${100 + (i % 7) * 50}.${pad(i % 100)}`,
        9: ['Annual', 'Quarterly', 'Monthly'][i % 3] ?? '',
      });
    });
    const record = await settle(
      agency,
      await uploaded(agency, 'policies', csv([POLICY_HEADER, ...rows, policyRow(1, { 8: '2400' })])),
      { duplicates: 'update' },
    );
    expect(await run(agency, record)).toMatchObject({
      status: 'done',
      created: 2_100,
      updated: 1,
      failed: 0,
    });

    const stats = (await agency.as.get('/api/policies/stats/')).json();
    expect(stats.total).toBe(2_102);
    expect(stats).toEqual(await statsFromPolicies(t.database.db, tenantId));
    const { kept, afresh } = await keptAndAfresh(t.database.db, tenantId);
    expect(kept).toEqual(afresh);
    expect((kept as { customers: unknown[] }).customers.length).toBeGreaterThanOrEqual(41);
  }, 120_000);

  it('shows every problem of a row in the preview, by the column it belongs to', async () => {
    const agency = await signedInAgency(t.app);
    const record = await uploaded(
      agency,
      'policies',
      csv([POLICY_HEADER, policyRow(1), policyRow(2, { 4: 'not-an-email', 7: '2025-01-01' })]),
    );
    const preview = (await agency.as.get(`/api/imports/${record.id}/preview/`)).json() as ImportPreview;
    expect(preview).toMatchObject({ create: 1, fail: 1 });
    expect(preview.failed_rows[0]).toMatchObject({
      row: 3,
      errors: {
        customer_email: ['Enter a valid email address.'],
        end_date: ['The policy must end after it starts.'],
      },
    });
  });

  it('refuses an import past the plan limit with 402 saying how many rows fit, before writing anything', async () => {
    const agency = await signedInAgency(t.app);
    await setSubscription(t, agency.user.tenant_id, { plan: await addPlanWithout(t, 'module_claims') });
    const record = await uploaded(
      agency,
      'policies',
      csv([
        POLICY_HEADER,
        ...Array.from({ length: 12 }, (_, i) => policyRow(i, { 3: 'Dana Levi', 4: 'dana@example.com' })),
      ]),
    );
    const started = await agency.as.post(`/api/imports/${record.id}/start/`);
    expect(started.statusCode).toBe(402);
    expect(started.json().detail).toBe(
      'Your Test plan allows up to 10 policies; Starter allows 100. The agency has 0, so 10 of the 12 new policies in this file fit. Upgrade your plan on the Billing page to add more.',
    );
    expect(await count(agency.user.tenant_id, policies)).toBe(0);
  });

  it('counts only the records a file would really add against the plan limit', async () => {
    const agency = await signedInAgency(t.app);
    await setSubscription(t, agency.user.tenant_id, { plan: await addPlanWithout(t, 'module_claims') });
    // Twelve rows, but three repeat earlier ones: nine new policies fit a limit of ten.
    const rows = Array.from({ length: 12 }, (_, i) =>
      policyRow(i % 9, { 3: 'Dana Levi', 4: 'dana@example.com' }),
    );
    const record = await uploaded(agency, 'policies', csv([POLICY_HEADER, ...rows]));
    expect(await run(agency, record)).toMatchObject({ status: 'done', created: 9, skipped: 3 });
  });

  it('asks for the columns a policy cannot do without before running', async () => {
    const agency = await signedInAgency(t.app);
    const record = await uploaded(
      agency,
      'policies',
      csv([
        ['Number', 'Client'],
        ['P-1', 'Dana Levi'],
      ]),
    );
    const started = await agency.as.post(`/api/imports/${record.id}/start/`);
    expect(started.statusCode).toBe(400);
    expect(started.json().columns[0]).toBe(
      'Choose a column for: Insurer, Policy type, Start date, End date, Premium.',
    );
  });
});

describe('customer and lead imports', () => {
  it('reads a Windows-1252 CSV with semicolons and quoted fields', async () => {
    const agency = await signedInAgency(t.app);
    const text = csv(
      [
        ['Nom', 'Surname', 'Email', 'Tel', 'Address'],
        ['José', 'Müller', 'jose@example.com', '+41 44 123 45 67', 'Bahnhofstraße 1; 2nd floor'],
        ['Zoë', 'Ñúñez', 'zoe@example.com', '', '"Le Moulin", rue 3'],
      ],
      ';',
    ).replace('Nom', 'First name');
    const record = await uploaded(agency, 'customers', iconv.encode(text, 'win1252'));
    expect(record.headers).toEqual(['First name', 'Surname', 'Email', 'Tel', 'Address']);
    expect(record.columns).toEqual(['first_name', 'last_name', 'email', 'phone', 'address_line']);
    expect(await run(agency, record)).toMatchObject({ status: 'done', created: 2 });
    const list = (await agency.as.get('/api/customers/?ordering=name')).json();
    expect(
      list.results.map((row: { display_name: string; address_line: string }) => [
        row.display_name,
        row.address_line,
      ]),
    ).toEqual([
      ['José Müller', 'Bahnhofstraße 1; 2nd floor'],
      ['Zoë Ñúñez', '"Le Moulin", rue 3'],
    ]);
  });

  it('finds customers already in the book by email, phone or id number', async () => {
    const agency = await signedInAgency(t.app);
    await agency.as.post('/api/customers/', {
      first_name: 'Maya',
      last_name: 'Golan',
      phone: '054-222-3333',
      notes: 'VIP',
    });
    await agency.as.post('/api/customers/', {
      first_name: 'Avi',
      last_name: 'Ron',
      national_id: '12345678-9',
    });
    const file = csv([
      ['First name', 'Last name', 'Mobile', 'ID number', 'City'],
      ['Maya', 'Golan', '(054) 2223333', '', 'Haifa'],
      ['Avi', 'Ron', '', '123456789', 'Eilat'],
      ['Noa', 'Bar', '', '', 'Acre'],
    ]);
    const record = await settle(agency, await uploaded(agency, 'customers', file), { duplicates: 'update' });
    expect(await run(agency, record)).toMatchObject({ created: 1, updated: 2, skipped: 0 });
    const maya = (await agency.as.get('/api/customers/?search=Maya')).json().results[0];
    // The file's columns overwrite; what it leaves out stays as it was.
    expect(maya).toMatchObject({ city: 'Haifa', notes: 'VIP', phone: '(054) 2223333' });
  });

  it('reads XLSX, with dates and numbers as the spreadsheet holds them', async () => {
    const agency = await signedInAgency(t.app);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Leads');
    sheet.addRow(['Name', 'Email', 'Lead source', 'Stage', 'Estimated premium']);
    sheet.addRow(['Dana Levi', 'dana@example.com', 'Referral', 'Contacted', 1250.5]);
    sheet.addRow(['Omer Katz', 'omer@example', 'Website', 'New', 300]);
    sheet.addRow(['Tal Gold', 'tal@example.com', 'Walk in', 'Qualified', '']);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const record = await settle(
      agency,
      await uploaded(
        agency,
        'leads',
        bytes,
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      ),
      { all_or_nothing: false },
    );
    expect(record.columns).toEqual(['full_name', 'email', 'source', 'status', 'estimated_premium']);
    expect(await run(agency, record)).toMatchObject({ status: 'done', created: 2, failed: 1 });
    const dana = (await agency.as.get('/api/leads/?search=Dana')).json().results[0];
    expect(dana).toMatchObject({ source: 'referral', status: 'contacted', estimated_premium: '1250.50' });
  });

  it("remembers the agency's column choices for its next file", async () => {
    const agency = await signedInAgency(t.app);
    const first = await uploaded(
      agency,
      'customers',
      csv([
        ['Vorname', 'Nachname'],
        ['Uli', 'Hoeness'],
      ]),
    );
    expect(first.columns).toEqual([null, null]);
    await settle(agency, first, { columns: ['first_name', 'last_name'] });
    const next = await uploaded(
      agency,
      'customers',
      csv([
        ['Nachname', 'Vorname', 'Stadt'],
        ['Kahn', 'Oliver', 'Munich'],
      ]),
    );
    expect(next.columns).toEqual(['last_name', 'first_name', null]);
    const other = await signedInAgency(t.app);
    expect((await uploaded(other, 'customers', csv([['Vorname'], ['Uli']]))).columns).toEqual([null]);
  });

  it('refuses a field chosen for two columns, and unknown fields', async () => {
    const agency = await signedInAgency(t.app);
    const record = await uploaded(
      agency,
      'customers',
      csv([
        ['A', 'B'],
        ['x', 'y'],
      ]),
    );
    const twice = await agency.as.put(`/api/imports/${record.id}/`, { columns: ['email', 'email'] });
    expect(twice.json()).toEqual({ columns: ['Email is chosen for more than one column.'] });
    const unknown = await agency.as.put(`/api/imports/${record.id}/`, { columns: ['salary', null] });
    expect(unknown.json()).toEqual({ columns: ['"salary" is not a field of this import.'] });
  });
});

describe('files', () => {
  it('refuses a file over 50 MB with 413 and a file of more than 200,000 rows with 422', async () => {
    const agency = await signedInAgency(t.app);
    const big = await upload(t.app, agency, 'customers', Buffer.alloc(50 * 1024 * 1024 + 1, 'a'));
    expect(big.statusCode).toBe(413);
    expect(big.json().detail).toBe('The file is larger than 50 MB. Split it into smaller files.');
    const many = await upload(t.app, agency, 'customers', `First name\n${'x\n'.repeat(200_001)}`);
    expect(many.statusCode).toBe(422);
    expect(many.json().detail).toBe(
      'The file has more than 200,000 rows, the most an import takes. Split it into smaller files.',
    );
  });

  it("keeps the shared demo agency's imports small", async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/accounts/login/demo/' });
    const demo = { access: login.json().access_token } as Agency;
    const large = await upload(t.app, demo, 'customers', `First name\n${'Dana\n'.repeat(450_000)}`);
    expect(large.statusCode).toBe(413);
    expect(large.json().detail).toBe(
      'The demo agency imports files of up to 2 MB and 1,000 rows; register to import your whole book.',
    );
    const long = await upload(t.app, demo, 'customers', `First name\n${'Dana\n'.repeat(1_001)}`);
    expect(long.statusCode).toBe(422);
    expect(long.json().detail).toBe(
      'The file has more than 1,000 rows, the most an import takes. Split it into smaller files.',
    );
    expect((await upload(t.app, demo, 'customers', `First name\n${'Dana\n'.repeat(1_000)}`)).statusCode).toBe(
      201,
    );
  });

  it('answers an empty or unreadable file with 400', async () => {
    const agency = await signedInAgency(t.app);
    expect((await upload(t.app, agency, 'customers', 'First name\n')).json().detail).toBe(
      'The file has a header row but no rows to import.',
    );
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]);
    const broken = await upload(t.app, agency, 'customers', zip);
    expect(broken.statusCode).toBe(400);
    expect(broken.json().detail).toMatch(/^The spreadsheet could not be read/);
    expect((await upload(t.app, agency, 'pets', 'a\nb\n')).json()).toEqual({
      kind: ['Choose customers, policies or leads.'],
    });
    // A name the database could not store is refused by the field, not by the database.
    const named = await upload(t.app, agency, 'customers', 'First name\nDana\n', 'book%00.csv');
    expect(named.statusCode).toBe(400);
    expect(named.json()).toEqual({ file_name: ['This text contains a character that cannot be saved.'] });
  });
});

describe('access', () => {
  it("answers another agency's import with 404 on every route", async () => {
    const owner = await signedInAgency(t.app);
    const record = await uploaded(
      owner,
      'customers',
      csv([
        ['First name', 'Last name'],
        ['Dana', 'Levi'],
      ]),
    );
    const stranger = await signedInAgency(t.app);
    for (const call of [
      stranger.as.get(`/api/imports/${record.id}/`),
      stranger.as.put(`/api/imports/${record.id}/`, { columns: record.columns }),
      stranger.as.get(`/api/imports/${record.id}/preview/`),
      stranger.as.post(`/api/imports/${record.id}/start/`),
      stranger.as.get(`/api/imports/${record.id}/failures/`),
    ]) {
      const response = await call;
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Import not found.' });
    }
  });

  it('holds the plan gate: a kind whose module the plan leaves out is refused', async () => {
    const agency = await signedInAgency(t.app);
    const record = await uploaded(
      agency,
      'leads',
      csv([
        ['First name', 'Last name'],
        ['Dana', 'Levi'],
      ]),
    );
    await setSubscription(t, agency.user.tenant_id, { plan: await addPlanWithout(t, 'module_leads') });
    const refused = await upload(t.app, agency, 'leads', csv([['First name'], ['Tal']]));
    expect(refused.statusCode).toBe(403);
    expect((await agency.as.get(`/api/imports/${record.id}/`)).statusCode).toBe(403);
    expect((await agency.as.post(`/api/imports/${record.id}/start/`)).statusCode).toBe(403);
    expect(
      (
        await upload(
          t.app,
          agency,
          'customers',
          csv([
            ['First name', 'Last name'],
            ['Tal', 'Gold'],
          ]),
        )
      ).statusCode,
    ).toBe(201);
    await setSubscription(t, agency.user.tenant_id, { status: 'expired' });
    expect((await upload(t.app, agency, 'customers', csv([['First name'], ['Tal']]))).statusCode).toBe(402);
  });

  it('refuses a caller who is not signed in before reading the file', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/imports/?kind=customers',
      headers: { 'content-type': 'text/csv' },
      payload: 'First name\nDana\n',
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('an import interrupted part way', () => {
  it('leaves nothing half-written and finishes after a restart with the right counts', async () => {
    const first = await createTestApp();
    try {
      const agency = await signedInAgency(first.app);
      const rows = Array.from({ length: 40 }, (_, i) => policyRow(i));
      const response = await upload(first.app, agency, 'policies', csv([POLICY_HEADER, ...rows]));
      const record = response.json() as ImportRecord;
      // The first server stops taking jobs; a worker takes this one and dies: its transaction had
      // written some of the rows when its connection went away.
      await first.app.close();
      const tenantId = agency.user.tenant_id;
      await withTenant(first.database.db, tenantId, (tx) =>
        tx
          .update(imports)
          .set({ status: 'running', startedBy: agency.user.id })
          .where(eq(imports.id, record.id)),
      );
      const deadWorker = new JobQueue(first.database.pool, { supervise: false });
      await deadWorker.boss.start();
      await deadWorker.boss.send('import', { tenantId, importId: record.id });
      const [taken] = await deadWorker.boss.fetch('import');
      expect(taken).toBeDefined();
      const client = await first.database.pool.connect();
      await client.query('begin');
      await client.query(`select set_config('app.tenant_id', $1, true)`, [tenantId]);
      await client.query(
        `insert into customers (id, tenant_id, first_name, last_name) values (gen_random_uuid(), $1, 'Half', 'Written')`,
        [tenantId],
      );
      // PostgreSQL rolls back the transaction of a connection that goes away with its process.
      await client.query('rollback');
      client.release();
      await deadWorker.stop({ graceful: false, wait: true });
      expect(await withTenant(first.database.db, tenantId, (tx) => tx.select().from(customers))).toEqual([]);

      // A new server on the same database finds the job it left and runs the import to the end.
      const second = await buildApp(first.config, first.database, first.files);
      try {
        await second.ready();
        const done = await waitForImport(agency, record.id, second);
        expect(done).toMatchObject({ status: 'done', created: 40, failed: 0 });
        const written = await withTenant(first.database.db, tenantId, async (tx) => ({
          policies: (await tx.select().from(policies)).length,
          customers: (await tx.select().from(customers)).length,
          installments: (await tx.select().from(installments)).length,
        }));
        expect(written).toEqual({ policies: 40, customers: 3, installments: 20 * 4 + 20 });
      } finally {
        await second.close();
      }
    } finally {
      await first.database.close();
    }
  });
});

interface Instalment {
  due_date: string;
  amount_due: string;
  amount_paid: string;
  paid_date: string | null;
  payment_method: string | null;
  reference: string;
  status: string;
  is_overdue: boolean;
}

/** The day `months` from today (before it when negative), on the 1st so every month has it. */
function monthsFromNow(months: number) {
  const now = new Date();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1));
  return day.toISOString().slice(0, 10);
}
const dayBefore = (iso: string) => new Date(Date.parse(iso) - 86_400_000).toISOString().slice(0, 10);

const preview = async (agency: Agency, record: ImportRecord) => {
  const response = await agency.as.get(`/api/imports/${record.id}/preview/`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ImportPreview;
};

/** Runs the import to the end, expecting it done with `failed` rows left out. */
async function imported(agency: Agency, record: ImportRecord, failed = 0) {
  const done = await run(agency, record);
  expect(done).toMatchObject({ status: 'done', failed });
  return done;
}

/** The policy numbered `number` with its instalments, as the policy page reads them. */
async function policyNumbered(agency: Agency, number: string) {
  const policy = (await agency.as.get(`/api/policies/?search=${number}`)).json().results[0];
  const detail = (await agency.as.get(`/api/policies/${policy.id}/`)).json();
  const instalments = (await agency.as.get(`/api/policies/${policy.id}/installments/`)).json()
    .results as Instalment[];
  return { detail, instalments };
}

const overdue = async (agency: Agency) =>
  (await agency.as.get('/api/installments/?status=overdue&page_size=100')).json().count as number;

const PAID_HEADER = [
  'Policy No',
  'Insurer',
  'Type',
  'Client',
  'Start',
  'End',
  'Premium',
  'Commission',
  'Frequency',
];

/** A quarterly policy of 1,200.00 at 10% that started `startedMonthsAgo` months ago and runs a year. */
function quarterly(number: string, startedMonthsAgo: number, extra: string[] = []) {
  const start = monthsFromNow(-startedMonthsAgo);
  return [
    number,
    'Harel',
    'Motor',
    `Client ${number}`,
    start,
    dayBefore(monthsFromNow(12 - startedMonthsAgo)),
    '1200',
    '10',
    'Quarterly',
    ...extra,
  ];
}

describe('what an imported book has already paid', () => {
  it('takes a paid-up date column: the instalments due by then are payments recorded by the import', async () => {
    const agency = await signedInAgency(t.app);
    // Started seven months ago: instalments due 7, 4 and 1 months ago and in 2 months.
    const record = await uploaded(
      agency,
      'policies',
      csv([
        [...PAID_HEADER, 'Paid until'],
        quarterly('PU-1', 7, [monthsFromNow(-4)]),
        quarterly('PU-2', 7, ['']),
      ]),
    );
    expect(record.columns.at(-1)).toBe('paid_up_to');
    const plan = await preview(agency, record);
    // Only the row that says nothing is asked about.
    expect(plan.past_due).toEqual({ policies: 1, instalments: 3, amount: '900.00', expired_policies: 0 });
    await imported(agency, record);

    const { detail, instalments } = await policyNumbered(agency, 'PU-1');
    expect(instalments.map((row) => [row.status, row.amount_paid, row.paid_date])).toEqual([
      ['paid', '300.00', monthsFromNow(-7)],
      ['paid', '300.00', monthsFromNow(-4)],
      ['pending', '0.00', null],
      ['pending', '0.00', null],
    ]);
    expect(instalments[0]).toMatchObject({
      payment_method: 'other',
      reference: 'Recorded by the import of book.csv',
    });
    // The file said the third is not paid: it is owed, and overdue.
    expect(instalments[2]?.is_overdue).toBe(true);
    // Under the insurer's full-policy payout nothing is received until the whole premium is in.
    expect(detail).toMatchObject({
      amount_paid: '600.00',
      installments_paid: 2,
      received_commission: '0.00',
    });
    // The row without a date took the default: everything due before today paid.
    const other = await policyNumbered(agency, 'PU-2');
    expect(other.instalments.map((row) => row.status)).toEqual(['paid', 'paid', 'paid', 'pending']);
    expect(await overdue(agency)).toBe(1);
    const { kept, afresh } = await keptAndAfresh(t.database.db, agency.user.tenant_id);
    expect(kept).toEqual(afresh);
  });

  it('takes a paid amount column, paying instalments in due order and leaving the last one reached part paid', async () => {
    const agency = await signedInAgency(t.app);
    const record = await uploaded(
      agency,
      'policies',
      csv([
        [...PAID_HEADER, 'Amount paid'],
        quarterly('PA-1', 7, ['450.00']),
        quarterly('PA-2', 1, ['1500']),
      ]),
    );
    expect(record.columns.at(-1)).toBe('amount_paid');
    const plan = await preview(agency, record);
    expect(plan).toMatchObject({ create: 1, fail: 1 });
    expect(plan.failed_rows[0]?.errors).toEqual({ amount_paid: ['More than the premium of 1200.00.'] });
    await imported(agency, await settle(agency, record, { all_or_nothing: false }), 1);

    const { detail, instalments } = await policyNumbered(agency, 'PA-1');
    expect(instalments.map((row) => [row.status, row.amount_paid])).toEqual([
      ['paid', '300.00'],
      ['partially_paid', '150.00'],
      ['pending', '0.00'],
      ['pending', '0.00'],
    ]);
    expect(detail).toMatchObject({ amount_paid: '450.00', installments_paid: 1 });
    // The rest of the part-paid one is paid as any part payment is.
    const second = (await agency.as.get(`/api/policies/${detail.id}/installments/`)).json().results[1];
    const payment = await agency.as.post(`/api/installments/${second.id}/payment/`, {
      payment_method: 'cash',
    });
    expect(payment.statusCode, payment.body).toBe(200);
    expect(payment.json()).toMatchObject({ status: 'paid', amount_paid: '300.00' });
  });

  it('marks instalments due before today paid by default, and leaves them unpaid when the broker says so, but never an ended policy unless asked', async () => {
    const agency = await signedInAgency(t.app);
    const rows = [PAID_HEADER, quarterly('D-1', 7), quarterly('D-ENDED', 20)];
    const asked = await uploaded(agency, 'policies', csv(rows));
    expect(asked.past_instalments).toBe('paid');
    const plan = await preview(agency, asked);
    expect(plan.past_due).toEqual({ policies: 2, instalments: 7, amount: '2100.00', expired_policies: 1 });
    await imported(agency, asked);
    expect((await policyNumbered(agency, 'D-1')).instalments.map((row) => row.status)).toEqual([
      'paid',
      'paid',
      'paid',
      'pending',
    ]);
    const ended = await policyNumbered(agency, 'D-ENDED');
    expect(ended.instalments.every((row) => row.status === 'paid')).toBe(true);
    // Paid in full by the import's payments, it has earned its whole commission.
    expect(ended.detail).toMatchObject({ amount_paid: '1200.00', received_commission: '120.00' });
    expect(ended.instalments[0]?.paid_date).toBe(ended.instalments[0]?.due_date);
    expect(await overdue(agency)).toBe(0);

    // Another agency leaves them unpaid: the running policy's past instalments are owed, the ended one's not.
    const other = await signedInAgency(t.app);
    const unpaid = await settle(other, await uploaded(other, 'policies', csv(rows)), {
      past_instalments: 'unpaid',
    });
    await imported(other, unpaid);
    expect((await policyNumbered(other, 'D-1')).instalments.map((row) => row.is_overdue)).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect((await policyNumbered(other, 'D-ENDED')).instalments.every((row) => row.status === 'paid')).toBe(
      true,
    );
    expect(await overdue(other)).toBe(3);

    // Only when the broker says so too does an ended policy stay unpaid.
    const third = await signedInAgency(t.app);
    await imported(
      third,
      await settle(third, await uploaded(third, 'policies', csv(rows)), {
        past_instalments: 'unpaid',
        expired_unpaid: true,
      }),
    );
    expect(await overdue(third)).toBe(7);
  }, 120_000);

  it('refuses a row giving both a paid-up date and a paid amount, and a paid-up date it cannot read', async () => {
    const agency = await signedInAgency(t.app);
    const record = await uploaded(
      agency,
      'policies',
      csv([
        [...PAID_HEADER, 'Paid up to', 'Paid amount'],
        quarterly('B-1', 7, [monthsFromNow(-4), '300']),
        quarterly('B-2', 7, ['soon', '']),
      ]),
    );
    const plan = await preview(agency, record);
    expect(plan.failed_rows.map((row) => row.errors)).toEqual([
      { row: ['Give a paid-up date or a paid amount, not both.'] },
      { paid_up_to: ['Enter a valid date (YYYY-MM-DD).'] },
    ]);
  });
});

describe('the check step', () => {
  it('says how many new records fit the plan before anything starts', async () => {
    const agency = await signedInAgency(t.app);
    await setSubscription(t, agency.user.tenant_id, { plan: await addPlanWithout(t, 'module_claims') });
    const rows = Array.from({ length: 12 }, (_, i) => {
      const row = quarterly(`L-${i}`, 1);
      row[3] = 'Dana Levi';
      return row;
    });
    const plan = await preview(agency, await uploaded(agency, 'policies', csv([PAID_HEADER, ...rows])));
    expect(plan.over_limit).toEqual([
      {
        metric: 'policies',
        adding: 12,
        fit: 10,
        detail:
          'Your Test plan allows up to 10 policies; Starter allows 100. The agency has 0, so 10 of the 12 new policies in this file fit. Upgrade your plan on the Billing page to add more.',
      },
    ]);
    const fits = await preview(
      agency,
      await uploaded(agency, 'policies', csv([PAID_HEADER, ...rows.slice(0, 3)])),
    );
    expect(fits.over_limit).toEqual([]);
  });

  it('flags a new insurer whose policies would earn nothing, and not one the file gives a rate', async () => {
    const agency = await signedInAgency(t.app);
    const row = (number: string, insurer: string, rate: string) => {
      const cells = quarterly(number, 1);
      cells[1] = insurer;
      cells[7] = rate;
      return cells;
    };
    const plan = await preview(
      agency,
      await uploaded(
        agency,
        'policies',
        csv([PAID_HEADER, row('N-1', 'Oakline', ''), row('N-2', 'Oakline', ''), row('N-3', 'Harel', '12.5')]),
      ),
    );
    expect(plan.new_insurers).toEqual([{ name: 'Oakline', policies: 2 }]);
  });
});

describe('words a file uses', () => {
  it("reads the forms' own labels in any case, and maps Email, Phone and Payment columns without asking", async () => {
    const agency = await signedInAgency(t.app);
    const header = [
      'Policy No',
      'Insurer',
      'Type',
      'Client',
      'Email',
      'Phone',
      'Start',
      'End',
      'Premium',
      'Payment',
    ];
    const row = (number: string, payment: string) => [
      number,
      'Harel',
      'Motor',
      `Client ${number}`,
      `${number.toLowerCase()}@example.com`,
      '050-1234567',
      monthsFromNow(1),
      dayBefore(monthsFromNow(13)),
      '1200',
      payment,
    ];
    const record = await uploaded(
      agency,
      'policies',
      csv([header, row('W-1', 'Single payment'), row('W-2', 'SEMI-ANNUAL'), row('W-3', 'monthly')]),
    );
    expect(record.columns).toEqual([
      'policy_number',
      'company',
      'policy_type',
      'customer_full_name',
      'customer_email',
      'customer_phone',
      'start_date',
      'end_date',
      'total_premium',
      'payment_frequency',
    ]);
    await imported(agency, record);
    const list = (await agency.as.get('/api/policies/?ordering=policy_number')).json();
    expect(list.results.map((policy: { payment_frequency: string }) => policy.payment_frequency)).toEqual([
      'single',
      'semi_annual',
      'monthly',
    ]);

    const leads = await uploaded(
      agency,
      'leads',
      csv([
        ['Name', 'E-mail', 'Source', 'Status'],
        ['Rina Bar', 'rina@example.com', 'Social media', 'QUOTED'],
        ['Omer Tal', 'omer@example.com', 'walk-in', 'Contacted'],
      ]),
    );
    await imported(agency, leads);
    const stored = (await agency.as.get('/api/leads/')).json().results as {
      email: string;
      source: string;
      status: string;
    }[];
    expect(Object.fromEntries(stored.map((lead) => [lead.email, [lead.source, lead.status]]))).toEqual({
      'rina@example.com': ['social', 'quoted'],
      'omer@example.com': ['walk_in', 'contacted'],
    });

    const people = await uploaded(
      agency,
      'customers',
      csv([
        ['Name', 'Type', 'Business name'],
        ['Avi Ron', 'INDIVIDUAL', ''],
        ['Ron Ltd', 'Business', 'Ron Ltd'],
      ]),
    );
    expect((await preview(agency, people)).create).toBe(2);
  });
});

describe('the date order of a file', () => {
  const header = [
    'Policy Number',
    'Carrier',
    'Line of Business',
    'Insured Name',
    'Effective',
    'Expiration',
    'Written Premium',
    'Comm %',
    'Comm Amt',
  ];
  const row = (number: string, start: string, end: string) => [
    number,
    'Travelers',
    'Commercial auto',
    `Insured ${number}`,
    start,
    end,
    '1,200.00',
    '12.5',
    '150.00',
  ];
  const startOf = async (agency: Agency, number: string) =>
    (await policyNumbered(agency, number)).detail.start_date as string;

  it('maps a US agency management export without asking', async () => {
    const agency = await signedInAgency(t.app);
    const record = await uploaded(agency, 'policies', csv([header, row('US-1', '2026-05-01', '2027-04-30')]));
    expect(record.columns).toEqual([
      'policy_number',
      'company',
      'policy_type',
      'customer_full_name',
      'start_date',
      'end_date',
      'total_premium',
      'commission_percentage',
      null,
    ]);
    // ISO dates need no order: nothing to ask.
    expect(record.date_hints.every((hint) => hint === null)).toBe(true);
    await imported(agency, record);
    expect((await policyNumbered(agency, 'US-1')).detail).toMatchObject({
      start_date: '2026-05-01',
      commission_percentage: '12.50',
    });
  });

  it('reads month first from a second number over 12, in any row of a date column', async () => {
    const agency = await signedInAgency(t.app);
    const record = await uploaded(
      agency,
      'policies',
      csv([header, row('US-2', '05/01/2026', '04/30/2027'), row('US-3', '06/01/2026', '05/31/2027')]),
    );
    expect(record.date_hints[4]).toEqual({ reads: 'either', example: '05/01/2026' });
    expect(record.date_hints[5]).toEqual({ reads: 'month_first', example: '04/30/2027' });
    expect(record.date_order).toBeNull();
    const checked = await preview(agency, record);
    expect(checked).toMatchObject({ create: 2, fail: 0 });
    await imported(agency, record);
    // May 1st, never 5 January.
    expect(await startOf(agency, 'US-2')).toBe('2026-05-01');
    expect((await policyNumbered(agency, 'US-3')).detail.end_date).toBe('2027-05-31');
  });

  it('refuses a file whose dates all fit both orders until one is chosen, and reads day first from a first number over 12', async () => {
    const agency = await signedInAgency(t.app);
    const record = await uploaded(agency, 'policies', csv([header, row('EU-1', '05/01/2026', '04/01/2027')]));
    expect(record.date_order).toBeNull();
    // Every date fits both orders: the file cannot tell, and the dry run asks.
    const refused = await agency.as.get(`/api/imports/${record.id}/preview/`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().date_order).toEqual([
      'The dates in the columns "Effective" and "Expiration" could be day first or month first (05/01/2026 fits both): choose the date order on the Columns step.',
    ]);
    // Nor can it start.
    const start = await agency.as.post(`/api/imports/${record.id}/start/`);
    expect(start.statusCode).toBe(400);
    expect(await count(agency.user.tenant_id, policies)).toBe(0);

    const other = await uploaded(agency, 'policies', csv([header, row('EU-2', '13/01/2026', '12/01/2027')]));
    expect(other.date_hints[4]?.reads).toBe('day_first');
    await imported(agency, other);
    expect(await startOf(agency, 'EU-2')).toBe('2026-01-13');
  });

  it('reads the order the broker confirmed for a file that cannot tell, and theirs over the file', async () => {
    const agency = await signedInAgency(t.app);
    const record = await uploaded(agency, 'policies', csv([header, row('AM-1', '05/01/2026', '04/01/2027')]));
    const confirmed = await settle(agency, record, { date_order: 'month_first' });
    expect(confirmed.date_order).toBe('month_first');
    expect(await preview(agency, confirmed)).toMatchObject({ create: 1, fail: 0 });
    await imported(agency, confirmed);
    expect(await startOf(agency, 'AM-1')).toBe('2026-05-01');

    // A file that says month first, read day first because the broker said so: its US dates fail.
    const told = await uploaded(agency, 'policies', csv([header, row('AM-2', '05/01/2026', '04/30/2027')]));
    const overruled = await settle(agency, told, { date_order: 'day_first' });
    const checked = await preview(agency, overruled);
    expect(checked.fail).toBe(1);
    expect(Object.keys(checked.failed_rows[0]?.errors ?? {})).toEqual(['end_date']);
  });

  it('asks again when a column has dates of both orders, naming it', async () => {
    const agency = await signedInAgency(t.app);
    const record = await uploaded(
      agency,
      'customers',
      csv([
        ['Name', 'Date of birth'],
        ['Avi Ron', '13/02/1980'],
        ['Dana Levi', '02/13/1981'],
      ]),
    );
    expect(record.date_hints[1]?.reads).toBe('mixed');
    const refused = await agency.as.get(`/api/imports/${record.id}/preview/`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().date_order[0]).toMatch(/^The dates in the column "Date of birth" are written both/);
    const chosen = await settle(agency, record, { date_order: 'day_first' });
    const checked = await preview(agency, chosen);
    expect(checked).toMatchObject({ create: 1, fail: 1 });
    expect(checked.failed_rows[0]?.row).toBe(3);
  });

  it('leaves out of the question a column of dates not chosen as one', async () => {
    const agency = await signedInAgency(t.app);
    const record = await uploaded(
      agency,
      'customers',
      csv([
        ['Name', 'Notes'],
        ['Avi Ron', '05/01/2026'],
      ]),
    );
    expect(record.date_hints[1]?.reads).toBe('either');
    expect((await preview(agency, record)).create).toBe(1);
  });
});
