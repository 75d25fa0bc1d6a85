import { type CommissionReport, commissionReport } from '@coverdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addPlanWithout,
  createTestApp,
  databaseCalendar,
  setSubscription,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';

let t: TestApp;
/** The date `days` from today (negative for the past). */
let day: (days: number) => string;
beforeAll(async () => {
  t = await createTestApp();
  ({ day } = await databaseCalendar(t));
});
afterAll(() => t.close());

type Agency = Awaited<ReturnType<typeof signedInAgency>>;
type Caller = Agency['as'];

async function ok<Body = Record<string, unknown> & { id: string }>(
  response: Promise<{ statusCode: number; body: string }>,
  status = 200,
): Promise<Body> {
  const answer = await response;
  expect(answer.statusCode, answer.body).toBe(status);
  return JSON.parse(answer.body) as Body;
}

/** The report as the API answers it, checked against the contract on the way. */
async function report(as: Caller, query = ''): Promise<CommissionReport> {
  return commissionReport.parse(await ok(as.get(`/api/policies/commission_batch/?${query}`)));
}

/** Pays the policy's instalment number `sequence` (1-based), in full or `amount` of it. */
async function pay(as: Caller, policyId: string, sequence: number, amount?: string) {
  const { results } = await ok<{ results: { id: string; sequence: number }[] }>(
    as.get(`/api/policies/${policyId}/installments/`),
  );
  const instalment = results.find((row) => row.sequence === sequence);
  if (!instalment) throw new Error(`no instalment ${sequence}`);
  await ok(
    as.post(`/api/installments/${instalment.id}/payment/`, {
      payment_method: 'bank_transfer',
      ...(amount ? { amount } : {}),
    }),
  );
}

/**
 * The worked example: Harel pays commission once a policy is paid in full (full_policy), Migdal
 * pro rata to what the customer paid. Every figure below is worked out by hand from these terms.
 *
 * - HA-1 Harel Motor 12.5%, Dana Levi, net 1000.00 of 1200.00, quarterly (4 x 300.00) from 100 days
 *   ago: the first paid, the second (due about 9 days ago) not: Overdue. Expected 125.00, received
 *   0.00 (not paid in full).
 * - HA-2 Harel Home 10%, Avi Cohen, 500.00 in one payment, paid: Paid. Expected 50.00, received 50.00.
 * - MI-3 Migdal Motor 15%, Noa Bar, net 777.77 of 1200.00, monthly (12 x 100.00) from 10 days ago:
 *   the first paid and 30.00 of the second (due in about 20 days): Partial. Expected
 *   777.77 x 15% = 116.6655 -> 116.67; received 116.67 x 130 / 1200 = 12.63925 -> 12.64.
 * - MI-4 Migdal Motor 15%, Dana Levi, 800.00 in one payment from 60 days ago, paid, cancelled 5 days
 *   ago: 55 days of its 365 covered earn 800.00 x 55 / 365 = 120.55 of the premium, so 120.00 x
 *   120.55 / 800.00 = 18.0825 -> 18.08 expected, all of it received (the earned premium is paid): Paid.
 * - MI-5 Migdal Motor 15%, Avi Cohen, 300.00 in one payment starting in 30 days: Pending. Expected
 *   45.00, received 0.00.
 */
