import type { Page } from '@playwright/test';
import {
  adminSession,
  creator,
  expect,
  expectAccessible,
  seedAgency,
  signInWithTokens,
  test,
} from './fixtures.js';

const isPhone = () => test.info().project.name === 'mobile';

/** The header's way into the search: its box on a desk, its search button on a phone. */
const headerSearch = (page: Page) =>
  page.getByRole('banner').getByRole(isPhone() ? 'button' : 'textbox', { name: 'Search', exact: true });

/** The spotlight on a desk (Ctrl-K), the full-screen search on a phone (the header's search button). */
async function openSearch(page: Page) {
  if (isPhone()) await headerSearch(page).click();
  else await page.keyboard.press('Control+K');
  const dialog = page.getByRole('dialog', { name: 'Search' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('the search is the agency’s: the admin portal’s header leaves it out, and Ctrl-K opens nothing there @phone', async ({
  page,
  request,
}, testInfo) => {
  await signInWithTokens(page, await adminSession(request));
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(headerSearch(page)).toBeVisible();

  await page.goto('/admin/tenants');
  await expect(page.getByRole('heading', { name: 'Agencies', level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(headerSearch(page)).toHaveCount(0);
  await page.screenshot({
    path: testInfo.outputPath(isPhone() ? 'admin-header-phone.png' : 'admin-header.png'),
  });
  await page.keyboard.press('Control+K');
  await expect(page.getByRole('dialog', { name: 'Search' })).toHaveCount(0);
});

test('Ctrl-K finds a policy by a misspelt customer name and opens it @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.slow();
  const { policy } = await seedAgency(request, broker);
  await signInWithTokens(page, broker);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible({ timeout: 30_000 });

  const dialog = await openSearch(page);
  await expect(dialog.getByRole('textbox', { name: 'Search' })).toBeFocused();
  await page.keyboard.type('dana levy');
  await expect(dialog.getByRole('status')).toHaveText(/\d+ results?/);
  const options = dialog.getByRole('option');
  await expect(options.first()).toContainText('Dana Levi');
  const policyOption = options.filter({ hasText: 'P-1042' }).first();
  await expect(policyOption).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({
    path: testInfo.outputPath(isPhone() ? 'search-phone.png' : 'search-spotlight.png'),
  });

  // Down to the policy, then Enter: the first row is chosen as the results arrive.
  await page.keyboard.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('data-combobox-selected', 'true');
  await expect(options.nth(1)).toContainText('P-1042');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/policies/${policy}$`));
  await expect(dialog).toBeHidden();
  await expect(page.getByText('P-1042').first()).toBeVisible();

  // A search that finds nothing says so; the filter panel folds out under the box; Escape closes it all.
  const again = await openSearch(page);
  // Typed once the box has the focus, as the first search is: keys pressed while the dialog was
  // still opening went nowhere, and the box stayed empty.
  await expect(again.getByRole('textbox', { name: 'Search' })).toBeFocused();
  await page.keyboard.type('zzqxw');
  await expect(again.getByRole('status')).toHaveText('No results found for "zzqxw"');
  await again.getByRole('button', { name: 'Search filters' }).click();
  const panel = again.getByRole('region', { name: 'Search filters' });
  await expect(panel.getByRole('button', { name: 'Apply Filters' })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({
    path: testInfo.outputPath(isPhone() ? 'search-phone-filters.png' : 'search-spotlight-filters.png'),
  });
  await again.getByRole('textbox', { name: 'Search' }).press('Escape');
  await expect(again).toBeHidden();
});

test('the header search lists results as the broker types, moves with the arrows and narrows by the advanced filter', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.skip(isPhone(), 'a phone searches full screen (the test above)');
  test.slow();
  const { policy, customer, company, type } = await seedAgency(request, broker);
  await creator(request, broker)('/api/policies/', {
    policy_number: 'P-2077',
    customer_id: customer,
    company_id: company,
    policy_type_id: type,
    start_date: '2024-01-01',
    end_date: '2024-12-31',
    total_premium: '640.00',
  });
  await signInWithTokens(page, broker);
  await page.goto('/customers');
  const box = page.getByRole('banner').getByRole('textbox', { name: 'Search' });
  await expect(box).toHaveAttribute('placeholder', 'Search customers, policies, payments, companies...', {
    timeout: 30_000,
  });

  // A phone number typed another way finds the customer.
  await box.fill('0521234567');
  const dropdown = page.getByRole('listbox', { name: 'Search results' });
  await expect(page.getByRole('status').filter({ hasText: /results?$/ })).toBeVisible();
  await expect(dropdown.getByRole('option').first()).toContainText('Dana Levi');
  await page.keyboard.press('Escape');
  await expect(dropdown).toBeHidden();

  await box.fill('levi');
  // The last answer's rows stay up while the new one is on its way; its arrival chooses the first row.
  const status = page.getByRole('status').filter({ hasText: /^(Searching\.\.\.|\d+ results?)$/ });
  await expect(status).toHaveText(/^\d+ results?$/);
  const options = dropdown.getByRole('option');
  await expect(options.first()).toContainText('Dana Levi');
  await expect(options.first()).toHaveAttribute('data-combobox-selected', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('data-combobox-selected', 'true');
  await page.keyboard.press('ArrowUp');
  await expect(options.first()).toHaveAttribute('data-combobox-selected', 'true');
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('search-dropdown.png') });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/customers/${customer}$`));

  // The advanced filter: active policies only.
  await page.getByRole('button', { name: 'Search filters' }).click();
  const panel = page.getByRole('dialog', { name: 'Search filters' });
  await expect(panel.getByRole('button', { name: 'Clear Filters' })).toBeVisible();
  await panel.getByRole('combobox', { name: 'Search Type' }).click();
  await page.getByRole('option', { name: 'Policies', exact: true }).click();
  await panel.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Expired', exact: true }).click();
  await panel.getByRole('textbox', { name: 'Min Amount' }).fill('900');
  await panel.getByRole('textbox', { name: 'Max Amount' }).fill('100');
  await panel.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(panel.getByText('Max Amount must be at least Min Amount.')).toBeVisible();
  await panel.getByRole('textbox', { name: 'Min Amount' }).fill('');
  await panel.getByRole('textbox', { name: 'Max Amount' }).fill('');
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('search-filters.png') });
  await panel.getByRole('button', { name: 'Apply Filters' }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByRole('button', { name: 'Search filters (2 applied)' })).toBeVisible();
  await box.fill('dana');
  await expect(page.getByRole('status').filter({ hasText: '1 result' })).toBeVisible();
  await expect(dropdown.getByRole('option')).toHaveCount(1);
  await expect(dropdown.getByRole('option').first()).toContainText('P-2077');
  await expect(dropdown.getByRole('option').first()).not.toContainText('P-1042');
  await dropdown.getByRole('option').first().click();
  await expect(page).not.toHaveURL(new RegExp(`/policies/${policy}$`));
  await expect(page).toHaveURL(/\/policies\/[0-9a-f-]+$/);
});
