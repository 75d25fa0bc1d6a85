import type { Page, TestInfo } from '@playwright/test';
import {
  adminSession,
  expect,
  expectAccessible,
  lastEmailTo,
  signInWithTokens,
  test,
  uniqueEmail,
} from './fixtures.js';

/** This worker's mail catcher's SMTP port (see playwright.config.ts). */
const catcherPort = Number(process.env.E2E_SMTP_PORT);

/** The platform settings as they were before a test changed them. */
let settingsBefore: object | undefined;

// The suite shares one server: whatever happened in a test (even a timeout), the settings go back.
test.afterEach(async ({ request }) => {
  const headers = { authorization: `Bearer ${(await adminSession(request)).access}` };
  if (settingsBefore) {
    const restored = await request.put('/api/admin/settings/', { headers, data: settingsBefore });
    expect(restored.status()).toBe(200);
    settingsBefore = undefined;
  }
  await request.delete('/api/admin/email-setup/', { headers });
});

/** Checked and photographed as a person would see it: no sideways scrolling, nothing axe finds serious. */
async function lookAt(page: Page, name: string, testInfo: TestInfo) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

test('an admin closes sign-ups, the register page says so, and they open again', async ({
  page,
  request,
  browser,
}, testInfo) => {
  test.slow();
  const admin = await adminSession(request);
  const headers = { authorization: `Bearer ${admin.access}` };
  settingsBefore = await (await request.get('/api/admin/settings/', { headers })).json();
  await signInWithTokens(page, admin);
  await page.goto('/admin/settings');
  const signups = page.getByRole('switch', { name: 'Sign-ups open' });
  await expect(signups).toBeChecked();
  await lookAt(page, 'settings', testInfo);

  await signups.click({ force: true });
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeVisible();

  const visitor = await browser.newContext();
  const register = await visitor.newPage();
  await register.goto('/register');
  await expect(register.getByRole('heading', { name: 'Sign-ups are closed' })).toBeVisible();
  await expect(register.getByRole('button', { name: 'Create my agency' })).toHaveCount(0);
  await lookAt(register, 'register-closed', testInfo);

  await signups.click({ force: true });
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeVisible();
  await register.reload();
  await expect(register.getByRole('heading', { name: 'Start your free trial' })).toBeVisible();
  await visitor.close();
});

test('an admin points email at a mail server and a test shows its answer', async ({
  page,
  request,
}, testInfo) => {
  test.slow();
  const admin = await adminSession(request);
  await signInWithTokens(page, admin);
  await page.goto('/admin/email-setup');
  await expect(page.getByText(/In use: SMTP_URL/)).toBeVisible();

  await page.getByRole('textbox', { name: 'Host' }).fill('127.0.0.1');
  await page.getByRole('combobox', { name: 'Security' }).click();
  await page.getByRole('option', { name: 'None' }).click();
  await page.getByRole('textbox', { name: 'Port' }).fill(String(catcherPort));
  await page.getByRole('textbox', { name: 'From address' }).fill('hello@coverdesk.test');
  await page.getByRole('textbox', { name: 'From name' }).fill('Coverdesk Support');
  await page.getByRole('button', { name: 'Save email settings' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Email goes out through this server' }),
  ).toBeVisible();
  await expect(page.getByText(/In use: the settings saved here/)).toBeVisible();

  const to = uniqueEmail('mail-test');
  await page.getByRole('textbox', { name: 'Send to' }).fill(to);
  await page.getByRole('button', { name: 'Send test email' }).click();
  const answer = page.getByRole('status').filter({ hasText: `Accepted for ${to}` });
  await expect(answer).toBeVisible();
  await expect(answer.locator('pre')).toHaveText(/^250 /);
  const received = await lastEmailTo(request, to);
  expect(received).toContain('Subject: Coverdesk test email');
  expect(received).toContain('From: Coverdesk Support <hello@coverdesk.test>');
  await lookAt(page, 'email-setup', testInfo);

  await page.getByRole('button', { name: 'Stop using these settings' }).click();
  await page.getByRole('button', { name: 'Delete saved settings' }).click();
  await expect(page.getByText(/In use: SMTP_URL/)).toBeVisible();
});

test('the saved mail password is asked for again before it goes to another server', async ({
  page,
  request,
}) => {
  const admin = await adminSession(request);
  const headers = { authorization: `Bearer ${admin.access}` };
  const saved = await request.put('/api/admin/email-setup/', {
    headers,
    data: {
      host: 'smtp.coverdesk.test',
      port: 587,
      security: 'starttls',
      username: 'coverdesk',
      password: 'the saved mail password',
      from_email: 'hello@coverdesk.test',
      from_name: 'Coverdesk',
    },
  });
  expect(saved.status()).toBe(200);
  await signInWithTokens(page, admin);
  await page.goto('/admin/email-setup');
  const host = page.getByRole('textbox', { name: 'Host' });
  await expect(host).toHaveValue('smtp.coverdesk.test');

  // Only the sender changes: the saved password stays and nothing is asked.
  await page.getByRole('textbox', { name: 'From name' }).fill('Coverdesk Support');
  await page.getByRole('button', { name: 'Save email settings' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Email goes out through this server' }),
  ).toBeVisible();

  await host.fill('mail.elsewhere.example');
  await page.getByRole('button', { name: 'Save email settings' }).click();
  await expect(page.getByText('Enter the password again: the server changed.')).toBeVisible();
  const stored = await (await request.get('/api/admin/email-setup/', { headers })).json();
  expect(stored).toMatchObject({ host: 'smtp.coverdesk.test', from_name: 'Coverdesk Support' });

  await page.getByLabel('Password', { exact: true }).fill('the new server password');
  await page.getByRole('button', { name: 'Save email settings' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Email goes out through this server' }),
  ).toBeVisible();
  const moved = await (await request.get('/api/admin/email-setup/', { headers })).json();
  expect(moved).toMatchObject({ host: 'mail.elsewhere.example', password: { set: true } });
});

test("Paddle's setup keeps secrets write-only and checks each price id", async ({
  page,
  request,
}, testInfo) => {
  const admin = await adminSession(request);
  await signInWithTokens(page, admin);
  await page.goto('/admin/paddle-setup');
  await expect(page.getByText(/Paddle is not set up yet/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Check connection' })).toBeDisabled();
  await lookAt(page, 'paddle-setup', testInfo);

  // Checked in the browser before anything is sent: nothing is saved, so billing stays manual.
  await page.getByRole('textbox', { name: 'Professional monthly price id' }).fill('price-1');
  await page.getByRole('button', { name: 'Save Paddle settings' }).click();
  await expect(page.getByText('A Paddle price id reads pri_ followed by letters and digits.')).toBeVisible();
  await expect(page.getByText('Enter the API key.')).toBeVisible();
  await expect(page.getByText('Enter the webhook secret.')).toBeVisible();
  await lookAt(page, 'paddle-setup-errors', testInfo);
});