async function workedExample() {
  const agency = await signedInAgency(t.app);
  const { as } = agency;
  const motor = await ok(as.post('/api/policy-types/', { name: 'Motor', category: 'auto' }), 201);
  const home = await ok(as.post('/api/policy-types/', { name: 'Home', category: 'home' }), 201);
  const harel = await ok(
    as.post('/api/companies/', {
      name: 'Harel',
      commission_payment_method: 'full_policy',
      policy_types: [
        { policy_type_id: motor.id, commission_percentage: '12.5' },
        { policy_type_id: home.id, commission_percentage: '10' },
      ],
    }),
    201,
  );
  const migdal = await ok(
    as.post('/api/companies/', {
      name: 'Migdal',
      commission_payment_method: 'pro_rata',
      policy_types: [{ policy_type_id: motor.id, commission_percentage: '15' }],
    }),
    201,
  );
  const customer = (first_name: string, last_name: string) =>
    ok(as.post('/api/customers/', { first_name, last_name }), 201);
  const dana = await customer('Dana', 'Levi');
  const avi = await customer('Avi', 'Cohen');
  const noa = await customer('Noa', 'Bar');
  const policy = (body: Record<string, unknown>) => ok(as.post('/api/policies/', body), 201);

  const ha1 = await policy({
    policy_number: 'HA-1',
    customer_id: dana.id,
    company_id: harel.id,
    policy_type_id: motor.id,
    start_date: day(-100),
    end_date: day(264),
    total_premium: '1200.00',
    net_premium: '1000.00',
    payment_frequency: 'quarterly',
  });
  await pay(as, ha1.id, 1);
  const ha2 = await policy({
    policy_number: 'HA-2',
    customer_id: avi.id,
    company_id: harel.id,
    policy_type_id: home.id,
    start_date: day(-30),
    end_date: day(334),
    total_premium: '500.00',
  });
  await pay(as, ha2.id, 1);
  const mi3 = await policy({
    policy_number: 'MI-3',
    customer_id: noa.id,
    company_id: migdal.id,
    policy_type_id: motor.id,
    start_date: day(-10),
    end_date: day(354),
    total_premium: '1200.00',
    net_premium: '777.77',
    payment_frequency: 'monthly',
  });
  await pay(as, mi3.id, 1);
  await pay(as, mi3.id, 2, '30.00');
  const mi4 = await policy({
    policy_number: 'MI-4',
    customer_id: dana.id,
    company_id: migdal.id,
    policy_type_id: motor.id,
    start_date: day(-60),
    end_date: day(304),
    total_premium: '800.00',
  });
  await pay(as, mi4.id, 1);
  await ok(as.post(`/api/policies/${mi4.id}/cancel/`, { cancelled_at: day(-5), reason: 'Car sold' }));
  const mi5 = await policy({
    policy_number: 'MI-5',
    customer_id: avi.id,
    company_id: migdal.id,
    policy_type_id: motor.id,
    start_date: day(30),
    end_date: day(394),
    total_premium: '300.00',
  });
  return { ...agency, ids: { ha1, ha2, mi3, mi4, mi5, harel, migdal, motor, home, dana } };
}

let example: Awaited<ReturnType<typeof workedExample>>;
beforeAll(async () => {
  example = await workedExample();
});

const numbers = (body: CommissionReport) => body.commission_data.map((row) => row.policy_number);

