import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import {
  adminSession,
  expect,
  expectAccessible,
  PASSWORD,
  signInWithTokens,
  test,
  uniqueEmail,
} from './fixtures.js';

/** An agency with a name no other test uses, registered by its owner. */
async function registerAgency(request: APIRequestContext) {
  const name = `Lighthouse Cover ${randomUUID().slice(0, 6)}`;
  const email = uniqueEmail('owner');
  const response = await request.post('/api/accounts/register/', {
    data: { email, password: PASSWORD, first_name: 'Tamar', last_name: 'Shore', company_name: name },
  });
  expect(response.status()).toBe(201);
  const { user } = (await response.json()) as { user: { id: string; tenant_id: string } };
  return { name, email, tenantId: user.tenant_id };
}

/** A date as the screens show it, in the browser's own locale. */
const shownDate = (page: Page, iso: string) =>
  page.evaluate(
    (moment) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(moment)),
    iso,
  );

async function trialEnd(request: APIRequestContext, tenantId: string, access: string): Promise<string> {
  const response = await request.get(`/api/admin/tenants/${tenantId}/`, {
    headers: { authorization: `Bearer ${access}` },
  });
  return ((await response.json()) as { subscription: { trial_ends_at: string } }).subscription.trial_ends_at;
}

/** Confirms the open reason dialog with its own button. */
async function confirmWithReason(page: Page, button: string, reason: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(dialog).toHaveCount(0);
}

test('an admin finds an agency by name and extends its trial with a reason @phone', async ({
  page,
  request,
}) => {
  // Four screens, each checked for accessibility.
  test.slow();
  const agency = await registerAgency(request);
  const admin = await adminSession(request);
  const before = await trialEnd(request, agency.tenantId, admin.access);
  await signInWithTokens(page, admin);

  await page.goto('/admin/tenants');
  await page.getByRole('textbox', { name: 'Search agencies or emails' }).fill(agency.name);
  await expect(page.getByText('1 agency', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: new RegExp(agency.name) }).click();

  await expect(page.getByRole('heading', { name: agency.name })).toBeVisible();
  await expect(page.getByText(agency.email).first()).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Subscription' }).click();
  await expect(page.getByText(await shownDate(page, before), { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Extend trial' }).click();
  const dialog = page.getByRole('dialog', { name: `Extend trial: ${agency.name}` });
  await dialog.getByRole('textbox', { name: 'Days' }).fill('10');
  await expectAccessible(page);
  await confirmWithReason(page, 'Extend trial', 'Their onboarding call moved to next week');

  await expect(page.getByText(/^The trial now ends on /)).toBeVisible();
  const after = await trialEnd(request, agency.tenantId, admin.access);
  expect(new Date(after).getTime() - new Date(before).getTime()).toBe(10 * 86_400_000);
  await expect(page.getByText(await shownDate(page, after), { exact: true })).toBeVisible();
  await expectAccessible(page);

  // The overview lists the action among the agency's latest activity, with its reason.
  await page.getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByText(/Their onboarding call moved to next week/)).toBeVisible();
});

test('an admin disables a user, who can no longer sign in, and enables them again', async ({
  page,
  request,
}) => {
  const agency = await registerAgency(request);
  const admin = await adminSession(request);
  await signInWithTokens(page, admin);

  await page.goto('/admin/users');
  await page.getByRole('textbox', { name: 'Search by email, name or agency' }).fill(agency.email);
  await expect(page.getByText('1 user', { exact: true })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: `Actions for ${agency.email}` }).click();
  await page.getByRole('menuitem', { name: 'Disable account' }).click();
  await expect(page.getByRole('dialog', { name: `Disable ${agency.email}?` })).toBeVisible();
  await expectAccessible(page);
  await confirmWithReason(page, 'Disable account', 'Left the agency');
  await expect(page.getByText(`${agency.email} is disabled and signed out.`)).toBeVisible();
  await expect(page.getByText('Disabled', { exact: true })).toBeVisible();

  const refused = await request.post('/api/token/', { data: { email: agency.email, password: PASSWORD } });
  expect(refused.status()).toBe(403);

  await page.getByRole('button', { name: `Actions for ${agency.email}` }).click();
  await page.getByRole('menuitem', { name: 'Enable account' }).click();
  await confirmWithReason(page, 'Enable account', 'Came back to the agency');
  await expect(page.getByText(`${agency.email} can sign in again.`)).toBeVisible();
  await expect(page.getByText('Disabled', { exact: true })).toHaveCount(0);
  const signedIn = await request.post('/api/token/', { data: { email: agency.email, password: PASSWORD } });
  expect(signedIn.status()).toBe(200);
});

test('the platform admins screen lists the admin, who cannot revoke themself', async ({ page, request }) => {
  const admin = await adminSession(request);
  await signInWithTokens(page, admin);
  await page.goto('/admin/super-admin');
  await expect(page.getByText('e2e-admin@coverdesk.test').first()).toBeVisible();
  await expect(
    page
      .getByText(/You can't remove yourself; another admin must\.|Remove from the server's admin list/)
      .first(),
  ).toBeVisible();
  await expectAccessible(page);
});
