import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
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
 * What a broker's first hour found on the policy, payments and customer pages: a payment taken on
 * the policy itself, the payments list opening on what is owed, a customer whose policies stand in
 * the way of deleting them, and a policy that is not there.
 */

/** An insurer paying 12.5% pro rata on one type, and a customer, set up through the API. */
async function seedBook(request: APIRequestContext, broker: Broker, customer = ['Noa', 'Friedman']) {
  const post = creator(request, broker);
  const typeId = await post('/api/policy-types/', { name: 'Private motor', category: 'auto' });
  const companyId = await post('/api/companies/', {
    name: 'Harel Insurance',
    commission_payment_method: 'pro_rata',
    policy_types: [{ policy_type_id: typeId, commission_percentage: '12.5' }],
  });
  const [first_name, last_name] = customer;
  const customerId = await post('/api/customers/', { first_name, last_name });
  /** A policy of 1000.00 for the customer, paid as `frequency` from `start`. */
  const addPolicy = (number: string, start: string, end: string, frequency = 'quarterly') =>
    post('/api/policies/', {
      policy_number: number,
      customer_id: customerId,
      company_id: companyId,
      policy_type_id: typeId,
      start_date: start,
      end_date: end,
      total_premium: '1000',
      payment_frequency: frequency,
    });
  const pay = (policyId: string, sequence: number) => payInstalment(request, broker, policyId, sequence);
  return { customerId, addPolicy, pay };
}

test('a payment recorded on the policy page updates its figures and its schedule', async ({
  page,
  broker,
  request,
}, testInfo) => {
  const book = await seedBook(request, broker);
  const policyId = await book.addPolicy('P-1042', '2026-01-01', '2026-12-31');
  await signInWithTokens(page, broker);
  await page.goto(`/policies/${policyId}`);
  await expect(page.getByRole('heading', { name: 'Policy P-1042' })).toBeVisible();
  await expect(page.getByText('$0.00 (0/4)')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Record a payment on P-1042/ })).toHaveCount(4);
  await page.screenshot({ path: testInfo.outputPath('policy-schedule.png'), fullPage: true });

  await page.getByRole('button', { name: 'Record a payment on P-1042, instalment 1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Payment on P-1042, instalment 1' });
  await expect(dialog.getByText('Noa Friedman · Harel Insurance')).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: /^Amount/ })).toHaveValue('250.00');
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('policy-record-payment.png') });
  await dialog.getByRole('button', { name: 'Record', exact: true }).click();
  await expect(dialog).toBeHidden();

  // Paid, received commission (125.00 x 250 / 1000) and the schedule, without leaving the page.
  await expect(page.getByText('$250.00 (1/4)')).toBeVisible();
  await expect(page.getByText('$31.25')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Record a payment on P-1042, instalment 1' })).toHaveCount(0);
  await expect(
    page.getByRole('button', { name: 'Undo the payment of instalment 1 on P-1042' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /^Record a payment on P-1042/ })).toHaveCount(3);

  // Part of the next one: it stays open for the rest, and the figures follow again.
  await page.getByRole('button', { name: 'Record a payment on P-1042, instalment 2' }).click();
  await page.getByRole('textbox', { name: /^Amount/ }).fill('100');
  await page.getByRole('button', { name: 'Record', exact: true }).click();
  await expect(page.getByText('$350.00 (1/4)')).toBeVisible();
  await expect(page.getByText('$43.75')).toBeVisible(); // 125.00 x 350 / 1000
  await expect(
    page.getByRole('button', { name: 'Undo the payment of instalment 2 on P-1042' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Record a payment on P-1042, instalment 2' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('policy-after-payments.png'), fullPage: true });
});

test('the payments list opens on what is owed: overdue first, then due, by due date; paid ones last @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  const book = await seedBook(request, broker);
  // Long past and far ahead, so which instalments are overdue does not depend on the day the test runs.
  const past = await book.addPolicy('OLD-1', '2020-01-01', '2020-12-31', 'semi_annual');
  await book.addPolicy('NEW-2', '2090-01-01', '2090-12-31', 'semi_annual');
  await book.pay(past, 1);
  await signInWithTokens(page, broker);

  await page.goto('/payments');
  await expect(page.getByText('1–4 of 4 instalments')).toBeVisible();
  // A table row on a desk, a card's link on a phone.
  const rows = page.locator('tbody tr, a').filter({ hasText: /OLD-1|NEW-2/ });
  await expect(rows).toHaveCount(4);
  const order = await rows.evaluateAll((elements) =>
    elements.map((row) => {
      const text = row.textContent ?? '';
      return `${text.match(/OLD-1|NEW-2/)?.[0]} ${text.match(/Overdue|Due|Paid/)?.[0]}`;
    }),
  );
  expect(order).toEqual(['OLD-1 Overdue', 'NEW-2 Due', 'NEW-2 Due', 'OLD-1 Paid']);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('payments-attention.png'), fullPage: true });

  // The URL still opens on the paid ones.
  await page.goto('/payments?status=paid');
  await expect(page.getByText('1 instalment', { exact: true })).toBeVisible();
});

test('a customer with policies cannot be deleted: the dialog says so first and leads to the policies', async ({
  page,
  broker,
  request,
}, testInfo) => {
  const book = await seedBook(request, broker);
  for (const number of ['NF-1', 'NF-2', 'NF-3']) await book.addPolicy(number, '2026-01-01', '2026-12-31');
  await signInWithTokens(page, broker);

  await page.goto(`/customers/${book.customerId}`);
  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete customer Noa Friedman?' });
  await expect(dialog.getByText('Noa Friedman has 3 policies: delete or move them first.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Delete customer' })).toBeDisabled();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('customer-delete-blocked.png') });

  await dialog.getByRole('link', { name: 'Open the 3 policies' }).click();
  await expect(page).toHaveURL(new RegExp(`/policies\\?customer_id=${book.customerId}$`));
  await expect(page.getByText('1–3 of 3 policies')).toBeVisible();
});

test('the policy page passes the accessibility check with its Actions menu open @phone', async ({
  page,
  broker,
  request,
}) => {
  const book = await seedBook(request, broker);
  const policyId = await book.addPolicy('P-7', '2026-01-01', '2026-12-31');
  await signInWithTokens(page, broker);
  await page.goto(`/policies/${policyId}`);
  await page.getByRole('button', { name: 'Actions' }).click();
  await expect(page.getByRole('menuitem', { name: 'Renew' })).toBeVisible();
  await expectAccessible(page);
});

test('a policy that is not there offers the way back to the policies, not a retry', async ({
  page,
  broker,
}) => {
  await signInWithTokens(page, broker);
  await page.goto(`/policies/${randomUUID()}`);
  await expect(page.getByText('Policy not found.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Back to policies' }).click();
  await expect(page).toHaveURL(/\/policies$/);
  await expect(page.getByText('No policies yet')).toBeVisible();
});
