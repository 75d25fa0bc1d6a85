import { expect, signInWithTokens, test } from './fixtures.js';

/**
 * Finding one's way in the app: every menu entry leads to a working screen inside the app, never to
 * the public site. (A module still being built would say so on its screen, with a "Soon" badge in the
 * menus; none is now.)
 */
test('the menus lead to working screens, none of them on its way @phone', async ({
  page,
  broker,
}, testInfo) => {
  await signInWithTokens(page, broker);
  await page.goto('/dashboard');
  if (testInfo.project.name === 'mobile') await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(menu.getByRole('link', { name: 'Payments Management' })).toBeVisible();
  // Every module of the main navigation works now.
  await expect(menu.getByText('On its way')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('menu.png') });
  await menu.getByRole('link', { name: 'Notification Settings' }).click();
  await expect(page).toHaveURL(/\/notifications-settings$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Notification Settings' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'This part of Coverdesk is on its way' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Support', exact: true })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: /Soon/ })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('user-menu.png') });
  // The last module to land: its screen, inside the app shell.
  await page.getByRole('menuitem', { name: 'Support', exact: true }).click();
  await expect(page).toHaveURL(/\/support$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'This part of Coverdesk is on its way' })).toHaveCount(0);
});

test('an unknown path takes a signed-in broker to the dashboard, and a visitor home', async ({
  page,
  broker,
}) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('link', { name: 'Start free trial' }).first()).toBeVisible();

  await signInWithTokens(page, broker);
  await page.goto('/no-such-page');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a visitor opening a screen of the app is asked to sign in first', async ({ page }) => {
  await page.goto('/support');
  await expect(page).toHaveURL(/\/login\?next=%2Fsupport$/);
});

test('every page has the Coverdesk icon', async ({ page, request }) => {
  await page.goto('/login');
  const icon = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(icon).toBe('/favicon.svg');
  const response = await request.get(icon ?? '');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('image/svg+xml');
});
