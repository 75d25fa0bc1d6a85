import type { Page } from '@playwright/test';
import {
  expect,
  expectAccessible,
  PASSWORD,
  seedAgency,
  signInWithTokens,
  test,
  uniqueEmail,
} from './fixtures.js';

/**
 * A broker's first hour: sign up, follow the setup guide, build the catalogue and the first insurer,
 * then bring in customers. Runs on a desk and on a phone.
 */
test.describe('a new broker sets up the agency', () => {
  // The guide's tests run its delay on the page's clock, which stays installed in the context.
  test.use({ showSetupGuide: true, freshContext: true });

  test('follows the setup guide to policy types and an insurer, then adds, finds and edits a customer @phone', async ({
    page,
  }, testInfo) => {
    // A whole first hour in one journey: more steps than the default time allows on a busy machine.
    test.slow();
    await registerThroughTheApp(page);

    // The Welcome popup comes a moment after the first sign-in.
    const guide = page.getByRole('dialog', { name: 'Welcome to Coverdesk' });
    await expect(guide).toBeVisible({ timeout: 5000 });
    await expect(guide.getByText('Step 1: Add policy types')).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: testInfo.outputPath('setup-guide.png') });
    await guide.getByRole('button', { name: 'Add policy types' }).click();
    await expect(page).toHaveURL(/\/policy-types$/);
    await expect(page.getByText('No policy types yet')).toBeVisible();

    await addPolicyType(page, 'Private motor', 'Auto');
    await addPolicyType(page, 'Home contents', 'Home');
    await expect(page.getByRole('link', { name: 'Home contents' })).toBeVisible();

    // An insurer selling both, at different rates, paying pro rata.
    await page.goto('/companies');
    await page.getByRole('link', { name: 'New insurer' }).first().click();
    await page.getByLabel('Insurer name').fill('Harel Insurance');
    await page.getByLabel('Contact person').fill('Avi Harel');
    await page.getByLabel('Email').fill('agents@harel.example');
    await page.getByRole('radio', { name: 'Pro Rata' }).check();
    await page.getByRole('checkbox', { name: /Private motor/ }).check();
    await page.getByLabel('Commission on Private motor (%)').fill('12.5');
    await page.getByRole('checkbox', { name: /Home contents/ }).check();
    await page.getByLabel("Insurer's name for Home contents").fill('Harel Home Plus');
    await page.getByLabel('Commission on Home contents (%)').fill('150');
    await page.getByRole('button', { name: 'Add insurer' }).click();
    await expect(page.getByText('A percentage cannot be more than 100.')).toBeVisible();
    await page.getByLabel('Commission on Home contents (%)').fill('15');
    await page.getByRole('button', { name: 'Add insurer' }).click();
    await expect(page).toHaveURL(/\/companies$/);
    await expect(page.getByText('Harel Home Plus 15.00%, Private motor 12.50%')).toBeVisible();
    await expect(page.getByText('Pro Rata').first()).toBeVisible();

    // The first customer.
    await page.goto('/customers');
    await page
      .getByRole('link', { name: /New customer|Add your first customer/ })
      .first()
      .click();
    await page.getByRole('textbox', { name: 'First name', exact: true }).fill('Dana');
    await page.getByRole('textbox', { name: 'Last name', exact: true }).fill('Levi');
    await page.getByLabel('Email').fill('dana.levi@example.com');
    await page.getByLabel('Phone').fill('052-123-4567');
    await page.getByLabel('City').fill('Haifa');
    await page.getByRole('button', { name: /Add customer|Save/ }).click();
    await expect(page.getByRole('heading', { name: 'Dana Levi' })).toBeVisible();

    // Found again by search, then edited.
    await page.goto('/customers');
    await page.getByRole('textbox', { name: 'Search customers' }).fill('levi');
    await expect(page).toHaveURL(/search=levi/);
    await page
      .getByRole('link', { name: /Dana Levi/ })
      .first()
      .click();
    await expect(page.getByRole('heading', { name: 'Dana Levi' })).toBeVisible();
    await page.getByRole('button', { name: /Actions|More/ }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await page.getByLabel('City').fill('Tel Aviv');
    await page.getByRole('button', { name: /Save/ }).click();
    await expect(page.getByRole('heading', { name: 'Dana Levi' })).toBeVisible();
    await expect(page.getByText('Tel Aviv')).toBeVisible();

    // A second customer with Dana's email is flagged, with a link to her.
    await page.goto('/customers/create');
    await page.getByRole('textbox', { name: 'First name', exact: true }).fill('Dan');
    await page.getByRole('textbox', { name: 'Last name', exact: true }).fill('Levy');
    await page.getByLabel('Email').fill('Dana.Levi@example.com');
    const warning = page.getByRole('status').filter({ hasText: 'already exists' });
    await expect(warning).toBeVisible();
    await warning.getByRole('link', { name: 'Dana Levi' }).click();
    await expect(page.getByRole('heading', { name: 'Dana Levi' })).toBeVisible();
  });

  test('the guide can be put off for good, and does not return on the next sign-in', async ({ page }) => {
    const email = await registerThroughTheApp(page);
    const guide = page.getByRole('dialog', { name: 'Welcome to Coverdesk' });
    await guide.getByRole('button', { name: 'Do not show this again' }).click();
    await expect(guide).toBeHidden();

    await signOut(page);
    // The page's clock, so the guide's delay after a sign-in is run through rather than waited out.
    await page.clock.install();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('textbox', { name: /^Password/ }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await page.clock.runFor(2500);
    await expect(guide).toBeHidden();
  });
});

