import {
  closeNotificationPopup,
  expect,
  lastEmailTo,
  PASSWORD,
  registerBroker,
  test,
  uniqueEmail,
} from './fixtures.js';

test('a new broker registers their agency and lands on the dashboard', async ({ page }) => {
  const email = uniqueEmail('new');
  await page.goto('/register');
  await page.getByLabel('First name').fill('Maya');
  await page.getByLabel('Last name').fill('Cohen');
  await page.getByLabel('Agency name').fill('Cohen Cover');
  await page.getByLabel('Work email').fill(email);
  await page.getByRole('textbox', { name: /^Password/ }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create my agency' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Good to see you, Maya.')).toBeVisible();
});

test('registration shows the server and browser checks beside the fields', async ({ page, broker }) => {
  await page.goto('/register');
  await page.getByRole('button', { name: 'Create my agency' }).click();
  await expect(page.getByText('Enter a valid email address.')).toBeVisible();
  await page.getByLabel('First name').fill('Maya');
  await page.getByLabel('Last name').fill('Cohen');
  await page.getByLabel('Agency name').fill('Cohen Cover');
  await page.getByLabel('Work email').fill(broker.email);
  await page.getByRole('textbox', { name: /^Password/ }).fill('password1');
  await page.getByRole('button', { name: 'Create my agency' }).click();
  await expect(page.getByText('This password is too common.')).toBeVisible();
  await page.getByRole('textbox', { name: /^Password/ }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create my agency' }).click();
  await expect(page.getByText('A user with that email already exists.')).toBeVisible();
});

test('a broker signs in, and a wrong password is refused with a clear message', async ({ page, broker }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(broker.email);
  await page.getByRole('textbox', { name: /^Password/ }).fill('not my password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('No active account found with the given credentials');
  await expect(page).toHaveURL(/\/login$/);

  await page.getByRole('textbox', { name: /^Password/ }).fill(broker.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(broker.companyName).first()).toBeVisible();
});

test('a visitor tries the demo, sees the demo banner, and leaves for a real account', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await closeNotificationPopup(page);
  const banner = page.getByRole('region', { name: 'Demo mode' });
  await expect(banner).toContainText('Demo Mode');
  await banner.getByRole('button', { name: 'Start Real Account' }).click();
  await expect(page).toHaveURL(/\/register$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
});

test('signing out ends the session and closes the app', async ({ page, broker }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(broker.email);
  await page.getByRole('textbox', { name: /^Password/ }).fill(broker.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: /sign out/i }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('coverdesk.refresh'))).toBeNull();
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login\?next=%2Fprofile$/);
});

test('a login-required page sends a visitor to sign in and back again', async ({ page, broker }) => {
  await page.goto('/profile/settings');
  await expect(page).toHaveURL(/\/login\?next=%2Fprofile%2Fsettings$/);
  await page.getByLabel('Email').fill(broker.email);
  await page.getByRole('textbox', { name: /^Password/ }).fill(broker.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/profile\/settings$/);
  await expect(page.getByRole('heading', { name: 'Your details' })).toBeVisible();
});

test('a forgotten password is reset through the emailed link', async ({ page, request }) => {
  const broker = await registerBroker(request);
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await page.getByLabel('Email').fill(broker.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();

  const mail = await lastEmailTo(request, broker.email);
  const link = mail.match(/https?:\/\/[^\s]+\/reset-password\/[A-Za-z0-9_-]+/)?.[0];
  expect(link).toBeDefined();
  await page.goto(new URL(link ?? '').pathname);
  await page.getByRole('textbox', { name: /^New password/ }).fill('a brand new morning');
  await page.getByRole('textbox', { name: /^Repeat the new password/ }).fill('a brand new morning');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL(/\/login\?reset=done$/);
  await page.getByLabel('Email').fill(broker.email);
  await page.getByRole('textbox', { name: /^Password/ }).fill('a brand new morning');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('the keyboard alone is enough to sign in', async ({ page, broker }) => {
  await page.goto('/login');
  await page.getByLabel('Email').focus();
  await page.keyboard.type(broker.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(broker.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
});
