import type { Page } from '@playwright/test';
import { creator, expect, expectAccessible, settled, signInWithTokens, test } from './fixtures.js';

/** The first screen of a test waits for the app's chunks, slow on a busy machine. */
const FIRST_PAINT = { timeout: 20_000 };

/**
 * Harel pays 10% of a policy's premium once it starts (full policy). Its March statement, whose
 * headers name nothing Coverdesk knows, so the broker says which column holds what:
 *   line 2  "ab 1003"  Dana Levi    100.00  AB-1003 by its number: 10% of 1,200.00 owed, short paid
 *   line 3  (none)     Rina Azulay  110.00  HX-2002 by name and premium (fuzzy): 100.00 owed, over paid
 *   line 4  "ZZ-2001"  Unknown      240.00  unmatched, until the broker chooses HX-2001 (2,400.00)
 * Total 450.00. Once accepted, Harel still owes 20.00 on AB-1003, owed since January (over 90 days),
 * and paid 10.00 too much on HX-2002.
 */
const STATEMENT = [
  'Ref,Holder,Prem,Amt',
  'ab 1003,Dana Levi,1200.00,100.00',
  ',Rina Azulay,1005.00,110.00',
  'ZZ-2001,Unknown Person,2400.00,240.00',
].join('\r\n');

async function choose(
  page: Page,
  scope: ReturnType<Page['getByRole']>,
  label: string,
  option: string | RegExp,
) {
  await scope
    .getByRole('textbox', { name: label, exact: true })
    .or(scope.getByRole('combobox', { name: label, exact: true }))
    .first()
    .click();
  await page.getByRole('option', { name: option }).first().click();
}

