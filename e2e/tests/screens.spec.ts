import { adminSession, expect, expectAccessible, signInWithTokens, test } from './fixtures.js';

/**
 * Every screen of the app shell, looked at: no serious accessibility problem, no console error,
 * nothing scrolling sideways, and a screenshot per viewport for people to review.
 */
const PUBLIC_SCREENS = [
  { path: '/', heading: /./ },
  { path: '/features', heading: /./ },
  { path: '/pricing', heading: /./ },
  { path: '/about', heading: /./ },
  { path: '/terms', heading: /./ },
  { path: '/contact', heading: /./ },
  { path: '/checkout?plan=professional', heading: /./ },
  { path: '/login', heading: 'Sign in' },
  { path: '/register', heading: 'Start your free trial' },
  { path: '/forgot-password', heading: 'Forgot your password?' },
  { path: '/reset-password/some-token', heading: 'Choose a new password' },
];

const SIGNED_IN_SCREENS = [
  { path: '/dashboard', heading: 'Dashboard' },
  { path: '/profile', heading: 'Profile' },
  { path: '/profile/settings', heading: 'Profile settings' },
  { path: '/billing', heading: 'Billing' },
];

async function lookAt(
  page: import('@playwright/test').Page,
  name: string,
  testInfo: import('@playwright/test').TestInfo,
) {
  await page.waitForLoadState('networkidle');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

for (const screen of PUBLIC_SCREENS) {
  test(`public screen ${screen.path}`, async ({ page }, testInfo) => {
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible();
    await lookAt(page, screen.path.replace(/[^a-z]+/g, '-') || 'home', testInfo);
  });
}

for (const screen of SIGNED_IN_SCREENS) {
  test(`signed-in screen ${screen.path}`, async ({ page, broker }, testInfo) => {
    await signInWithTokens(page, broker);
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible();
    await lookAt(page, screen.path.replace(/[^a-z]+/g, '-'), testInfo);
  });
}

test('admin screen /admin', async ({ page, request }, testInfo) => {
  await signInWithTokens(page, await adminSession(request));
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin portal' })).toBeVisible();
  await expect(page.getByText(/of \d+ applied/)).toBeVisible();
  await lookAt(page, 'admin', testInfo);
});
