import type { APIRequestContext, Page } from '@playwright/test';
import { type Broker, creator, expect, expectAccessible, signInWithTokens, test } from './fixtures.js';

/** A calendar day `days` from today (UTC, the test agencies' time zone). */
const dayFrom = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Three year-long policies with Harel: one ending in 10 days for a customer with email and phone,
 * one ending in 20 days for a customer with an email only, and one that lapsed 5 days ago.
 */
async function seedRenewals(request: APIRequestContext, broker: Broker) {
  const post = creator(request, broker);
  const motor = await post('/api/policy-types/', { name: 'Private motor', category: 'auto' });
  const harel = await post('/api/companies/', {
    name: 'Harel Insurance',
    policy_types: [{ policy_type_id: motor, commission_percentage: '12.5' }],
  });
  const dana = await post('/api/customers/', {
    first_name: 'Dana',
    last_name: 'Levi',
    email: 'dana.levi@example.com',
    phone: '052-123-4567',
  });
  const omer = await post('/api/customers/', {
    first_name: 'Omer',
    last_name: 'Katz',
    email: 'omer@example.com',
  });
  const policy = (number: string, customer: string, endsIn: number, premium: string) =>
    post('/api/policies/', {
      policy_number: number,
      customer_id: customer,
      company_id: harel,
      policy_type_id: motor,
      start_date: dayFrom(endsIn - 364),
      end_date: dayFrom(endsIn),
      total_premium: premium,
    });
  return {
    soon: await policy('AL-10', dana, 10, '1200.00'),
    later: await policy('AL-20', omer, 20, '900.00'),
    lapsed: await policy('AL-LAPSED', dana, -5, '450.00'),
  };
}

/** The row (a table row on a desk, a card on a phone) of a policy on the list. */
const rowOf = (page: Page, number: string) =>
  (test.info().project.name === 'mobile' ? page.locator('.mantine-Card-root') : page.getByRole('row')).filter(
    {
      hasText: number,
    },
  );

test('a broker sees the renewals due with how to reach each customer, and renews one from the list @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.slow();
  const ids = await seedRenewals(request, broker);
  await signInWithTokens(page, broker);

  await page.goto('/alerts');
  const windows = page.getByRole('group', { name: 'Which policies to show' });
  // The first screen of a cold server on a busy machine may take longer than a usual wait.
  await expect(windows.getByRole('button', { name: /Ending in 30 days\s*2/i })).toHaveAttribute(
    'aria-pressed',
    'true',
    { timeout: 30_000 },
  );
  await expect(windows.getByRole('button', { name: /Lapsed, last 30 days\s*1/i })).toBeVisible();
  await expect(rowOf(page, 'AL-10').getByText('in 10 days')).toBeVisible();
  await expect(rowOf(page, 'AL-LAPSED').getByText('lapsed 5 days ago')).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('alerts.png'), fullPage: true });

  // Contact: email and call Dana; Omer has no phone on file, and the menu says where to add it.
  await page.getByRole('button', { name: 'Contact Dana Levi' }).first().click();
  await expect(page.getByRole('menuitem', { name: 'Email dana.levi@example.com' })).toHaveAttribute(
    'href',
    /^mailto:dana\.levi@example\.com\?subject=/,
  );
  await expect(page.getByRole('menuitem', { name: 'Call 052-123-4567' })).toHaveAttribute(
    'href',
    'tel:0521234567',
  );
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Contact Omer Katz' }).click();
  await expect(page.getByRole('menuitem', { name: 'Call: no phone number on file' })).toBeDisabled();
  await expect(page.getByRole('link', { name: "Omer Katz's details" })).toBeVisible();
  await page.keyboard.press('Escape');

  // Lapsed policies can be left out, and the address remembers it.
  await windows.getByRole('button', { name: /Lapsed, last 30 days/i }).click();
  await expect(page).toHaveURL(/include_lapsed=false/);
  await expect(rowOf(page, 'AL-LAPSED')).toHaveCount(0);
  await windows.getByRole('button', { name: /Lapsed, last 30 days/i }).click();
  await expect(rowOf(page, 'AL-LAPSED')).toHaveCount(1);

  // Renew from the list: the renewal form, then the new term; the policy leaves the list.
  await page.getByRole('link', { name: 'Renew policy AL-10' }).click();
  await expect(page).toHaveURL(new RegExp(`/policies/${ids.soon}/renew$`));
  await page.getByRole('button', { name: 'Renew policy' }).click();
  await expect(page.getByRole('heading', { name: /Policy AL-10/ })).toBeVisible();
  await page.goto('/alerts');
  await expect(rowOf(page, 'AL-20')).toHaveCount(1);
  await expect(rowOf(page, 'AL-10')).toHaveCount(0);
  await expect(windows.getByRole('button', { name: /Ending in 30 days\s*1/i })).toBeVisible();
});

