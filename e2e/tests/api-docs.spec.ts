import { expect, test } from './fixtures.js';

test('the API reference renders from the server alone, within its security policy', async ({ page }) => {
  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { name: /Coverdesk API/ })).toBeVisible();
  await expect(page.getByText('/api/accounts/register/').first()).toBeVisible();
});
