import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import {
  adminSession,
  expect,
  expectAccessible,
  PASSWORD,
  signInWithTokens,
  test,
  uniqueEmail,
} from './fixtures.js';

const SHOTS = process.env.AUDIT_SHOTS;

/** A filter's select: a combobox when it searches, a text box when it does not. */
const picker = (page: Page, name: string) =>
  page.getByRole('combobox', { name }).or(page.getByRole('textbox', { name }));

test("an owner finds their own sign-in and a customer they added on the profile's Activity tab @phone", async ({
  page,
  request,
  broker,
}, testInfo) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(broker.email);
  await page.getByRole('textbox', { name: /^Password/ }).fill(broker.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const added = await request.post('/api/customers/', {
    headers: { authorization: `Bearer ${broker.access}` },
    data: { first_name: 'Dana', last_name: 'Levi', city: 'Haifa' },
  });
  expect(added.status()).toBe(201);

  await page.goto('/profile');
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(page).toHaveURL(/\/profile\?tab=activity$/);
  const log = page.getByRole('tabpanel', { name: 'Activity' });
  await expect(log.getByText('Signed in', { exact: true })).toBeVisible();
  await expect(log.getByText('Created', { exact: true })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: /^Show details of Created/ }).click();
  // The changes' own table (on a desk, inside the row of the log's table).
  const changes = page
    .getByRole('table')
    .filter({ has: page.getByRole('columnheader', { name: 'Before' }) })
    .last();
  await expect(changes.getByRole('row', { name: /First name.*Dana/ })).toBeVisible();
  await expect(changes.getByRole('row', { name: /City.*Haifa/ })).toBeVisible();
  await expectAccessible(page);
  if (SHOTS)
    await page.screenshot({ path: `${SHOTS}/profile-activity-${testInfo.project.name}.png`, fullPage: true });

  // Filtered to sign-ins, the customer leaves the list.
  if (testInfo.project.name === 'mobile') await page.getByRole('button', { name: 'Filters' }).click();
  await picker(page, 'Action').click();
  await page.getByRole('option', { name: 'Signed in' }).click();
  if (testInfo.project.name === 'mobile') await page.getByRole('button', { name: 'Show results' }).click();
  await expect(page).toHaveURL(/action=sign_in/);
  await expect(log.getByText('Created', { exact: true })).toBeHidden();
  await expect(page.getByText('1 entry', { exact: true })).toBeVisible();
});

test('an admin filters user activity by agency, user and action @phone', async ({
  page,
  request,
}, testInfo) => {
  // Three screens' worth of filtering, on a machine shared with the server.
  test.slow();
  // An agency of its own name, among the many the other tests register.
  const companyName = `Golan Cover ${randomUUID().slice(0, 6)}`;
  const registered = await request.post('/api/accounts/register/', {
    data: {
      email: uniqueEmail(),
      password: PASSWORD,
      first_name: 'Maya',
      last_name: 'Golan',
      company_name: companyName,
    },
  });
  expect(registered.status()).toBe(201);
  const { access, user } = await registered.json();
  const broker = {
    email: user.email as string,
    tenantId: user.tenant_id as string,
    access: access as string,
  };
  const wrong = await request.post('/api/token/', {
    data: { email: broker.email, password: 'a wrong guess' },
  });
  expect(wrong.status()).toBe(401);
  const added = await request.post('/api/customers/', {
    headers: { authorization: `Bearer ${broker.access}` },
    data: { first_name: 'Maya', last_name: 'Golan' },
  });
  expect(added.status()).toBe(201);

  await signInWithTokens(page, await adminSession(request));
  await page.goto('/admin/user-activity');
  await expect(page.getByRole('heading', { level: 1, name: 'User activity' })).toBeVisible();
  await expect(page.getByText(/of \d+ entries|^1 entry$/)).toBeVisible();
  await expectAccessible(page);

  const mobile = testInfo.project.name === 'mobile';
  await page.getByRole('textbox', { name: 'User id or email' }).fill(broker.email);
  // The typed text is sent after a pause; the next filter is chosen once it has landed.
  await expect(page).toHaveURL(/search=/);
  if (mobile) await page.getByRole('button', { name: 'Filters' }).click();
  const agency = picker(page, 'Agency');
  await agency.click();
  await agency.fill(companyName);
  await page.getByRole('option', { name: companyName }).click();
  await expect(page).toHaveURL(new RegExp(`tenant=${broker.tenantId}`));
  await picker(page, 'Action').click();
  await page.getByRole('option', { name: 'Sign-in failed' }).click();
  if (mobile) await page.getByRole('button', { name: 'Show results' }).click();
  await expect(page).toHaveURL(/action=sign_in_failed/);
  await expect(page.getByText('1 entry', { exact: true })).toBeVisible();
  // The first on the page: the list's, before the filter's own option.
  await expect(page.getByText('Sign-in failed', { exact: true }).first()).toBeVisible();
  await expect(page.getByText(broker.email).first()).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: /^Show details of Sign-in failed/ }).click();
  await expect(page.getByText(/Request [0-9a-f-]{36}/)).toBeVisible();
  await expectAccessible(page);
  if (SHOTS)
    await page.screenshot({ path: `${SHOTS}/user-activity-${testInfo.project.name}.png`, fullPage: true });

  await page.goto(`/admin/user-activity?tenant=${broker.tenantId}&action=create`);
  await page.getByRole('button', { name: /^Show details of Created/ }).click();
  await expect(page.getByRole('row', { name: /First name.*Maya/ }).last()).toBeVisible();

  await page.goto('/admin/user-activity?date_to=2001-01-01');
  await expect(page.getByText('No activity matches these filters.')).toBeVisible();
});