test('a statement uploaded with its columns chosen is reviewed, fixed and accepted @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.slow();
  const post = creator(request, broker);
  const typeId = await post('/api/policy-types/', { name: 'Private motor', category: 'auto' });
  const harel = await post('/api/companies/', {
    name: 'Harel Insurance',
    commission_payment_method: 'full_policy',
    policy_types: [{ policy_type_id: typeId, commission_percentage: '10' }],
  });
  const customer = (first_name: string, last_name: string) =>
    post('/api/customers/', { first_name, last_name });
  const policy = (policy_number: string, customer_id: string, total_premium: string) =>
    post('/api/policies/', {
      policy_number,
      customer_id,
      company_id: harel,
      policy_type_id: typeId,
      start_date: '2026-01-01',
      end_date: '2026-12-31',
      payment_frequency: 'single',
      total_premium,
    });
  await policy('AB-1003', await customer('Dana', 'Levi'), '1200.00');
  await policy('HX-2001', await customer('Yossi', 'Cohen'), '2400.00');
  await policy('HX-2002', await customer('Rina', 'Azulay'), '1000.00');

  await signInWithTokens(page, broker);
  await page.goto('/commission-statements');
  await expect(page.getByRole('heading', { level: 1, name: 'Commission Statements' })).toBeVisible(
    FIRST_PAINT,
  );
  await expect(page.getByRole('heading', { name: 'No statements yet' })).toBeVisible();
  await settled(page);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('statements-empty.png'), fullPage: true });

  await page.getByRole('button', { name: 'Upload a statement' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload a statement' });
  await choose(page, dialog, 'Insurer', 'Harel Insurance');
  await dialog.getByLabel('Statement date').fill('2026-03-31');
  await dialog.getByLabel('Total amount').fill('450.00');
  await dialog.locator('input[type="file"]').setInputFiles({
    name: 'harel-march.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(STATEMENT),
  });
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog.getByText('Which column holds what?')).toBeVisible();
  await choose(page, dialog, 'Field for the column Ref', 'Policy number');
  await choose(page, dialog, 'Field for the column Holder', 'Insured');
  await choose(page, dialog, 'Field for the column Prem', 'Premium');
  await choose(page, dialog, 'Field for the column Amt', 'Commission');
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('statements-mapping.png'), fullPage: true });
  await dialog.getByRole('button', { name: 'Upload with these columns' }).click();

  await expect(page).toHaveURL(/\/commission-statements\/[0-9a-f-]{36}/);
  await expect(page.getByRole('heading', { name: 'Harel Insurance' })).toBeVisible();
  const chips = page.getByRole('group', { name: 'Show lines' });
  await expect(chips).toContainText('Matched (0)');
  await expect(chips).toContainText('Short paid (1)');
  await expect(chips).toContainText('Over paid (1)');
  await expect(chips).toContainText('Unmatched (1)');
  await expect(chips).toContainText('Unconfirmed (1)');
  await expect(page.getByRole('button', { name: 'Accept' })).toBeDisabled();
  await expect(page.getByText('1 fuzzy match is still to confirm.')).toBeVisible();
  await settled(page);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('statement-review.png'), fullPage: true });

  await page.getByRole('button', { name: 'Confirm the match of line 3' }).click();
  await expect(chips).toContainText('Unconfirmed (0)');

  await page.getByRole('button', { name: 'Change line 4' }).click();
  const line = page.getByRole('dialog', { name: 'Line 4' });
  await line.getByLabel('Find a policy').fill('HX-2001');
  await choose(page, line, 'Policy', /HX-2001/);
  await line.getByRole('button', { name: 'Save' }).click();
  await expect(line).toBeHidden();
  await expect(chips).toContainText('Unmatched (0)');
  await expect(chips).toContainText('Matched (1)');

  await page.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText('Accepted', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reopen' })).toBeVisible();

  // The short payment's follow-up goes on the calendar, for Dana.
  await page.getByRole('button', { name: 'Follow up line 2 on the calendar' }).click();
  const followUp = page.getByRole('dialog', { name: 'Follow up this short payment' });
  await expect(followUp.getByLabel('Title')).toHaveValue(
    /^Chase Harel Insurance: AB-1003 short by .*20\.00$/,
  );
  await expect(followUp.getByText('with Dana Levi')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('statement-follow-up.png') });
  await followUp.getByRole('button', { name: 'Put on calendar' }).click();
  await expect(followUp).toBeHidden();
  await expect(page.getByText(/Follow-up on your calendar for/)).toBeVisible();

  // The report shows what Harel paid on each policy, and what it still owes by age.
  await page.goto('/commission-report?period=custom&start_date=2026-01-01&end_date=2026-12-31');
  const owed = page.getByRole('region', { name: 'What insurers owe' });
  await expect(owed).toBeVisible(FIRST_PAINT);
  await expect(owed).toContainText('Harel Insurance');
  await expect(owed).toContainText('450.00');
  await expect(owed).toContainText(/[-−]\D*10\.00/);
  await settled(page);
  const row = page.getByRole('row', { name: /AB-1003/ }).or(page.getByRole('link', { name: /AB-1003/ }));
  await expect(row.first()).toContainText(/100\.00.*owes.*20\.00/);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('report-insurers-owe.png'), fullPage: true });

  await page.goto('/commission-statements');
  await expect(page.getByText('Harel Insurance').first()).toBeVisible(FIRST_PAINT);
  await settled(page);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('statements-list.png'), fullPage: true });
});

test('a large statement shows how far its reading has come, then its review @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.slow();
  const harel = await creator(request, broker)('/api/companies/', {
    name: 'Harel Insurance',
    commission_payment_method: 'full_policy',
  });
  // Lines no policy has: each is looked for by number, then by name, a batch at a time.
  const lines = 10_000;
  const rows = Array.from({ length: lines }, (_, row) => `ZZ-${row},Customer No ${row},100.00,1.00`);
  const upload = await request.post('/api/commission-statements/', {
    headers: { authorization: `Bearer ${broker.access}` },
    multipart: {
      company_id: harel,
      statement_date: '2026-03-31',
      total_amount: `${lines}.00`,
      file: {
        name: 'harel-large.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`Policy No.,Insured Name,Gross Premium,Commission\r\n${rows.join('\r\n')}\r\n`),
      },
    },
  });
  expect(upload.status(), await upload.text()).toBe(202);
  const { id } = (await upload.json()) as { id: string };

  await signInWithTokens(page, broker);
  await page.goto(`/commission-statements/${id}`);
  await expect(page.getByText(/Reading and matching [\d,]+ of 10,000 lines/)).toBeVisible(FIRST_PAINT);
  await expect(page.getByRole('progressbar', { name: 'Lines read and matched' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Accept' })).toHaveCount(0);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('statement-reading.png'), fullPage: true });

  // The page polls until every line is matched, then shows the review.
  const chips = page.getByRole('group', { name: 'Show lines' });
  await expect(chips).toContainText('Unmatched (10000)', { timeout: 240_000 });
  await expect(page.getByText(/Reading and matching/)).toHaveCount(0);
});
