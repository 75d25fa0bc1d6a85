import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Download, Page } from '@playwright/test';
import {
  type Broker,
  creator,
  expect,
  expectAccessible,
  payInstalment,
  signInWithTokens,
  test,
} from './fixtures.js';

/**
 * The commission report a broker holds against each insurer's statement: two insurers, one paying
 * pro rata and one on the full policy, some instalments paid. Every figure below is worked out by
 * hand from the policies.
 *
 * Harel Insurance, pro rata at 12.5%:
 *   P-1042  1000.00 quarterly, 1 of 4 paid (250.00): expected 125.00, received 125.00 x 250/1000 = 31.25
 *   P-1043   600.00 in one payment, unpaid:          expected  75.00, received 0.00
 *   Harel: premium 1600.00, expected 200.00, received 31.25, outstanding 168.75, 31.25/200 = 15.63%
 * Migdal, on the full policy at 10%:
 *   M-2001   800.00 (net 700.00) in one, paid:       expected  70.00, received 70.00 (fully paid)
 *   M-2002  1200.00 quarterly, 1 of 4 paid:         expected 120.00, received 0.00 (not fully paid)
 *   Migdal: premium 2000.00, expected 190.00, received 70.00, outstanding 120.00, 70/190 = 36.84%
 * Agency: premium 3600.00, expected 390.00, received 101.25, outstanding 288.75, 101.25/390 = 25.96%
 */
async function seedTwoInsurers(request: APIRequestContext, broker: Broker) {
  const post = creator(request, broker);
  const typeId = await post('/api/policy-types/', { name: 'Private motor', category: 'auto' });
  const harel = await post('/api/companies/', {
    name: 'Harel Insurance',
    commission_payment_method: 'pro_rata',
    policy_types: [{ policy_type_id: typeId, commission_percentage: '12.5' }],
  });
  const migdal = await post('/api/companies/', {
    name: 'Migdal',
    commission_payment_method: 'full_policy',
    policy_types: [{ policy_type_id: typeId, commission_percentage: '10' }],
  });
  const customerId = await post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' });
  const policy = (policy_number: string, company_id: string, premium: object, payment_frequency: string) =>
    post('/api/policies/', {
      policy_number,
      customer_id: customerId,
      company_id,
      policy_type_id: typeId,
      start_date: '2026-01-01',
      end_date: '2026-12-31',
      payment_frequency,
      ...premium,
    });
  const payFirstInstalment = (policyId: string) =>
    payInstalment(request, broker, policyId, 1, 'bank_transfer');
  await payFirstInstalment(await policy('P-1042', harel, { total_premium: '1000.00' }, 'quarterly'));
  await policy('P-1043', harel, { total_premium: '600.00' }, 'single');
  await payFirstInstalment(
    await policy('M-2001', migdal, { total_premium: '800.00', net_premium: '700.00' }, 'single'),
  );
  await payFirstInstalment(await policy('M-2002', migdal, { total_premium: '1200.00' }, 'quarterly'));
}

/** The first screen of a test waits for the app's chunks, slow on a busy machine. */
const FIRST_PAINT = { timeout: 20_000 };

/** The report over the policies' whole year, whatever today is. */
const YEAR_2026 = '/commission-report?period=custom&start_date=2026-01-01&end_date=2026-12-31';

async function expectTotals(page: Page, figures: Record<string, string>) {
  const totals = page.getByRole('region', { name: 'Totals' });
  await expect(totals).toBeVisible(FIRST_PAINT);
  for (const [label, value] of Object.entries(figures)) {
    await expect(totals.getByRole('group', { name: label, exact: true })).toContainText(value);
  }
}

async function chooseInsurer(page: Page, name: string, phone: boolean) {
  if (phone) await page.getByRole('button', { name: 'Filters' }).click();
  await page
    .getByRole('textbox', { name: 'Insurer' })
    .or(page.getByRole('combobox', { name: 'Insurer' }))
    .first()
    .click();
  await page.getByRole('option', { name }).click();
  if (phone) await page.getByRole('button', { name: 'Show results' }).click();
}

async function downloaded(page: Page, button: string): Promise<{ file: Download; bytes: Buffer }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  return { file, bytes: await readFile(await file.path()) };
}

