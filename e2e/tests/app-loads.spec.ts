import { expect, test } from './fixtures.js';

test('a visitor sees what Coverdesk is', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Coverdesk' })).toBeVisible();
  await expect(page.getByText(/insurance agents, brokers and agencies/)).toBeVisible();
});

test('a newly registered broker opens the app and is recognised', async ({ page, broker }, testInfo) => {
  await page.addInitScript((token) => localStorage.setItem('coverdesk.access', token), broker.access);
  await page.goto('/');
  await expect(page.getByText(`Welcome, ${broker.firstName} ${broker.lastName}.`)).toBeVisible();
  await expect(page.getByText(broker.companyName)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('signed-in.png'), fullPage: true });
});

test('deep links are answered by the app, not a server 404', async ({ page }) => {
  const response = await page.goto('/policies/some-id');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Coverdesk' })).toBeVisible();
});
