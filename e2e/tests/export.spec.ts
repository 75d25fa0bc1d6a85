import ExcelJS from 'exceljs';
import { creator, expect, expectAccessible, seedAgency, signInWithTokens, test } from './fixtures.js';

test('a broker exports a filtered policy list to Excel, and every list offers its export', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.slow();
  // The agency's policy P-1042 is left out by the search.
  const { type, company, customer } = await seedAgency(request, broker);
  const post = creator(request, broker);
  const policy = {
    customer_id: customer,
    company_id: company,
    policy_type_id: type,
    start_date: '2026-01-01',
    end_date: '2026-12-31',
    payment_frequency: 'single',
  };
  await post('/api/policies/', { ...policy, policy_number: 'EXP-1', total_premium: '1234.50' });
  await post('/api/policies/', { ...policy, policy_number: 'EXP-2', total_premium: '300.00' });

  await signInWithTokens(page, broker);
  await page.goto('/policies?search=EXP&ordering=-total_premium');
  await expect(page.getByRole('link', { name: /EXP-2/ })).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByRole('link', { name: /P-1042/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Export' }).click();
  await expect(page.getByRole('menuitem', { name: 'Excel (.xlsx)' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('policies-export-menu.png') });
  await expectAccessible(page);
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Excel (.xlsx)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^policies-\d{4}-\d\d-\d\d\.xlsx$/);

  const book = new ExcelJS.Workbook();
  await book.xlsx.load(
    Buffer.concat(await (await file.createReadStream()).toArray()) as unknown as ArrayBuffer,
  );
  const sheet = book.getWorksheet('Policies');
  if (!sheet) throw new Error('the workbook has no Policies sheet');
  const headings = (sheet.getRow(1).values as unknown[]).slice(1);
  expect(headings.slice(0, 4)).toEqual(['Policy number', 'Customer', 'Insurer', 'Policy type']);
  const cells = (heading: string) =>
    [2, 3, 4].map((row) => sheet.getRow(row).getCell(headings.indexOf(heading) + 1).value ?? null);
  // The list's rows, in its order, and nothing else: the premium a number, the start a date.
  expect(cells('Policy number')).toEqual(['EXP-1', 'EXP-2', null]);
  expect(cells('Total premium')).toEqual([1234.5, 300, null]);
  expect(cells('Start date')[0]).toEqual(new Date('2026-01-01T00:00:00Z'));

  // Every list has the menu in its toolbar, on a desk and on a phone.
  for (const list of ['customers', 'payments', 'leads', 'claims', 'alerts']) {
    await page.goto(`/${list}`);
    await expect(page.getByRole('button', { name: 'Export' })).toBeVisible({ timeout: 30_000 });
    await page.screenshot({ path: testInfo.outputPath(`${list}-toolbar.png`) });
  }
});
