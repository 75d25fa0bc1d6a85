import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import {
  adminSession,
  type Broker,
  changeSubscription,
  expect,
  expectAccessible,
  PASSWORD,
  seedAgency,
  settled,
  signInWithTokens,
  test,
  uniqueEmail,
} from './fixtures.js';

/**
 * The platform admin's four figure screens: the dashboard, billing, revenue and usage across
 * agencies, each with agencies of its own that pay, fall past due and keep records.
 */

async function registerAgency(request: APIRequestContext, companyName: string): Promise<Broker> {
  const details = {
    email: uniqueEmail('figures'),
    password: PASSWORD,
    first_name: 'Tal',
    last_name: 'Mizrahi',
    company_name: companyName,
  };
  const response = await request.post('/api/accounts/register/', { data: details });
  expect(response.status(), await response.text()).toBe(201);
  const { access, refresh, user } = await response.json();
  return {
    email: details.email,
    password: PASSWORD,
    firstName: details.first_name,
    lastName: details.last_name,
    companyName,
    tenantId: user.tenant_id,
    access,
    refresh,
  };
}

/** No sideways scrolling, no serious accessibility problem, and a screenshot to look at. */
async function lookAt(page: Page, name: string, testInfo: TestInfo) {
  await settled(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

test('an admin reads the platform figures on the dashboard, billing, revenue and analytics screens @phone', async ({
  page,
  request,
}, testInfo) => {
  // Four screens, each looked at and scanned.
  test.setTimeout(120_000);
  const suffix = randomUUID().slice(0, 6);
  const paying = `Harbour Lights ${suffix}`;
  const pastDue = `Quay Brokers ${suffix}`;
  const payingAgency = await registerAgency(request, paying);
  await seedAgency(request, payingAgency);
  await changeSubscription(request, payingAgency.tenantId, {
    plan: 'starter',
    status: 'active',
    billing_cycle: 'monthly',
  });
  await changeSubscription(request, (await registerAgency(request, pastDue)).tenantId, {
    plan: 'professional',
    status: 'past_due',
    billing_cycle: 'monthly',
  });
  await signInWithTokens(page, await adminSession(request));

  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin portal' })).toBeVisible();
  const figures = page.getByRole('region', { name: 'Platform figures' });
  await expect(figures.getByRole('group', { name: 'MRR' })).toContainText(/\$\d/);
  await expect(figures.getByRole('group', { name: 'Agencies' })).toContainText('new this month');
  await expect(page.getByRole('table', { name: 'Sign-ups and ended subscriptions by month' })).toBeVisible();
  await expect(page.getByText(/of \d+ applied/)).toBeVisible();
  await lookAt(page, 'admin-dashboard', testInfo);

  await page.getByRole('link', { name: 'past-due payments and billing events' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
  const pastDueList = page.getByRole('region', { name: 'Past due' });
  const agencyRow = page.getByRole(testInfo.project.name === 'mobile' ? 'link' : 'row', { name: pastDue });
  await expect(pastDueList.locator(agencyRow)).toContainText('$79.99');
  await page.getByRole('textbox', { name: 'Search agency' }).fill(suffix);
  const events = page.getByRole('region', { name: 'Billing events' });
  await expect(events.getByText(paying).first()).toBeVisible();
  await expect(events.getByText('Changed by Coverdesk support').first()).toBeVisible();
  await expect(events.getByText(/of 4 billing events/)).toBeVisible();
  await lookAt(page, 'admin-billing', testInfo);

  await page.goto('/admin/revenue-analytics');
  const revenue = page.getByRole('region', { name: 'Recurring revenue' });
  await expect(revenue.getByRole('group', { name: 'MRR' })).toContainText(/\$\d/);
  // A table on a desk, a list of cards on a phone.
  await expect(page.getByLabel('Paying subscriptions, MRR and ARR by plan')).toContainText('Starter');
  await expect(page.getByRole('heading', { name: 'How these are counted' })).toBeVisible();
  await lookAt(page, 'admin-revenue', testInfo);

  await page.goto('/admin/analytics');
  await expect(page.getByRole('heading', { name: 'Active users per day' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Records across agencies' })).toContainText('Policies');
  await page.getByRole('textbox', { name: 'Search agency' }).fill(suffix);
  const usage = page.getByRole('region', { name: 'Usage by agency' });
  // The paying agency keeps one policy for one customer.
  if (testInfo.project.name === 'mobile') {
    await expect(usage.getByRole('link', { name: paying })).toContainText('1 policy · 1 customer');
  } else {
    const cells = usage.getByRole('row', { name: paying }).getByRole('cell');
    await expect(cells.nth(2)).toHaveText('1');
    await expect(cells.nth(3)).toHaveText('1');
  }
  await expect(usage.getByText(pastDue)).toBeVisible();
  await lookAt(page, 'admin-analytics', testInfo);
});
