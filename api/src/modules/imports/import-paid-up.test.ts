import type { ImportPreview, ImportRecord } from '@coverdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptAndAfresh } from '../../../test/kept-totals.js';
import {
  addPlanWithout,
  bearer,
  createTestApp,
  setSubscription,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Agency = Awaited<ReturnType<typeof signedInAgency>>;
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

const csv = (rows: string[][]) => `${rows.map((row) => row.join(',')).join('\r\n')}\r\n`;

/** The day `months` from today (before it when negative), on the 1st so every month has it. */
function monthsFromNow(months: number) {
  const now = new Date();
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1));
  return day.toISOString().slice(0, 10);
}
const dayBefore = (iso: string) => new Date(Date.parse(iso) - 86_400_000).toISOString().slice(0, 10);

async function uploaded(agency: Agency, kind: string, body: string, fileName = 'book.csv') {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/imports/?kind=${kind}&file_name=${fileName}`,
    headers: { ...bearer(agency.access), 'content-type': 'text/csv' },
    payload: Buffer.from(body),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as ImportRecord;
}

async function settle(agency: Agency, record: ImportRecord, settings: Record<string, unknown> = {}) {
  const response = await agency.as.put(`/api/imports/${record.id}/`, {
    columns: record.columns,
    ...settings,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ImportRecord;
}

const preview = async (agency: Agency, record: ImportRecord) => {
  const response = await agency.as.get(`/api/imports/${record.id}/preview/`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ImportPreview;
};

async function run(agency: Agency, record: ImportRecord, failed = 0) {
  const started = await agency.as.post(`/api/imports/${record.id}/start/`);
  expect(started.statusCode, started.body).toBe(202);
  for (let attempt = 0; attempt < 200; attempt++) {
    const found = (await agency.as.get(`/api/imports/${record.id}/`)).json() as ImportRecord;
    if (found.status === 'done' || found.status === 'failed') {
      expect(found).toMatchObject({ status: 'done', failed });
      return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the import did not finish');
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

const HEADER = [
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
      csv([[...HEADER, 'Paid until'], quarterly('PU-1', 7, [monthsFromNow(-4)]), quarterly('PU-2', 7, [''])]),
    );
    expect(record.columns.at(-1)).toBe('paid_up_to');
    const plan = await preview(agency, record);
    // Only the row that says nothing is asked about.
    expect(plan.past_due).toEqual({ policies: 1, instalments: 3, amount: '900.00', expired_policies: 0 });
    await run(agency, record);

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
      csv([[...HEADER, 'Amount paid'], quarterly('PA-1', 7, ['"450.00"']), quarterly('PA-2', 1, ['1500'])]),
    );
    expect(record.columns.at(-1)).toBe('amount_paid');
    const plan = await preview(agency, record);
    expect(plan).toMatchObject({ create: 1, fail: 1 });
    expect(plan.failed_rows[0]?.errors).toEqual({ amount_paid: ['More than the premium of 1200.00.'] });
    await run(agency, await settle(agency, record, { all_or_nothing: false }), 1);

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
    const rows = [HEADER, quarterly('D-1', 7), quarterly('D-ENDED', 20)];
    const asked = await uploaded(agency, 'policies', csv(rows));
    expect(asked.past_instalments).toBe('paid');
    const plan = await preview(agency, asked);
    expect(plan.past_due).toEqual({ policies: 2, instalments: 7, amount: '2100.00', expired_policies: 1 });
    await run(agency, asked);
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
    await run(other, unpaid);
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
    await run(
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
        [...HEADER, 'Paid up to', 'Paid amount'],
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
    const plan = await preview(agency, await uploaded(agency, 'policies', csv([HEADER, ...rows])));
    expect(plan.over_limit).toEqual([
      {
        metric: 'policies',
        adding: 12,
        fit: 10,
        detail:
          'Your Test plan allows up to 10 policies. The agency has 0, so 10 of the 12 new policies in this file fit. Upgrade your plan on the Billing page to add more.',
      },
    ]);
    const fits = await preview(
      agency,
      await uploaded(agency, 'policies', csv([HEADER, ...rows.slice(0, 3)])),
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
        csv([HEADER, row('N-1', 'Oakline', ''), row('N-2', 'Oakline', ''), row('N-3', 'Harel', '12.5')]),
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
    await run(agency, record);
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
    await run(agency, leads);
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