test('a policy type an insurer sells is explained rather than deleted, and can be deactivated @phone', async ({
  page,
  broker,
  request,
}) => {
  const headers = { authorization: `Bearer ${broker.access}` };
  const type = await (
    await request.post('/api/policy-types/', { headers, data: { name: 'Travel', category: 'travel' } })
  ).json();
  await request.post('/api/companies/', {
    headers,
    data: { name: 'Menora', policy_types: [{ policy_type_id: type.id, commission_percentage: 10 }] },
  });
  await page.goto('/login');
  await page.getByLabel('Email').fill(broker.email);
  await page.getByRole('textbox', { name: /^Password/ }).fill(broker.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto(`/policy-types/${type.id}/edit`);
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete policy type Travel?' });
  await dialog.getByRole('button', { name: 'Delete' }).click();
  const inUse = page.getByRole('dialog', { name: 'Travel is in use' });
  await expect(inUse.getByText(/an insurer sells it \(Menora\)/)).toBeVisible();
  await expectAccessible(page);
  await inUse.getByRole('button', { name: 'Deactivate instead' }).click();
  await expect(page).toHaveURL(/\/policy-types$/);
  // A table row on a desk, a card on a phone.
  const travel = page.locator('tr, a').filter({ hasText: 'Travel' }).filter({ hasText: 'Inactive' });
  await expect(travel.first()).toBeVisible();
});

test('an insurer just added is in the list at once, even while the list reloads slowly', async ({
  page,
  broker,
}) => {
  await signInWithTokens(page, broker);
  // A slow list makes an out-of-date copy visible, if one were shown while the new list loads.
  await page.route('**/api/companies/?*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await route.continue();
  });
  const pager = page.getByText(/^(\d+–\d+ of \d+ insurers|1 insurer)$/);
  for (const [name, expected] of [
    ['Harel Insurance', '1 insurer'],
    ['Menora Mivtachim', '1–2 of 2 insurers'],
  ] as const) {
    await page.goto('/companies');
    await page.getByRole('link', { name: 'New insurer' }).first().click();
    await page.getByLabel('Insurer name').fill(name);
    await page.getByRole('button', { name: 'Add insurer' }).click();
    await expect(page).toHaveURL(/\/companies$/);
    // The first count shown, not one that settles later.
    await pager.waitFor();
    expect(await pager.textContent()).toBe(expected);
  }
});

test('the dashboard shows the setup steps until the agency has policies, then its figures', async ({
  page,
  broker,
  request,
}) => {
  await signInWithTokens(page, broker);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Setting up your agency' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add an insurer' })).toBeVisible();

  await seedAgency(request, broker);
  await page.reload();
  const figures = page.getByRole('region', { name: 'Key figures' });
  await expect(figures.getByRole('link', { name: /^Active policies/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Setting up your agency' })).toHaveCount(0);
  await figures.getByRole('link', { name: /^Overdue instalments/ }).click();
  await expect(page).toHaveURL(/\/payments\?status=overdue$/);
});

async function registerThroughTheApp(page: Page): Promise<string> {
  const email = uniqueEmail('first-hour');
  await page.goto('/register');
  await page.getByLabel('First name').fill('Noa');
  await page.getByLabel('Last name').fill('Peretz');
  await page.getByLabel('Agency name').fill('Peretz Cover');
  await page.getByLabel('Work email').fill(email);
  await page.getByRole('textbox', { name: /^Password/ }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create my agency' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return email;
}

async function addPolicyType(page: Page, name: string, category: string) {
  await page.getByRole('link', { name: 'New policy type' }).first().click();
  await page.getByLabel('Name').fill(name);
  await page.getByRole('combobox', { name: 'Category' }).click();
  await page.getByRole('option', { name: category }).click();
  await page.getByRole('button', { name: 'Add policy type' }).click();
  await expect(page).toHaveURL(/\/policy-types$/);
  await expect(page.getByText(`${name} added.`)).toBeVisible();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: /Sign out/i }).click();
  await expect(page).toHaveURL(/\/login$/);
}
