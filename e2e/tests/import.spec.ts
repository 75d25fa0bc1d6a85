import ExcelJS from 'exceljs';
import { expect, expectAccessible, signInWithTokens, test } from './fixtures.js';

const INSURERS = ['Harel Insurance', 'Clal', 'Migdal'];
const TYPES = ['Private motor', 'Home & Contents'];

/**
 * A broker's book as an insurer's portal exports it: 500 policies of 200 customers, with the policy
 * type under a header Coverdesk does not know, and two rows a person got wrong.
 */
async function spreadsheet(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Book');
  sheet.addRow([
    'Policy No',
    'Insurer',
    'Cover type',
    'Client',
    'E-mail',
    'Effective date',
    'Expiry',
    'Premium',
    'Frequency',
    'Agent',
  ]);
  for (let i = 1; i <= 500; i++) {
    const customer = i % 200;
    sheet.addRow([
      `BK-${String(i).padStart(4, '0')}`,
      INSURERS[i % INSURERS.length],
      TYPES[i % TYPES.length],
      `Client${customer} Family${customer}`,
      `client${customer}@example.com`,
      i === 137 ? '31/02/2026' : new Date(Date.UTC(2026, i % 12, 1)),
      new Date(Date.UTC(2027, i % 12, 1)),
      i === 402 ? '' : 600 + (i % 40) * 25,
      i % 3 === 0 ? 'Quarterly' : 'Annual',
      'Noa',
    ]);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

test('a broker imports a 500-row spreadsheet with two bad rows, fixes the mapping, watches it run and downloads the failed rows', async ({
  page,
  broker,
}, testInfo) => {
  test.slow();
  const shot = (name: string) =>
    page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await signInWithTokens(page, broker);

  // From the customer list's Import button to the import screen, then policies.
  await page.goto('/customers');
  await page.getByRole('link', { name: 'Import' }).click();
  await expect(page).toHaveURL(/\/policy-import\?kind=customers$/);
  await page
    .getByRole('radiogroup', { name: 'Records to import' })
    .getByText('Policies', { exact: true })
    .click();
  await expect(page.getByText(/One row per policy/)).toBeVisible();
  await expectAccessible(page);
  await shot('import-1-upload');

  await page.locator('input[type="file"]').setInputFiles({
    name: 'book-export.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await spreadsheet(),
  });
  await page.getByRole('button', { name: 'Upload and map columns' }).click();

  // The columns it knows are matched; the policy type's is not, and the broker chooses it.
  await expect(page.getByRole('heading', { name: 'Policies from book-export.xlsx' })).toBeVisible();
  await expect(page.getByText('500 rows.')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Field for the column Policy No' })).toHaveValue(
    'Policy number (required)',
  );
  await expect(page.getByRole('combobox', { name: 'Field for the column Client' })).toHaveValue(
    'Customer full name',
  );
  await expect(page.getByText('Choose a column for: Policy type.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Check the rows' })).toBeDisabled();
  await expectAccessible(page);
  await shot('import-2-columns');
  await page.getByRole('combobox', { name: 'Field for the column Cover type' }).click();
  await page.getByRole('option', { name: 'Policy type (required)' }).click();
  await expect(page.getByText('Choose a column for: Policy type.')).toBeHidden();
  await page.getByRole('button', { name: 'Check the rows' }).click();

  // The dry run: 498 new policies and the two rows with their problems, cell by cell.
  const plan = page.getByLabel('What the import would do');
  await expect(plan.getByText('498')).toBeVisible();
  await expect(page.getByText('Nothing would be imported')).toBeVisible();
  await expect(page.getByText('Enter a valid date (YYYY-MM-DD).').first()).toBeVisible();
  await expect(
    page.getByText(/The premium must be more than zero|This field is required/).first(),
  ).toBeVisible();
  await expectAccessible(page);
  await shot('import-3-check-all-or-nothing');

  // The broker lets the import leave the two rows out.
  await page.getByRole('button', { name: 'Back to columns' }).click();
  await page.getByRole('checkbox', { name: 'All or nothing' }).uncheck();
  await page.getByRole('button', { name: 'Check the rows' }).click();
  await expect(page.getByText('Nothing would be imported')).toBeHidden();
  await expect(plan.getByText('498')).toBeVisible();
  await shot('import-3-check');
  await page.getByRole('button', { name: 'Start import' }).click();

  await expect(page.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
  await shot('import-4-progress');
  await expectAccessible(page);

  const summary = page.getByLabel('What the import did');
  await expect(page.getByText('Import finished')).toBeVisible({ timeout: 60_000 });
  await expect(summary.getByText('Created')).toBeVisible();
  await expect(summary.getByText('498')).toBeVisible();
  await expect(summary.getByText('2', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await shot('import-5-summary');

  // The summary is the import's, not the page's: a reload shows it again.
  await page.reload();
  await expect(page.getByText('Import finished')).toBeVisible();
  await expect(summary.getByText('498')).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download failed rows' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('policies-import-failed-rows.csv');
  const text = Buffer.concat(await (await file.createReadStream()).toArray()).toString('utf8');
  const lines = text.replace('\uFEFF', '').trim().split('\r\n');
  expect(lines).toHaveLength(3);
  expect(lines[0]).toBe(
    'Row,Problems,Policy No,Insurer,Cover type,Client,E-mail,Effective date,Expiry,Premium,Frequency,Agent',
  );
  expect(lines[1]).toMatch(/^138,Start date: Enter a valid date \(YYYY-MM-DD\)\.,BK-0137,/);
  expect(lines[2]).toMatch(/^403,Premium: /);

  await page.getByRole('link', { name: 'See the policies' }).click();
  await expect(page).toHaveURL(/\/policies$/);
  await expect(page.getByText(/^BK-\d{4}$/).first()).toBeVisible();
});

/** A policy file as a US agency's system exports it, with its dates as `dates` gives them. */
const usFile = (dates: [string, string][]) =>
  Buffer.from(
    [
      'Policy Number,Carrier,Line of Business,Insured Name,Effective,Expiration,Written Premium,Comm %',
      ...dates.map(
        ([start, end], index) =>
          `US-${index + 1},Travelers,Commercial auto,Insured ${index + 1},${start},${end},"1,200.00",12.5`,
      ),
    ].join('\r\n'),
  );

test('the columns step reads the date order from the file, and asks for it when the file cannot tell @phone', async ({
  page,
  broker,
}, testInfo) => {
  test.slow();
  const shot = (name: string) =>
    page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await signInWithTokens(page, broker);
  const uploadFile = async (name: string, buffer: Buffer) => {
    await page.goto('/policy-import?kind=policies');
    await page.locator('input[type="file"]').setInputFiles({ name, mimeType: 'text/csv', buffer });
    await page.getByRole('button', { name: 'Upload and map columns' }).click();
    await expect(page.getByRole('heading', { name: `Policies from ${name}` })).toBeVisible();
  };

  // 04/30/2027 can only be month first: the file says so, and every US header maps without asking.
  await uploadFile(
    'us-book.csv',
    usFile([
      ['05/01/2026', '04/30/2027'],
      ['06/01/2026', '05/31/2027'],
    ]),
  );
  await expect(page.getByText('Choose a column for')).toBeHidden();
  const order = page.getByRole('radiogroup', { name: 'How are the dates written?' });
  await expect(
    page.getByText(/Read from your file: one of its dates has a number over 12 in second place/),
  ).toBeVisible();
  await expect(order.getByRole('radio', { name: 'Month first: 05/01/2026 is May 1, 2026' })).toBeChecked();
  await expectAccessible(page);
  await shot('import-dates-1-read-from-file');
  await page.getByRole('button', { name: 'Check the rows' }).click();
  const plan = page.getByLabel('What the import would do');
  await expect(plan.getByText('2', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Enter a valid date')).toBeHidden();

  // Every date fits both orders: the agency's usual order is offered, to check; the broker changes it.
  await uploadFile('ambiguous.csv', usFile([['05/01/2026', '04/01/2027']]));
  await expect(page.getByText('Check the date order')).toBeVisible();
  await expect(page.getByText(/Every date in "Effective" and "Expiration" fits both orders/)).toBeVisible();
  await expect(order.getByRole('radio', { name: 'Month first: 05/01/2026 is May 1, 2026' })).toBeChecked();
  await expectAccessible(page);
  await shot('import-dates-2-asked');
  await order.getByRole('radio', { name: 'Day first: 05/01/2026 is 5 January 2026' }).check();
  await page.getByRole('button', { name: 'Check the rows' }).click();
  await expect(plan).toBeVisible();
  // The choice is the import's: back on the columns it is still day first.
  await page.getByRole('button', { name: 'Back to columns' }).click();
  await expect(order.getByRole('radio', { name: 'Day first: 05/01/2026 is 5 January 2026' })).toBeChecked();
});
