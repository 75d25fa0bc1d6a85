import {
  closeNotificationPopup,
  creator,
  expect,
  expectAccessible,
  settled,
  signInWithTokens,
  test,
} from './fixtures.js';

/** A calendar day `days` from today (UTC, the test agencies' time zone). */
const dayFrom = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A headline figure's card, which is the link to the list it counts. */
const figure = (page: import('@playwright/test').Page, label: string) =>
  page.getByRole('region', { name: 'Key figures' }).getByRole('link', { name: new RegExp(`^${label}`) });

test("the demo agency's dashboard: its figures, charts and lists, and a card that opens the list it counts", async ({
  page,
}, testInfo) => {
  // Opening the demo builds its agency first.
  test.slow();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await closeNotificationPopup(page);
  await expect(page.getByLabel('Loading')).toHaveCount(0, { timeout: 30_000 });
  for (const label of [
    'Active policies',
    'Premium in force',
    'Overdue instalments',
    'Commission this year',
    'Open leads',
    'Open claims',
  ]) {
    await expect(figure(page, label)).toBeVisible();
  }
  await expect(page.getByRole('heading', { name: 'Overdue payments' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Renewals due' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Recent leads' })).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Premium written and commission earned on customer payments by month' }),
  ).toBeVisible();
  await expect(page.getByRole('table', { name: 'Commission by insurer this year' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Policies in force by type' })).toBeVisible();
  await settled(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('dashboard-demo.png'), fullPage: true });

  // The card's count is the filtered list's.
  const overdue = await figure(page, 'Overdue instalments').locator('p').nth(1).textContent();
  await figure(page, 'Overdue instalments').click();
  await expect(page).toHaveURL(/\/payments\?status=overdue$/);
  await expect(page.getByText(`of ${overdue} instalments`).first()).toBeVisible();
});

test('a broker records an overdue payment from the dashboard, and its figures follow', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.slow();
  const post = creator(request, broker);
  const type = await post('/api/policy-types/', { name: 'Private motor', category: 'auto' });
  const company = await post('/api/companies/', {
    name: 'Harel Insurance',
    policy_types: [{ policy_type_id: type, commission_percentage: '10' }],
  });
  const customer = await post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' });
  // Started 70 days ago and paid monthly: its first three instalments are overdue.
  await post('/api/policies/', {
    policy_number: 'P-2040',
    customer_id: customer,
    company_id: company,
    policy_type_id: type,
    start_date: dayFrom(-70),
    end_date: dayFrom(20),
    total_premium: '900.00',
    payment_frequency: 'monthly',
  });
  await signInWithTokens(page, broker);
  await page.goto('/dashboard');
  // The embedded database answers one query at a time: a demo being built elsewhere holds it up.
  await expect(page.getByLabel('Loading')).toHaveCount(0, { timeout: 30_000 });
  await expect(figure(page, 'Overdue instalments')).toHaveText(/^Overdue instalments3\$900\.00 unpaid$/);
  await expect(figure(page, 'Expiring in 30 days')).toHaveText(/^Expiring in 30 days1Ending by/);
  const overdueList = page.getByRole('region', { name: 'Overdue payments' });
  await expect(overdueList.getByText('70 days overdue')).toBeVisible();

  await overdueList.getByRole('button', { name: 'Record a payment on P-2040, instalment 1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Payment on P-2040, instalment 1' });
  await expect(dialog.getByRole('textbox', { name: 'Amount' })).toHaveValue('300.00');
  await dialog.getByRole('button', { name: 'Record' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(figure(page, 'Overdue instalments')).toHaveText(/^Overdue instalments2\$600\.00 unpaid$/);
  await expect(overdueList.getByText('70 days overdue')).toHaveCount(0);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('dashboard-paid-in-place.png'), fullPage: true });

  await figure(page, 'Expiring in 30 days').click();
  await expect(page).toHaveURL(/\/policies\?expiring_within_days=30$/);
  await expect(page.getByText('P-2040').first()).toBeVisible();
});

test("a new agency's dashboard shows the setup steps and what each card will show", async ({
  page,
  broker,
}, testInfo) => {
  test.slow();
  await signInWithTokens(page, broker);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Setting up your agency' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add an insurer' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'What your dashboard will show' })).toBeVisible();
  await expect(
    page.getByText('Instalments unpaid after their due date, and what is owed on them.'),
  ).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Quick actions' }).getByRole('link', { name: 'New customer' }),
  ).toBeVisible();
  await settled(page);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('dashboard-new-agency.png'), fullPage: true });
});
