import type { Page } from '@playwright/test';
import { type Broker, expect, expectAccessible, signInWithTokens, test } from './fixtures.js';

/** The 1st of the month `months` from now (before it when negative). */
function monthsFromNow(months: number) {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + months, 1)).toISOString().slice(0, 10);
}
const dayBefore = (iso: string) => new Date(Date.parse(iso) - 86_400_000).toISOString().slice(0, 10);

/** A year's quarterly policy of 1,200.00 with an insurer the agency lacks, started `monthsAgo` months ago. */
const policy = (number: string, monthsAgo: number, paidUpTo = '', paidAmount = '') => [
  number,
  'Oakline',
  'Motor',
  `Client ${number}`,
  `${number.toLowerCase()}@example.com`,
  monthsFromNow(-monthsAgo),
  dayBefore(monthsFromNow(12 - monthsAgo)),
  '1200',
  'Quarterly',
  paidUpTo,
  paidAmount,
];

/**
 * A book part paid: one policy paid up to four months ago, one with 450.00 paid, one that says
 * nothing, and one that ended eight months ago and says nothing.
 */
const book = () =>
  [
    [
      'Policy No',
      'Insurer',
      'Type',
      'Client',
      'Email',
      'Start',
      'End',
      'Premium',
      'Payment',
      'Paid up to',
      'Paid amount',
    ],
    policy('PB-UPTO', 7, monthsFromNow(-4)),
    policy('PB-AMOUNT', 7, '', '450.00'),
    policy('PB-SILENT', 1),
    policy('PB-ENDED', 20),
  ]
    .map((row) => row.join(','))
    .join('\r\n');

/** The policy's page, found by its number through the API. */
async function openPolicy(page: Page, broker: Broker, number: string) {
  const found = await page.request.get(`/api/policies/?search=${number}`, {
    headers: { authorization: `Bearer ${broker.access}` },
  });
  const [row] = ((await found.json()) as { results: { id: string }[] }).results;
  await page.goto(`/policies/${row?.id}`);
  await expect(page.getByRole('heading', { name: `Policy ${number}` })).toBeVisible();
  return page
    .locator('.mantine-Card-root')
    .filter({ has: page.getByRole('heading', { name: 'Instalments' }) });
}

test('a broker imports a part-paid book: what the file says is paid is paid, and the ended policy owes nothing @phone', async ({
  page,
  broker,
}, testInfo) => {
  // Four policy pages after an import: minutes on a busy two-core machine.
  test.setTimeout(240_000);
  await signInWithTokens(page, broker);
  await page.goto('/policy-import?kind=policies');
  await page.locator('input[type="file"]').setInputFiles({
    name: 'part-paid.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(book()),
  });
  await page.getByRole('button', { name: 'Upload and map columns' }).click();

  // The payment columns are recognised like the others.
  await expect(page.getByRole('heading', { name: 'Policies from part-paid.csv' })).toBeVisible({
    timeout: 30_000,
  });
  for (const [column, field] of [
    ['Paid up to', 'Paid up to'],
    ['Paid amount', 'Paid amount'],
    ['Email', 'Customer email'],
    ['Payment', 'Payment frequency'],
  ] as const) {
    await expect(page.getByRole('combobox', { name: `Field for the column ${column}` })).toHaveValue(field);
  }
  await page.getByRole('button', { name: 'Check the rows' }).click();

  // The check step asks about the two silent policies' five past instalments, and flags the insurer.
  const question = page.getByRole('radiogroup', { name: 'What should the import do with them?' });
  await expect(
    page.getByText(/^5 instalments of 2 policies \(\$1,500\.00\) fell due before today/),
  ).toBeVisible({ timeout: 30_000 });
  await expect(question.getByRole('radio', { name: /^Mark paid/ })).toBeChecked();
  await expect(page.getByText('New insurer Oakline: no commission rate')).toBeVisible();
  await expect(page.getByText(/Its 4 policies will earn \$0\.00/)).toBeVisible();

  // The broker leaves them unpaid; an ended policy stays paid unless they say so too.
  await question.getByRole('radio', { name: /^Leave unpaid/ }).check();
  const expiredToo = page.getByRole('checkbox', {
    name: /^Leave the 1 policy that already ended unpaid too/,
  });
  await expect(expiredToo).not.toBeChecked();
  await expect(page.getByRole('button', { name: 'Start import' })).toBeEnabled();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('import-check-paid-up.png'), fullPage: true });
  await page.getByRole('button', { name: 'Start import' }).click();
  await expect(page.getByText('Import finished')).toBeVisible({ timeout: 60_000 });

  const badges = async (number: string) =>
    (await openPolicy(page, broker, number)).locator('.mantine-Badge-root');
  // Paid up to four months ago: the first two paid; the third, the file says, is owed.
  await expect(await badges('PB-UPTO')).toHaveText(['Paid', 'Paid', 'Overdue', 'Due']);
  await expect(page.getByText('$600.00 (2/4)')).toBeVisible();
  // 450.00: the first paid, the second part paid (and past its date).
  await expect(await badges('PB-AMOUNT')).toHaveText(['Paid', 'Overdue', 'Overdue', 'Due']);
  await expect(page.getByText('$450.00 (1/4)')).toBeVisible();
  // Left unpaid as the broker chose.
  await expect(await badges('PB-SILENT')).toHaveText(['Overdue', 'Due', 'Due', 'Due']);
  // Ended: paid by the import, on its due dates, and no debt.
  await expect(await badges('PB-ENDED')).toHaveText(['Paid', 'Paid', 'Paid', 'Paid']);
  await expect(page.getByText('$1,200.00 (4/4)')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('import-ended-policy-paid.png'), fullPage: true });

  // The payments list owes four instalments, none of them the ended policy's.
  await page.goto('/payments?status=overdue');
  await expect(page.getByText('PB-UPTO').first()).toBeVisible();
  await expect(page.getByText('PB-ENDED')).toHaveCount(0);
});