test('a broker marks a policy as not renewing with the reason, sees it on the policy, and undoes it', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.slow();
  const ids = await seedRenewals(request, broker);
  await signInWithTokens(page, broker);
  await page.goto('/alerts');
  await expect(rowOf(page, 'AL-20')).toHaveCount(1, { timeout: 30_000 });

  // Not renewing: the reason is required, then the policy leaves the list.
  await page.getByRole('button', { name: 'Not renewing policy AL-20' }).click();
  const dialog = page.getByRole('dialog', { name: 'Not renewing policy AL-20 for Omer Katz?' });
  await dialog.getByRole('button', { name: 'Mark as not renewing' }).click();
  await expect(dialog.getByText('This field may not be blank.')).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('alerts-not-renewing.png'), fullPage: true });
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Moving abroad in January');
  await dialog.getByRole('button', { name: 'Mark as not renewing' }).click();
  await expect(page.getByText('Policy AL-20 marked as not renewing.', { exact: false })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(rowOf(page, 'AL-20')).toHaveCount(0);

  // The reason shows on the policy, with the way back.
  await page.goto(`/policies/${ids.later}`);
  const notice = page.getByRole('alert').filter({ hasText: 'Not renewing' });
  await expect(notice.getByText('Moving abroad in January')).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('policy-not-renewing.png'), fullPage: true });
  await notice.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('Policy AL-20 is back on the expiring policies list.')).toBeVisible();
  await expect(notice).toHaveCount(0);
  await page.goto('/alerts');
  await expect(rowOf(page, 'AL-20')).toHaveCount(1);
});

test('the list sorts by premium and exports what it shows as CSV @phone', async ({
  page,
  broker,
  request,
}) => {
  test.slow();
  await seedRenewals(request, broker);
  await signInWithTokens(page, broker);
  await page.goto('/alerts');
  await expect(rowOf(page, 'AL-10')).toHaveCount(1, { timeout: 30_000 });
  if (test.info().project.name === 'mobile') {
    await page.getByRole('button', { name: 'Filters' }).click();
  }
  await page
    .getByRole('textbox', { name: 'Sort' })
    .or(page.getByRole('combobox', { name: 'Sort' }))
    .first()
    .click();
  await page.getByRole('option', { name: 'Highest premium first' }).click();
  await expect(page).toHaveURL(/ordering=-total_premium/);
  if (test.info().project.name === 'mobile') await page.getByRole('button', { name: 'Show results' }).click();
  // The first row's link: its policy number on a desk, its card (customer, then number) on a phone.
  await expect(page.getByRole('link', { name: /AL-(10|20|LAPSED)/ }).first()).toContainText('AL-10');

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export' }).click();
  await page.getByRole('menuitem', { name: 'CSV (.csv)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^expiring-policies-\d{4}-\d\d-\d\d\.csv$/);
  const text = await (await file.createReadStream()).toArray();
  const lines = Buffer.concat(text)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe(
    'Policy number,Customer,Email,Phone,Insurer,Policy type,Premium,End date,Days left,Status',
  );
  expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(['AL-10', 'AL-20', 'AL-LAPSED']);
});