test('the report filtered to one insurer shows its figures and exports them @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  // Seeding four policies, filtering and making two files: more than the default half minute on a busy machine.
  test.slow();
  const phone = testInfo.project.name === 'mobile';
  await seedTwoInsurers(request, broker);
  await signInWithTokens(page, broker);
  await page.goto(YEAR_2026);
  await expect(page.getByRole('heading', { level: 1, name: 'Commission Report' })).toBeVisible(FIRST_PAINT);
  await expectTotals(page, {
    'Total premium': '$3,600.00',
    'Commission expected': '$390.00',
    'Earned on customer payments': '$101.25',
    Outstanding: '$288.75',
    'Earned on payments %': '25.96%',
  });
  const byInsurer = page.getByRole('region', { name: 'By insurer' });
  await expect(byInsurer).toContainText('Harel Insurance');
  await expect(byInsurer).toContainText('36.84%');
  await page.screenshot({ path: testInfo.outputPath('commission-report.png'), fullPage: true });

  await chooseInsurer(page, 'Harel Insurance', phone);
  await expect(page).toHaveURL(/company_id=/);
  await expectTotals(page, {
    'Total premium': '$1,600.00',
    'Commission expected': '$200.00',
    'Earned on customer payments': '$31.25',
    Outstanding: '$168.75',
    'Earned on payments %': '15.63%',
  });
  await expect(byInsurer).not.toContainText('Migdal');
  await expect(page.getByRole('link', { name: /P-1042/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /P-1043/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /M-200/ })).toHaveCount(0);
  await expect(page.getByText('1–2 of 2 policies')).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('commission-report-harel.png'), fullPage: true });

  // The files carry the filters on screen: Harel's two policies, in 2026.
  const csv = await downloaded(page, 'Export CSV');
  expect(csv.file.suggestedFilename()).toBe('commission-report_2026-01-01_2026-12-31.csv');
  const text = csv.bytes.toString('utf8');
  expect(text.startsWith('\uFEFFPolicy number,Customer,Insurer,')).toBe(true);
  expect(text).toContain('P-1042,Dana Levi,Harel Insurance');
  expect(text).toContain('P-1043,Dana Levi,Harel Insurance');
  expect(text).not.toContain('Migdal');

  const pdf = await downloaded(page, 'Export PDF');
  expect(pdf.file.suggestedFilename()).toBe('commission-report_2026-01-01_2026-12-31.pdf');
  expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await expect(page.getByRole('button', { name: 'Export PDF' })).toBeEnabled();
});

test('a period without policies says so and offers every period', async ({ page, broker, request }) => {
  await seedTwoInsurers(request, broker);
  await signInWithTokens(page, broker);
  await page.goto('/commission-report?period=custom&start_date=2030-01-01&end_date=2030-01-31');
  await expect(page.getByText('No policies in this period')).toBeVisible(FIRST_PAINT);
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  await page.getByRole('button', { name: 'Show every period' }).click();
  await expectTotals(page, { 'Total premium': '$3,600.00' });
  await expect(page).not.toHaveURL(/start_date/);
});

test('a plan without the report shows it locked, with the way to upgrade', async ({ page, broker }) => {
  // Every plan on sale includes the report, so the plan is one whose features leave it out as the
  // app reads them; the server's own refusal is covered by the API tests.
  await page.route('**/api/billing/subscriptions/status/', async (route) => {
    const response = await route.fetch();
    const state = await response.json();
    state.features = state.features.filter((module: string) => module !== 'module_commission_reports');
    await route.fulfill({ response, json: state });
  });
  await signInWithTokens(page, broker);
  await page.goto('/commission-report');
  await expect(page.getByRole('heading', { name: 'Commission Reports is not in your plan' })).toBeVisible(
    FIRST_PAINT,
  );
  await expect(page.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/billing');
  await expectAccessible(page);
});

test('a payment recorded on the payments screen shows in the report at once @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.slow();
  const phone = testInfo.project.name === 'mobile';
  const openFromMenu = async (name: string) => {
    if (phone) await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name }).click();
  };
  await seedTwoInsurers(request, broker);
  await signInWithTokens(page, broker);
  await page.goto(YEAR_2026);
  await expectTotals(page, { 'Earned on customer payments': '$101.25' });

  await openFromMenu('Payments Management');
  await page.getByRole('button', { name: 'Record a payment on P-1043, instalment 1' }).click();
  await page.getByRole('button', { name: 'Record', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Record a payment on P-1043, instalment 1' })).toHaveCount(0);

  // P-1043 paid in full at Harel, pro rata: its 75.00 is received; 176.25 of 390.00 is 45.19%.
  await page.goBack();
  await expect(page).toHaveURL(/start_date=2026-01-01/);
  await expectTotals(page, {
    'Earned on customer payments': '$176.25',
    Outstanding: '$213.75',
    'Earned on payments %': '45.19%',
  });
});

test("the demo agency's report for this year, filtered to one insurer and exported", async ({
  page,
}, testInfo) => {
  test.slow();
  const phone = testInfo.project.name === 'mobile';
  await page.goto('/login');
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const year = new Date().getFullYear();
  await page.goto(`/commission-report?period=custom&start_date=${year}-01-01&end_date=${year}-12-31`);
  const byInsurer = page.getByRole('region', { name: 'By insurer' });
  for (const insurer of ['Atlas Commercial', 'Bluecrest Assurance', 'Northwind Mutual']) {
    await expect(byInsurer).toContainText(insurer, FIRST_PAINT);
  }

  await chooseInsurer(page, 'Atlas Commercial', phone);
  await expect(page).toHaveURL(/company_id=/);
  await expect(byInsurer).not.toContainText('Bluecrest Assurance');
  const counted = await page.getByText(/^(1–\d+ of \d+ policies|1 policy)$/).textContent();
  const policies = Number(counted?.match(/(\d+) polic/)?.[1]);
  expect(policies).toBeGreaterThan(0);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('commission-report-demo-atlas.png'), fullPage: true });

  // The file holds every row the screen counts, all of them the chosen insurer's.
  const csv = await downloaded(page, 'Export CSV');
  const lines = csv.bytes.toString('utf8').trim().split(/\r?\n/).slice(1);
  expect(lines).toHaveLength(policies);
  for (const line of lines) expect(line).toContain(',Atlas Commercial,');
  const pdf = await downloaded(page, 'Export PDF');
  expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
});
