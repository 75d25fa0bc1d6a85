import type { APIRequestContext } from '@playwright/test';
import {
  type Broker,
  creator,
  expect,
  expectAccessible,
  settled,
  signInWithTokens,
  test,
} from './fixtures.js';

/** The first screen of a test waits for the app's chunks, slow on a busy machine. */
const FIRST_PAINT = { timeout: 20_000 };

/** A statement of Harel uploaded through the API and read, its lines `[policy, commission, date]`; answers its id. */
async function statementOf(
  request: APIRequestContext,
  broker: Broker,
  fields: { company_id: string; statement_date: string; total_amount: string },
  lines: [string, string, string][],
) {
  const csv = ['Policy No.,Commission,Transaction Date', ...lines.map((line) => line.join(','))].join('\r\n');
  const response = await request.post('/api/commission-statements/', {
    headers: { authorization: `Bearer ${broker.access}` },
    multipart: {
      ...fields,
      file: { name: `harel-${fields.statement_date}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) },
    },
  });
  expect(response.status(), await response.text()).toBe(202);
  const { id } = (await response.json()) as { id: string };
  // Read and matched by a job: in review once its lines are.
  await expect
    .poll(async () => {
      const statement = await request.get(`/api/commission-statements/${id}/`, {
        headers: { authorization: `Bearer ${broker.access}` },
      });
      return ((await statement.json()) as { status: string }).status;
    })
    .toBe('review');
  return id;
}

/**
 * Harel pays 10% once a term starts. January's statement paid AB-1 and left AB-2 off; March's names
 * AB-3, repeats January's AB-1 line, has a line of no policy, and was typed with the wrong total.
 */
test('a statement in review shows all that is owed, takes a corrected total, resolves its unmatched line and warns of a repeated one @phone', async ({
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
  const dana = await post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' });
  const policy = (policy_number: string, start_date: string, total_premium: string) =>
    post('/api/policies/', {
      policy_number,
      customer_id: dana,
      company_id: harel,
      policy_type_id: typeId,
      start_date,
      end_date: '2026-12-31',
      payment_frequency: 'single',
      total_premium,
    });
  await policy('AB-1', '2026-01-01', '1200.00');
  await policy('AB-2', '2026-01-15', '2400.00');
  await policy('AB-3', '2026-03-05', '1000.00');
  const january = await statementOf(
    request,
    broker,
    { company_id: harel, statement_date: '2026-01-31', total_amount: '120.00' },
    [['AB-1', '120.00', '2026-01-05']],
  );
  const accepted = await request.post(`/api/commission-statements/${january}/accept/`, {
    headers: { authorization: `Bearer ${broker.access}` },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
  const march = await statementOf(
    request,
    broker,
    { company_id: harel, statement_date: '2026-03-31', total_amount: '250.00' },
    [
      ['AB-3', '100.00', '2026-03-05'],
      ['AB-1', '120.00', '2026-01-05'],
      ['ZZ-9', '35.00', '2026-03-10'],
    ],
  );

  await signInWithTokens(page, broker);
  await page.goto(`/commission-statements/${march}`);
  await expect(page.getByRole('heading', { name: 'Harel Insurance' })).toBeVisible(FIRST_PAINT);
  // AB-2, owed since January and left off both statements, is missing from March's.
  const missing = page.locator('#missing');
  await expect(missing.getByRole('heading', { name: 'Missing from this statement (1)' })).toBeVisible();
  await expect(missing).toContainText('AB-2');
  await expect(missing).toContainText('January 2026');
  await expect(missing).toContainText('240.00');
  await expect(page.getByText('1 line repeats an accepted statement')).toBeVisible();
  await expect(page.getByText("The statement's total and the sum of its lines differ")).toBeVisible();
  await expect(page.getByRole('button', { name: 'Accept', exact: true })).toBeDisabled();
  await settled(page);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('review-before.png'), fullPage: true });

  // The total typed on upload was wrong: corrected here, not by uploading again.
  await page.getByRole('button', { name: 'Edit total' }).click();
  const totalDialog = page.getByRole('dialog', { name: "Edit the statement's total" });
  await totalDialog.getByLabel('Statement total').fill('2.55');
  await totalDialog.getByRole('button', { name: 'Save total' }).click();
  await expect(totalDialog).toBeHidden();
  await expect(page.getByText("The statement's total and the sum of its lines differ")).toBeVisible();
  await page.getByRole('button', { name: 'Edit total' }).click();
  await totalDialog.getByLabel('Statement total').fill('255.00');
  await totalDialog.getByRole('button', { name: 'Save total' }).click();
  await expect(totalDialog).toBeHidden();
  await expect(page.getByText("The statement's total and the sum of its lines differ")).toBeHidden();
  await expect(
    page.getByText('1 unmatched line is still to match, mark not ours or write off.'),
  ).toBeVisible();

  // The unknown line is written off, with the reason it asks for.
  await page.getByRole('button', { name: 'Write off line 4' }).click();
  const writeOff = page.getByRole('dialog', { name: 'Write off: line 4' });
  await writeOff.getByRole('button', { name: 'Write off' }).click();
  await expect(writeOff.getByText('Say why this line is written off.')).toBeVisible();
  await writeOff.getByLabel('Reason').fill('Closed policy of the old book');
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('review-write-off.png') });
  await writeOff.getByRole('button', { name: 'Write off' }).click();
  await expect(writeOff).toBeHidden();
  await expect(page.getByText('Closed policy of the old book')).toBeVisible();
  await expect(page.getByText('Written off', { exact: true })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Show lines' })).toContainText('Unresolved (0)');

  // Accepting asks first, the repeated line named.
  await page.getByRole('button', { name: 'Accept', exact: true }).click();
  const anyway = page.getByRole('dialog', { name: 'Accept anyway?' });
  await expect(anyway).toContainText('1 line repeats a line already paid');
  await settled(page);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('review-accept-anyway.png') });
  await anyway.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('button', { name: 'Reopen' })).toBeHidden();
  await page.getByRole('button', { name: 'Accept', exact: true }).click();
  await anyway.getByRole('button', { name: 'Accept anyway' }).click();
  await expect(anyway).toBeHidden();
  await expect(page.getByRole('button', { name: 'Reopen' })).toBeVisible();
  await expect(page.getByText('Accepted', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit total' })).toBeHidden();
  await settled(page);
  await page.screenshot({ path: testInfo.outputPath('review-accepted.png'), fullPage: true });
});
