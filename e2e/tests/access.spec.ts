import { changeSubscription, expect, signInWithTokens, test } from './fixtures.js';

test('an agency whose trial has ended is sent to billing, with profile still open', async ({
  page,
  request,
  broker,
}) => {
  await changeSubscription(request, broker.tenantId, {
    trial_ends_at: new Date(Date.now() - 60_000).toISOString(),
  });
  await signInWithTokens(page, broker);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/billing\?expired=true$/);
  await expect(page.getByRole('alert').filter({ hasText: 'Your access has ended' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Subscription' })).toContainText(
    'Your subscription has expired',
  );
  await expect(page.getByRole('link', { name: 'Renew Subscription' })).toBeVisible();

  await page.goto('/profile');
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText(broker.email)).toBeVisible();
});

test('the last days of a trial show a dismissible countdown', async ({ page, request, broker }) => {
  await changeSubscription(request, broker.tenantId, {
    trial_ends_at: new Date(Date.now() + 2 * 86_400_000 + 3_600_000).toISOString(),
  });
  await signInWithTokens(page, broker);
  await page.goto('/dashboard');
  const banner = page.getByRole('region', { name: 'Subscription' });
  await expect(banner).toContainText('Trial expires in 3 days');
  await banner.getByRole('link', { name: 'Upgrade Now' }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(banner).toHaveCount(0);
});

test('?mobile=true gives a desk the phone layout with its slide-out menu', async ({
  page,
  broker,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'the phone layout is the default on a phone');
  await signInWithTokens(page, broker);
  await page.goto('/dashboard');
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open menu' })).toHaveCount(0);

  await page.goto('/dashboard?mobile=true');
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeHidden();
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
});

test('on a phone the menu slides out and the profile menu signs out @phone', async ({
  page,
  broker,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'mobile', 'phone only');
  await signInWithTokens(page, broker);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Dashboard' })
    .click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Profile Settings' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('the admin portal is for admins only', async ({ page, broker }) => {
  await signInWithTokens(page, broker);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Admins only' })).toBeVisible();
});
