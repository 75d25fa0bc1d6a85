import { ADMIN_SCREENS } from '../../web/src/app/admin-screens.js';
import { ADMIN_EMAIL, ADMIN_HOST, APP_HOST } from '../environment.js';
import { adminSession, expect, PASSWORD, registerBroker, test } from './fixtures.js';

const port = process.env.E2E_PORT;
const adminUrl = (path: string) => `http://${ADMIN_HOST}:${port}${path}`;

async function signIn(page: import('@playwright/test').Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: /^Password/ }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('the admin host shows only the admin portal, marked as restricted', async ({ page, request }) => {
  await adminSession(request);
  await page.goto(adminUrl('/dashboard'));
  await expect(page).toHaveURL(adminUrl('/login?next=%2Fadmin'));
  await expect(page.getByText('ADMIN PORTAL — restricted access')).toBeVisible();

  await signIn(page, ADMIN_EMAIL, PASSWORD);
  await expect(page).toHaveURL(adminUrl('/admin'));
  await expect(page.getByRole('heading', { name: 'Platform health' })).toBeVisible();
  await page.goto(adminUrl('/profile'));
  await expect(page).toHaveURL(adminUrl('/admin'));
});

test('every admin screen opens on the admin host, under the red strip, with its title @phone', async ({
  page,
  request,
}) => {
  await adminSession(request);
  await page.goto(adminUrl('/login'));
  await signIn(page, ADMIN_EMAIL, PASSWORD);
  await expect(page).toHaveURL(adminUrl('/admin'));
  for (const screen of ADMIN_SCREENS) {
    await page.goto(adminUrl(screen.path));
    await expect(page, screen.path).toHaveURL(adminUrl(screen.path));
    await expect(page.getByText('ADMIN PORTAL — restricted access')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: screen.title, exact: true })).toBeVisible();
  }
});

test('a broker who reaches the admin host is signed out and sent to the broker app', async ({
  page,
  request,
}) => {
  const broker = await registerBroker(request);
  await page.goto(adminUrl('/login'));
  await signIn(page, broker.email, broker.password);
  await expect(page).toHaveURL(`http://${APP_HOST}:${port}/login`);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});
