import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import {
  adminSession,
  expect,
  expectAccessible,
  settled,
  signInWithTokens,
  switchUser,
  teamMember,
  test,
} from './fixtures.js';

/** The code an authenticator app shows for the key, `steps` 30-second steps from now. */
const codeFor = (key: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(key) }).generate({ timestamp: Date.now() + steps * 30_000 });

/** Signs out the way closing the session does, and opens the sign-in page. */
async function signInPage(page: Page, email: string, password: string) {
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: /^Password/ }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
}

/** Opens the setup on the profile settings: answers the key as the broker would type it into an app. */
async function startSetup(page: Page) {
  await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
  await expect(page.getByRole('img', { name: 'QR code of the two-step sign-in key' })).toBeVisible();
  const key = ((await page.getByTestId('totp-secret').textContent()) ?? '').replaceAll(' ', '');
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  return key;
}

test('a broker turns two-step sign-in on by typing the key, then signs in with a code and with a recovery code @phone', async ({
  page,
  broker,
}, testInfo) => {
  // Setup and two sign-ins through the form: on a busy two-core machine, past the default 30 s.
  test.slow();
  await signInWithTokens(page, broker);
  await page.goto('/profile/settings');
  const key = await startSetup(page);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('two-step-setup.png'), fullPage: true });

  // A wrong code is refused beside the field; the right one turns it on.
  const code = page.getByRole('textbox', { name: /^2\. Enter the 6-digit code/ });
  await code.fill(codeFor(key, 4));
  await page.getByRole('button', { name: 'Turn on', exact: true }).click();
  await expect(page.getByText('That code is not right.', { exact: false })).toBeVisible();
  await code.fill(codeFor(key));
  await page.getByRole('button', { name: 'Turn on', exact: true }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.first().textContent()) ?? '';
  await expect(page.getByRole('button', { name: 'Download' })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('two-step-recovery-codes.png'), fullPage: true });
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByText('On', { exact: true })).toBeVisible();

  // The password alone no longer signs in: the code does, a step ahead of the one that turned it on.
  await signInPage(page, broker.email, broker.password);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('two-step-sign-in.png'), fullPage: true });
  await page.getByRole('textbox', { name: /^Code/ }).fill(codeFor(key, 1));
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard/);

  // A lost phone: a recovery code, once.
  await signInPage(page, broker.email, broker.password);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByRole('textbox', { name: /^Recovery code/ }).fill(recovery);
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
});

test('a broker sees where they are signed in and ends another session @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  // The same broker signed in on another device.
  const elsewhere = await request.post('/api/token/', {
    data: { email: broker.email, password: broker.password },
    headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/133.0' },
  });
  const stolen = await elsewhere.json();
  await signInWithTokens(page, broker);
  await page.goto('/profile/settings');
  const sessions = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
  await expect(sessions).toHaveCount(2);
  await expect(sessions.filter({ hasText: 'This device' })).toHaveCount(1);
  const windows = sessions.filter({ hasText: 'Firefox 133 on Windows' });
  await expect(windows).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('sessions.png'), fullPage: true });

  await windows.getByRole('button', { name: 'End' }).click();
  const confirm = page.getByRole('dialog', { name: 'End this session' });
  await expect(confirm).toContainText('Firefox 133 on Windows is signed out at once');
  await confirm.getByRole('button', { name: 'End session' }).click();
  await expect(page.getByText('Firefox 133 on Windows is signed out.')).toBeVisible();
  await expect(sessions).toHaveCount(1);
  await expect(page.getByText('You are signed in on this device only.')).toBeVisible();
  // The ended session's token is refused from its next call.
  const refused = await request.get('/api/user/profile/', {
    headers: { authorization: `Bearer ${stolen.access}` },
  });
  expect(refused.status()).toBe(401);
});

test('an owner requires two-step sign-in of the agency; a new agent is told by when, and turns it on from the banner @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  await signInWithTokens(page, broker);
  await page.goto('/team');
  const required = page.getByRole('switch', { name: 'Everyone signs in with two steps' });
  await expect(required).not.toBeChecked();
  await required.click({ force: true });
  await expect(
    page.getByText(
      'Every member without two-step sign-in has until their deadline (7 days from when it was first required, or from joining) to turn it on.',
    ),
  ).toBeVisible();
  await expect(required).toBeChecked();
  await settled(page);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('team-two-step-required.png'), fullPage: true });

  // Someone who joins now has seven days from joining.
  const agent = await teamMember(request, broker, 'agent', 'Tamar');
  await switchUser(page, agent);
  await page.goto('/dashboard');
  const banner = page.getByRole('region', { name: 'Two-step sign-in' });
  const deadline = new Date(Date.now() + 7 * 86_400_000);
  await expect(banner).toBeInViewport();
  await expect(banner).toContainText('Your agency requires two-step sign-in: turn it on by');
  await expect(banner).toContainText(String(deadline.getFullYear()));
  await settled(page);
  await expectAccessible(page);
  // Below the header, not under it: the page opens at its top, whatever the page before had scrolled.
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await page.screenshot({ path: testInfo.outputPath('two-step-required-banner.png') });

  await banner.getByRole('link', { name: 'Turn it on' }).click();
  await expect(page).toHaveURL(/\/profile\/settings/);
  const key = await startSetup(page);
  await page.getByRole('textbox', { name: /^2\. Enter the 6-digit code/ }).fill(codeFor(key));
  await page.getByRole('button', { name: 'Turn on', exact: true }).click();
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByText('On', { exact: true })).toBeVisible();
  await expect(banner).toBeHidden();
});

test('an admin resets the two-step sign-in of a broker who lost their phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  const as = { authorization: `Bearer ${broker.access}` };
  const { secret } = await (await request.post('/api/user/mfa/totp/setup/', { headers: as })).json();
  const confirmed = await request.post('/api/user/mfa/totp/confirm/', {
    headers: as,
    data: { code: codeFor(secret) },
  });
  expect(confirmed.status()).toBe(200);
  const signIn = () =>
    request.post('/api/token/', { data: { email: broker.email, password: broker.password } });
  expect(await (await signIn()).json()).toMatchObject({ mfa_required: true });

  await signInWithTokens(page, await adminSession(request));
  await page.goto('/admin/users');
  await page.getByRole('textbox', { name: 'Search by email, name or agency' }).fill(broker.email);
  await expect(page.getByText('1 user', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: `Actions for ${broker.email}` }).click();
  await page.getByRole('menuitem', { name: 'Reset two-step sign-in' }).click();
  const dialog = page.getByRole('dialog', { name: `Reset two-step sign-in for ${broker.email}?` });
  await expect(dialog).toContainText('lost their phone');
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('admin-reset.png'), fullPage: true });
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Lost their phone, checked by a call back');
  await dialog.getByRole('button', { name: 'Reset two-step sign-in', exact: true }).click();
  await expect(page.getByText(`Two-step sign-in is reset for ${broker.email}.`)).toBeVisible();
  // The password alone signs them in again.
  expect(await (await signIn()).json()).toMatchObject({ access: expect.any(String) });
});
