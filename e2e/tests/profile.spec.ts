import { expect, expectAccessible, settled, signInWithTokens, test } from './fixtures.js';

test('a broker edits their name and agency, then changes their password', async ({
  page,
  request,
  broker,
}) => {
  await signInWithTokens(page, broker);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: `${broker.firstName} ${broker.lastName}` })).toBeVisible();
  await page.getByRole('link', { name: 'Edit profile' }).click();
  await expect(page).toHaveURL(/\/profile\/settings$/);

  await page.getByLabel('First name').fill('Noga');
  await page.getByLabel('Agency name').fill('Noga Cover Ltd');
  const timeZone = page.getByRole('combobox', { name: 'Agency time zone' });
  await expect(timeZone).toHaveValue('UTC');
  await timeZone.fill('Jerusalem');
  await page.getByRole('option', { name: 'Asia/Jerusalem' }).click();
  const currency = page.getByRole('combobox', { name: 'Agency currency' });
  await expect(currency).toHaveValue('USD — US Dollar');
  await currency.fill('shekel');
  await page.getByRole('option', { name: 'ILS — Israeli New Shekel' }).click();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Profile saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Agency time zone' })).toHaveValue('Asia/Jerusalem');
  await expect(page.getByRole('combobox', { name: 'Agency currency' })).toHaveValue(
    'ILS — Israeli New Shekel',
  );

  await page.getByRole('textbox', { name: /^Current password/ }).fill('not the password');
  await page.getByRole('textbox', { name: /^New password/ }).fill('evening tide rolls in');
  await page.getByRole('textbox', { name: /^Repeat the new password/ }).fill('evening tide rolls in');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Your current password is incorrect.' }),
  ).toBeVisible();

  await page.getByRole('textbox', { name: /^Current password/ }).fill(broker.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed. Other devices signed out.')).toBeVisible();

  const signIn = await request.post('/api/token/', {
    data: { email: broker.email, password: 'evening tide rolls in' },
  });
  expect(signIn.status()).toBe(200);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: `Noga ${broker.lastName}` })).toBeVisible();
  await expect(page.getByText('Noga Cover Ltd').first()).toBeVisible();
});

test('the demo account explains why its password cannot change', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/profile/settings');
  await expect(page.getByText(/demo account is shared by every visitor/)).toBeVisible();
  await expect(page.getByLabel('Email')).toBeDisabled();
});

test('a broker tells their browsers apart by name and version, and ends the other one @phone', async ({
  page,
  request,
  broker,
}, testInfo) => {
  const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
  const elsewhere = await request.post('/api/token/', {
    data: { email: broker.email, password: broker.password },
    headers: { 'user-agent': firefox },
  });
  expect(elsewhere.status()).toBe(200);
  await signInWithTokens(page, broker);
  await page.goto('/profile/settings');
  const sessions = page.getByRole('list', { name: 'Sessions' });
  const other = sessions.getByRole('listitem').filter({ hasText: 'Firefox 133 on Windows' });
  await expect(other.getByText(/^Signed in /)).toBeVisible();
  await expect(other.getByText(/^Last active /)).toBeVisible();
  const mine = sessions.getByRole('listitem').filter({ hasText: 'This device' });
  await expect(mine.getByText('Active now')).toBeVisible();
  await settled(page);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('sessions.png'), fullPage: true });

  await other.getByRole('button', { name: 'End' }).click();
  const dialog = page.getByRole('dialog', { name: 'End this session' });
  await expect(dialog.getByText('Firefox 133 on Windows is signed out at once')).toBeVisible();
  await dialog.getByRole('button', { name: 'End session' }).click();
  await expect(page.getByText('Firefox 133 on Windows is signed out.')).toBeVisible();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
});
