import { expect, signInWithTokens, test } from './fixtures.js';

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
