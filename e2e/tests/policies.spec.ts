import type { APIRequestContext, Page } from '@playwright/test';
import { type Broker, creator, expect, expectAccessible, signInWithTokens, test } from './fixtures.js';

/** The insurer, type and customer a broker set up in the first hour. */
async function seedCatalogue(request: APIRequestContext, broker: Broker) {
  const post = creator(request, broker);
  const type = await post('/api/policy-types/', { name: 'Private motor', category: 'auto' });
  await post('/api/companies/', {
    name: 'Harel Insurance',
    commission_payment_method: 'pro_rata',
    policy_types: [{ policy_type_id: type, commission_percentage: '12.5' }],
  });
  await post('/api/customers/', { first_name: 'Dana', last_name: 'Levi', email: 'dana.levi@example.com' });
}

async function createPolicy(page: Page, number: string, frequency: string) {
  await page.goto('/policies/create');
  await page.getByRole('combobox', { name: 'Customer' }).fill('Dana');
  await page.getByRole('option', { name: 'Dana Levi' }).click();
  await page.getByRole('combobox', { name: 'Insurer' }).click();
  await page.getByRole('option', { name: 'Harel Insurance' }).click();
  await page.getByRole('combobox', { name: 'Policy type' }).click();
  await page.getByRole('option', { name: 'Private motor' }).click();
  await expect(page.getByRole('textbox', { name: 'Commission (%)' })).toHaveValue('12.50');
  await page.getByRole('textbox', { name: 'Policy number' }).fill(number);
  await page.getByLabel('Starts').fill('2026-01-01');
  await page.getByRole('textbox', { name: 'Total premium' }).fill('1000');
  await page.getByRole('combobox', { name: 'Payment' }).click();
  await page.getByRole('option', { name: frequency }).click();
}

test('an agency keeping its books in euros sees its amounts in euros', async ({
  page,
  broker,
  request,
}, testInfo) => {
  await seedCatalogue(request, broker);
  const changed = await request.patch('/api/user/profile/', {
    headers: { authorization: `Bearer ${broker.access}` },
    data: { currency: 'EUR' },
  });
  expect(changed.status()).toBe(200);
  await signInWithTokens(page, broker);
  await createPolicy(page, 'P-7', 'Quarterly');
  await expect(page.getByRole('cell', { name: '€250.00' })).toHaveCount(4);
  await page.screenshot({ path: testInfo.outputPath('policy-form-in-euros.png'), fullPage: true });
});

test('a broker records a quarterly policy, takes two payments, sees the commission follow, and renews it', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.slow();
  await seedCatalogue(request, broker);
  await signInWithTokens(page, broker);

  await createPolicy(page, 'P-1042', 'Quarterly');
  // The split is shown before saving: four equal instalments from the start date.
  await expect(page.getByRole('cell', { name: '$250.00' })).toHaveCount(4);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('policy-form.png'), fullPage: true });
  await page.getByRole('button', { name: 'Add policy' }).click();

  await expect(page.getByRole('heading', { name: 'Policy P-1042' })).toBeVisible();
  await expect(page.getByText('$125.00')).toBeVisible(); // expected commission: 1,000.00 x 12.5%
  const policyUrl = page.url();

  // Two payments, each in two clicks.
  await page.goto(`/payments/policy/${policyUrl.split('/').pop()}`);
  for (const instalment of [1, 2]) {
    await page.getByRole('button', { name: `Record a payment on P-1042, instalment ${instalment}` }).click();
    await page.getByRole('button', { name: 'Record', exact: true }).click();
    await expect(
      page.getByRole('button', { name: `Undo the payment of instalment ${instalment} on P-1042` }),
    ).toBeVisible();
  }
  // A payment entered wrongly is corrected; the instalment is then partly paid, and the rest recorded.
  await page.getByRole('button', { name: 'Correct the payment of instalment 2 on P-1042' }).click();
  await page.getByRole('textbox', { name: /^Amount paid in all/ }).fill('100.00');
  await page.getByRole('button', { name: 'Save correction' }).click();
  await expect(page.getByText('Payment on P-1042 corrected to $100.00.')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('policy-partly-paid.png'), fullPage: true });
  await page.getByRole('button', { name: 'Record a payment on P-1042, instalment 2' }).click();
  await expect(page.getByRole('textbox', { name: /^Amount/ })).toHaveValue('150.00');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Record', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Record a payment on P-1042, instalment 2' })).toHaveCount(0);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('policy-payments.png'), fullPage: true });

  await page.goto(policyUrl);
  await expect(page.getByText('$500.00 (2/4)')).toBeVisible();
  await expect(page.getByText('$62.50')).toBeVisible(); // received pro rata: 125.00 x 500 / 1000
  await page.screenshot({ path: testInfo.outputPath('policy-detail.png'), fullPage: true });

  // Renewed: the next term starts the day after this one ends.
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Renew' }).click();
  await expect(page.getByLabel('Starts')).toHaveValue('2027-01-01');
  await page.getByRole('button', { name: 'Renew policy' }).click();
  await expect(page.getByRole('heading', { name: 'Policy P-1042' })).toBeVisible();
  await page.getByRole('link', { name: 'The term this one renews' }).click();
  // Renewed before its end, the term covers to its end: active, with the term that renews it linked.
  await expect(page.getByRole('link', { name: 'The term that renews this one' })).toBeVisible();
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
});

test('a test policy is deleted only with the password re-entered', async ({ page, broker, request }) => {
  await seedCatalogue(request, broker);
  await signInWithTokens(page, broker);
  await createPolicy(page, 'TEST-1', 'Single payment');
  await page.getByRole('button', { name: 'Add policy' }).click();
  await expect(page.getByRole('heading', { name: 'Policy TEST-1' })).toBeVisible();

  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete policy TEST-1 for Dana Levi?' });
  await dialog.getByRole('textbox', { name: /Your password/ }).fill('not my password');
  await dialog.getByRole('button', { name: 'Delete policy' }).click();
  await expect(dialog.getByText('Your password is incorrect.')).toBeVisible();
  await expectAccessible(page);

  await dialog.getByRole('textbox', { name: /Your password/ }).fill(broker.password);
  await dialog.getByRole('button', { name: 'Delete policy' }).click();
  await expect(page).toHaveURL(/\/policies$/);
  await expect(page.getByText('No policies yet')).toBeVisible();
});

test('the demo opens on a full agency: policies in every state, customers, insurers and payments', async ({
  page,
}, testInfo) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/policies');
  await expect(page.getByText(/^1–20 of \d{3} policies$/)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('demo-policies.png'), fullPage: true });
  for (const status of ['active', 'pending', 'expired', 'cancelled', 'renewed']) {
    await page.goto(`/policies?status=${status}`);
    await expect(page.getByText(/of \d+ policies$/)).toBeVisible();
  }
  await page.goto('/payments?status=overdue');
  await expect(page.getByText(/of \d+ instalments$/)).toBeVisible();
  await page.goto('/customers');
  await expect(page.getByText(/of \d{3} customers$/)).toBeVisible();
  await page.goto('/companies');
  await expect(page.getByText(/of [4-9] insurers$/)).toBeVisible();
});