describe('the commission report, worked by hand', () => {
  it('has every row figure to the cent', async () => {
    const body = await report(example.as, 'ordering=policy_number');
    const { ids } = example;
    expect(body.commission_data).toEqual([
      expect.objectContaining({
        policy_id: ids.ha1.id,
        policy_number: 'HA-1',
        customer_name: 'Dana Levi',
        company_name: 'Harel',
        company_commission_type: 'percentage',
        commission_payment_method: 'full_policy',
        policy_type_name: 'Motor',
        status: 'active',
        start_date: day(-100),
        end_date: day(264),
        total_premium: '1200.00',
        net_premium: '1000.00',
        commission_percentage: '12.50',
        expected_commission: '125.00',
        received_commission: '0.00',
        outstanding_commission: '125.00',
        received_commission_percentage: '0.00',
        payment_status: 'Overdue',
        installments_paid: 1,
        total_installments: 4,
        amount_paid: '300.00',
      }),
      expect.objectContaining({
        policy_number: 'HA-2',
        customer_name: 'Avi Cohen',
        company_name: 'Harel',
        policy_type_name: 'Home',
        total_premium: '500.00',
        net_premium: '500.00',
        commission_percentage: '10.00',
        expected_commission: '50.00',
        received_commission: '50.00',
        outstanding_commission: '0.00',
        received_commission_percentage: '100.00',
        payment_status: 'Paid',
        installments_paid: 1,
        total_installments: 1,
        amount_paid: '500.00',
      }),
      expect.objectContaining({
        policy_number: 'MI-3',
        customer_name: 'Noa Bar',
        company_name: 'Migdal',
        commission_payment_method: 'pro_rata',
        total_premium: '1200.00',
        net_premium: '777.77',
        commission_percentage: '15.00',
        expected_commission: '116.67',
        received_commission: '12.64',
        outstanding_commission: '104.03',
        received_commission_percentage: '10.83',
        payment_status: 'Partial',
        installments_paid: 1,
        total_installments: 12,
        amount_paid: '130.00',
      }),
      expect.objectContaining({
        policy_number: 'MI-4',
        status: 'cancelled',
        total_premium: '800.00',
        expected_commission: '18.08',
        received_commission: '18.08',
        outstanding_commission: '0.00',
        received_commission_percentage: '100.00',
        payment_status: 'Paid',
        installments_paid: 1,
        total_installments: 1,
        amount_paid: '800.00',
      }),
      expect.objectContaining({
        policy_number: 'MI-5',
        status: 'pending',
        expected_commission: '45.00',
        received_commission: '0.00',
        outstanding_commission: '45.00',
        payment_status: 'Pending',
        installments_paid: 0,
        total_installments: 1,
        amount_paid: '0.00',
      }),
    ]);
  });

  it('sums every policy, a cancelled one with what it earned, for the agency and each insurer', async () => {
    const body = await report(example.as);
    expect(body.summary).toEqual({
      total_policies: 5,
      total_premium: '4000.00',
      total_commission: '354.75',
      total_expected_commission: '354.75',
      total_received_commission: '80.72',
      total_paid: '1730.00',
      total_pending: '2270.00',
      total_earned: '80.72',
      outstanding_commission: '274.03',
      // 80.72 / 354.75 = 22.7541%
      commission_received_percentage: '22.75',
      // 354.75 / (1000.00 + 500.00 + 777.77 + 800.00 + 300.00) = 10.5025%
      average_commission_percentage: '10.50',
    });
    expect(body.company_summary).toEqual([
      {
        company_id: example.ids.harel.id,
        company_name: 'Harel',
        company_commission_type: 'percentage',
        commission_payment_method: 'full_policy',
        total_policies: 2,
        total_premium: '1700.00',
        total_expected_commission: '175.00',
        total_received_commission: '50.00',
        outstanding_commission: '125.00',
        // 50 / 175 = 28.5714%
        commission_received_percentage: '28.57',
      },
      {
        company_id: example.ids.migdal.id,
        company_name: 'Migdal',
        company_commission_type: 'percentage',
        commission_payment_method: 'pro_rata',
        total_policies: 3,
        total_premium: '2300.00',
        total_expected_commission: '179.75',
        total_received_commission: '30.72',
        outstanding_commission: '149.03',
        // 30.72 / 179.75 = 17.0904%
        commission_received_percentage: '17.09',
      },
    ]);
    expect(body.pagination).toEqual({
      page: 1,
      page_size: 20,
      total_items: 5,
      total_pages: 1,
      has_next: false,
      has_previous: false,
    });
  });

  it('agrees with the policy pages and the policy totals to the cent', async () => {
    const { as } = example;
    const body = await report(as, 'page_size=100');
    for (const row of body.commission_data) {
      const policy = await ok<Record<string, unknown>>(as.get(`/api/policies/${row.policy_id}/`));
      expect(row).toMatchObject({
        expected_commission: policy.expected_commission,
        received_commission: policy.received_commission,
        amount_paid: policy.amount_paid,
        installments_paid: policy.installments_paid,
        total_installments: policy.total_installments,
        status: policy.status,
      });
    }
    const stats = await ok<Record<string, string>>(as.get('/api/policies/stats/'));
    expect([stats.expected_commission, stats.received_commission]).toEqual([
      body.summary.total_expected_commission,
      body.summary.total_received_commission,
    ]);
  });
});

