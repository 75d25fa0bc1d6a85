import type { Page } from '@playwright/test';
import { adminSession, expect, expectAccessible, signInWithTokens, test } from './fixtures.js';

const isPhone = (page: Page) => (page.viewportSize()?.width ?? 0) <= 768;

test.beforeEach(async ({ page, request }) => {
  await signInWithTokens(page, await adminSession(request));
});

test('system health shows the database, migrations, job queues, email and the server', async ({ page }) => {
  await page.goto('/admin/system-health');
  await expect(page.getByRole('heading', { level: 1, name: 'System health' })).toBeVisible();
  await expect(page.getByText('Working normally')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Database' })).toBeVisible();
  await expect(page.getByText('Reachable', { exact: true })).toBeVisible();
  await expect(page.getByText('The database is up to date.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Job queues' })).toBeVisible();
  await expect(page.getByText('Reminder emails').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Email, last 24 hours' })).toBeVisible();
  await expect(page.getByText('Running for')).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByText(/^Checked /)).toBeVisible();
});

test('performance lists the routes this server answered, slowest first, for the hour or the day @phone', async ({
  page,
}) => {
  await page.goto('/admin/performance');
  await expect(page.getByRole('heading', { level: 1, name: 'Performance' })).toBeVisible();
  await expect(page.getByText(/this server instance's own/)).toBeVisible();
  // The screen's own call is among the routes counted.
  const route = page.getByText('/api/admin/system-health/').or(page.getByText('/api/admin/performance/'));
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(route.first()).toBeVisible();
  if (!isPhone(page)) {
    await expect(page.getByRole('columnheader', { name: 'p95' })).toHaveAttribute('aria-sort', 'descending');
    await page.getByRole('button', { name: 'Requests' }).click();
    await expect(page.getByRole('columnheader', { name: 'Requests' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  } else {
    await expect(page.getByLabel('Sort by')).toHaveValue('p95_ms:desc');
  }
  await page.getByText('Last day').click();
  await expect(route.first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Slowest database queries' })).toBeVisible();
  // The test server runs on embedded PGlite, which keeps no query statistics.
  await expect(page.getByText(/PGlite, which does not collect query statistics/)).toBeVisible();
  await expectAccessible(page);
});

test('caches show their hit rates, and one is cleared after a confirmation', async ({ page }) => {
  await page.goto('/admin/cache');
  await expect(page.getByRole('heading', { level: 1, name: 'Caches' })).toBeVisible();
  await expect(page.getByText('verified-tokens', { exact: true })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Clear the verified-tokens cache' }).click();
  const dialog = page.getByRole('dialog', { name: 'Clear the verified-tokens cache?' });
  await expect(dialog.getByText(/recorded in the audit log/)).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Clear cache' }).click();
  await expect(page.getByText('The verified-tokens cache is empty.')).toBeVisible();
  await expect(dialog).toBeHidden();
  // Still signed in: the next request checked the token again and filled the cache.
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByText('verified-tokens', { exact: true })).toBeVisible();
});