describe('the filters', () => {
  const matching = async (query: string) =>
    numbers(await report(example.as, `ordering=policy_number&${query}`));

  it('keep the policies whose term overlaps the period, bounds included', async () => {
    // HA-1 runs to day 264, HA-2 from day -30, MI-3 from -10, MI-4 from -60 to 304, MI-5 from 30.
    expect(await matching(`start_date=${day(264)}`)).toEqual(['HA-1', 'HA-2', 'MI-3', 'MI-4', 'MI-5']);
    expect(await matching(`start_date=${day(265)}`)).toEqual(['HA-2', 'MI-3', 'MI-4', 'MI-5']);
    expect(await matching(`end_date=${day(-31)}`)).toEqual(['HA-1', 'MI-4']);
    expect(await matching(`end_date=${day(-30)}`)).toEqual(['HA-1', 'HA-2', 'MI-4']);
    expect(await matching(`start_date=${day(0)}&end_date=${day(29)}`)).toEqual([
      'HA-1',
      'HA-2',
      'MI-3',
      'MI-4',
    ]);
    expect(await matching(`start_date=${day(0)}&end_date=${day(30)}`)).toEqual([
      'HA-1',
      'HA-2',
      'MI-3',
      'MI-4',
      'MI-5',
    ]);
    expect(await matching(`start_date=${day(395)}`)).toEqual([]);
    // Blank dates, as a cleared form sends them, filter nothing.
    expect(await matching('start_date=&end_date=&company_id=')).toHaveLength(5);
  });

  it('keep one insurer, one type, one payment status or a search, and total what they keep', async () => {
    const { ids } = example;
    const migdal = await report(example.as, `company_id=${ids.migdal.id}&ordering=policy_number`);
    expect(numbers(migdal)).toEqual(['MI-3', 'MI-4', 'MI-5']);
    expect(migdal.summary).toMatchObject({
      total_policies: 3,
      total_premium: '2300.00',
      total_expected_commission: '179.75',
      total_received_commission: '30.72',
      total_paid: '930.00',
      total_pending: '1370.00',
      outstanding_commission: '149.03',
      commission_received_percentage: '17.09',
      // 179.75 / 1877.77
      average_commission_percentage: '9.57',
    });
    expect(migdal.company_summary.map((company) => company.company_name)).toEqual(['Migdal']);

    expect(await matching(`policy_type_id=${ids.home.id}`)).toEqual(['HA-2']);
    expect(await matching('payment_status=Overdue')).toEqual(['HA-1']);
    expect(await matching('payment_status=Paid')).toEqual(['HA-2', 'MI-4']);
    expect(await matching('payment_status=Partial')).toEqual(['MI-3']);
    expect(await matching('payment_status=Pending')).toEqual(['MI-5']);
    const overdue = await report(example.as, 'payment_status=Overdue');
    expect(overdue.summary).toMatchObject({ total_policies: 1, total_expected_commission: '125.00' });
    // The customer's name or the policy number.
    expect(await matching('search=levi')).toEqual(['HA-1', 'MI-4']);
    expect(await matching('search=mi-')).toEqual(['MI-3', 'MI-4', 'MI-5']);
    const searched = await report(example.as, 'search=cohen');
    expect(searched.summary).toMatchObject({ total_policies: 2, total_premium: '800.00' });
    // Taken literally: % is not a wildcard.
    expect(await matching('search=%25')).toEqual([]);
  });

  it('answer 400 with a field message for a period that ends before it starts, and for bad values', async () => {
    const { as } = example;
    const refused = await as.get(`/api/policies/commission_batch/?start_date=${day(1)}&end_date=${day(0)}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ end_date: ['The end of the period cannot be before its start.'] });
    for (const query of [
      'payment_status=paid',
      'company_id=7',
      'start_date=2026-02-30',
      'page_size=101',
      'ordering=premium',
    ]) {
      const answer = await as.get(`/api/policies/commission_batch/?${query}`);
      expect(answer.statusCode, query).toBe(400);
    }
    const csv = await as.get(`/api/policies/commission_csv/?start_date=${day(1)}&end_date=${day(0)}`);
    expect(csv.statusCode).toBe(400);
  });
});

describe('the order and the pages', () => {
  it('sorts by each figure, both ways', async () => {
    const order = async (ordering: string) => numbers(await report(example.as, `ordering=${ordering}`));
    expect(await order('expected_commission')).toEqual(['MI-4', 'MI-5', 'HA-2', 'MI-3', 'HA-1']);
    // Ties are broken by the policy id, which follows the order the policies were added in.
    expect(await order('-received_commission')).toEqual(['HA-2', 'MI-4', 'MI-3', 'MI-5', 'HA-1']);
    expect(await order('-outstanding_commission')).toEqual(['HA-1', 'MI-3', 'MI-5', 'MI-4', 'HA-2']);
    expect(await order('customer_name')).toEqual(['HA-2', 'MI-5', 'HA-1', 'MI-4', 'MI-3']);
    expect(await order('-company_name')).toEqual(['MI-5', 'MI-4', 'MI-3', 'HA-2', 'HA-1']);
    expect(await order('-start_date')).toEqual(['MI-5', 'MI-3', 'HA-2', 'MI-4', 'HA-1']);
    expect(await order('end_date')).toEqual(['HA-1', 'MI-4', 'HA-2', 'MI-3', 'MI-5']);
    expect(await order('-total_premium')).toEqual(['MI-3', 'HA-1', 'MI-4', 'HA-2', 'MI-5']);
  });

  it('pages through every row once, with the totals of all of them on every page', async () => {
    const first = await report(example.as, 'page_size=3&ordering=policy_number');
    const second = await report(example.as, 'page_size=3&ordering=policy_number&page=2');
    expect(numbers(first)).toEqual(['HA-1', 'HA-2', 'MI-3']);
    expect(numbers(second)).toEqual(['MI-4', 'MI-5']);
    expect(first.pagination).toEqual({
      page: 1,
      page_size: 3,
      total_items: 5,
      total_pages: 2,
      has_next: true,
      has_previous: false,
    });
    expect(second.pagination).toMatchObject({ page: 2, has_next: false, has_previous: true });
    expect(second.summary).toEqual(first.summary);
    const summaryOnly = await report(example.as, 'include=summary');
    expect(summaryOnly.commission_data).toEqual([]);
    expect(summaryOnly.summary).toEqual(first.summary);
  });
});

describe('the exports', () => {
  it('give the rows as CSV that spreadsheets open: BOM, heading, CRLF, quoted where needed', async () => {
    const answer = await example.as.get(
      `/api/policies/commission_csv/?ordering=policy_number&start_date=${day(0)}&end_date=${day(30)}`,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe(
      `attachment; filename="commission-report_${day(0)}_${day(30)}.csv"`,
    );
    expect(answer.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const lines = answer.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe(
      'Policy number,Customer,Insurer,Commission paid,Policy type,Status,Start date,End date,Total premium,Net premium,Commission %,Expected commission,Earned on customer payments,Outstanding commission,Earned on payments %,Payment status,Instalments paid,Instalments,Amount paid,Paid by insurer,Owed by insurer,Created at',
    );
    expect(lines.slice(1, -1).map((line) => line.split(',')[0])).toEqual([
      'HA-1',
      'HA-2',
      'MI-3',
      'MI-4',
      'MI-5',
    ]);
    expect(lines[3]).toMatch(
      new RegExp(
        `^MI-3,Noa Bar,Migdal,Pro Rata,Motor,Active,${day(-10)},${day(354)},1200.00,777.77,15.00,116.67,12.64,104.03,10.83,Partially paid,1,12,130.00,0.00,9.72,\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z$`,
      ),
    );
  });

  it('give the report as a PDF of one or more pages', async () => {
    const answer = await example.as.get('/api/policies/commission_pdf/?payment_status=Overdue');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['content-disposition']).toBe(
      'attachment; filename="commission-report_all-dates.pdf"',
    );
    const pdf = answer.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-6).toString()).toContain('%%EOF');
    expect(pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length).toBe(1);
  });

  it('read the rows in batches of the given size, in order', async () => {
    const { withTenant } = await import('../../db/tenant.js');
    const { exportRows } = await import('./queries.js');
    const batches = await withTenant(t.database.db, example.user.tenant_id, async (tx) => {
      const read: string[][] = [];
      const query = { ordering: '-start_date' as const };
      for await (const batch of exportRows(tx, example.user.tenant_id, query, 3)) {
        read.push(batch.map((row) => row.policy_number));
      }
      return read;
    });
    expect(batches).toEqual([
      ['MI-5', 'MI-3', 'HA-2'],
      ['MI-4', 'HA-1'],
    ]);
  });
});

describe('another agency', () => {
  it('never sees these policies, in the rows, the totals or the exports', async () => {
    const other = await signedInAgency(t.app);
    const { as } = other;
    const type = await ok(as.post('/api/policy-types/', { name: 'Travel', category: 'travel' }), 201);
    const insurer = await ok(
      as.post('/api/companies/', {
        name: 'Clal',
        policy_types: [{ policy_type_id: type.id, commission_percentage: '20' }],
      }),
      201,
    );
    // A name a spreadsheet would run as a formula.
    const customer = await ok(
      as.post('/api/customers/', { first_name: '=HYPERLINK("x")', last_name: 'Tal' }),
      201,
    );
    await ok(
      as.post('/api/policies/', {
        policy_number: 'CL-9',
        customer_id: customer.id,
        company_id: insurer.id,
        policy_type_id: type.id,
        start_date: day(-1),
        end_date: day(100),
        total_premium: '100.00',
      }),
      201,
    );
    const theirs = await report(as);
    expect(numbers(theirs)).toEqual(['CL-9']);
    expect(theirs.summary).toMatchObject({ total_policies: 1, total_expected_commission: '20.00' });
    expect(theirs.company_summary.map((company) => company.company_name)).toEqual(['Clal']);

    const ours = await report(example.as);
    expect(ours.summary.total_policies).toBe(5);
    expect(ours.company_summary.map((company) => company.company_name)).toEqual(['Harel', 'Migdal']);
    // Another agency's ids filter to nothing rather than reaching across.
    const reaching = await report(example.as, `company_id=${insurer.id}`);
    expect([reaching.commission_data, reaching.summary.total_policies]).toEqual([[], 0]);
    const csv = (await example.as.get('/api/policies/commission_csv/')).body;
    expect(csv).not.toContain('CL-9');
    const pdf = (await example.as.get('/api/policies/commission_pdf/')).rawPayload.toString('latin1');
    expect(pdf).not.toContain('Clal');

    const theirCsv = (await as.get('/api/policies/commission_csv/')).body;
    expect(theirCsv).not.toContain('HA-1');
    expect(theirCsv).toContain(`CL-9,"'=HYPERLINK(""x"") Tal",Clal,`);
  });
});

describe('the plan gate', () => {
  const routes = ['commission_batch', 'commission_csv', 'commission_pdf'];

  it('refuses a plan without commission reports with 403, and a lapsed subscription with 402', async () => {
    const agency = await signedInAgency(t.app);
    await setSubscription(t, agency.user.tenant_id, {
      plan: await addPlanWithout(t, 'module_commission_reports'),
    });
    for (const route of routes) {
      const refused = await agency.as.get(`/api/policies/${route}/`);
      expect(refused.statusCode, route).toBe(403);
      expect(refused.json().detail).toMatch(/does not include Commission Reports/);
    }
    // The policies themselves stay open on that plan.
    expect((await agency.as.get('/api/policies/')).statusCode).toBe(200);

    await setSubscription(t, agency.user.tenant_id, { status: 'expired' });
    for (const route of routes) {
      expect((await agency.as.get(`/api/policies/${route}/`)).statusCode, route).toBe(402);
    }
    expect((await t.app.inject({ url: '/api/policies/commission_csv/' })).statusCode).toBe(401);
  });
});
