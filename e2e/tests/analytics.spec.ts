import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import {
  type Broker,
  changeSubscription,
  creator,
  expect,
  expectAccessible,
  payInstalment,
  signInWithTokens,
  test,
} from './fixtures.js';

/**
 * The three premium analytics screens on a small book worked out by hand. Its dates hang on today
 * (the agency keeps UTC, the default), so the figures hold whatever day the tests run:
 *
 *   policy  customer  insurer (pays)     type   premium  net      %     expected  paid      received
 *   A-1     Dana      Harel (pro rata)   Motor  1200.00  1000.00  12.5  125.00    all       125.00   started 30 days ago
 *   B-2     Dana      Migdal (full)      Home    800.00   800.00  15    120.00    nothing     0.00   started 10 days ago, quarterly: 200.00 overdue
 *   C-3     Yossi     Harel (pro rata)   Home    600.00   600.00  10     60.00    all        60.00   started 100 days ago, ends in 20 days
 *   Maya has no policy.
 *
 * In force: 3 policies, 2,600.00; Harel 1,800.00 (69.23%), Migdal 800.00 (30.77%); Home 1,400.00
 * (53.85%), Motor 1,200.00 (46.15%). Renewals due within 30, 60 and 90 days: C-3, 600.00.
 */
async function seedBook(request: APIRequestContext, broker: Broker) {
  const post = creator(request, broker);
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const motor = await post('/api/policy-types/', { name: 'Motor', category: 'auto' });
  const home = await post('/api/policy-types/', { name: 'Home', category: 'home' });
  const harel = await post('/api/companies/', {
    name: 'Harel',
    commission_payment_method: 'pro_rata',
    policy_types: [
      { policy_type_id: motor, commission_percentage: '12.5' },
      { policy_type_id: home, commission_percentage: '10' },
    ],
  });
  const migdal = await post('/api/companies/', {
    name: 'Migdal',
    commission_payment_method: 'full_policy',
    policy_types: [{ policy_type_id: home, commission_percentage: '15' }],
  });
  const dana = await post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' });
  const yossi = await post('/api/customers/', { first_name: 'Yossi', last_name: 'Cohen' });
  await post('/api/customers/', { first_name: 'Maya', last_name: 'Azulay' });
  const policy = (
    number: string,
    customer: string,
    company: string,
    type: string,
    [start, end]: [number, number],
    premium: string,
    net: string,
    frequency: string,
  ) =>
    post('/api/policies/', {
      policy_number: number,
      customer_id: customer,
      company_id: company,
      policy_type_id: type,
      start_date: day(start),
      end_date: day(end),
      total_premium: premium,
      net_premium: net,
      payment_frequency: frequency,
    });
  // A single payment: the first instalment is the whole premium.
  const payInFull = (policyId: string) => payInstalment(request, broker, policyId, 1);
  await payInFull(await policy('A-1', dana, harel, motor, [-30, 334], '1200.00', '1000.00', 'single'));
  await policy('B-2', dana, migdal, home, [-10, 354], '800.00', '800.00', 'quarterly');
  await payInFull(await policy('C-3', yossi, harel, home, [-100, 20], '600.00', '600.00', 'single'));
}

/** No sideways scrolling, no serious accessibility problem, and a screenshot to look at. */
async function lookAt(page: Page, name: string, testInfo: TestInfo) {
  await expect(page.getByLabel('Loading')).toHaveCount(0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

/** Moves within the app as a broker does, so what the app has cached stays in play. */
async function openFromMenu(page: Page, name: string, testInfo: TestInfo) {
  if (testInfo.project.name === 'mobile') await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name }).click();
}

/** Picks one of a screen's span choices as a broker does: a row of choices on a desk, a picker on a phone. */
async function choose(page: Page, control: string, choice: string, testInfo: TestInfo) {
  if (testInfo.project.name === 'mobile') {
    await page.getByRole('combobox', { name: control }).selectOption({ label: choice });
  } else {
    await page.getByRole('radiogroup', { name: control }).getByText(choice, { exact: true }).click();
    await expect(page.getByRole('radio', { name: choice })).toBeChecked();
  }
}

const figure = (page: Page, label: string) => page.getByRole('group', { name: label, exact: true });
const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

test('the current portfolio: what is in force, where, what renews and what is overdue', async ({
  page,
  broker,
  request,
}, testInfo) => {
  await seedBook(request, broker);
  await signInWithTokens(page, broker);
  await page.goto('/portfolio-analytics');
  await expect(page).toHaveURL(/\/current-portfolio$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Current Portfolio' })).toBeVisible();

  await expect(figure(page, 'Policies in force')).toContainText('3');
  await expect(figure(page, 'Premium in force')).toContainText('$2,600.00');
  await expect(figure(page, 'Largest insurer')).toContainText('69.23%');
  await expect(figure(page, 'Largest insurer')).toContainText('with Harel');
  await expect(figure(page, 'Overdue instalments')).toContainText('$200.00');
  await expect(figure(page, 'Overdue instalments')).toContainText('1 instalment to chase');
  for (const within of [30, 60, 90]) {
    await expect(figure(page, `Within ${within} days`)).toContainText('$600.00');
    await expect(figure(page, `Within ${within} days`)).toContainText('1 policy');
  }

  const byInsurer = section(page, 'By insurer');
  await expect(byInsurer.getByRole('img', { name: /^Chart of/ })).toBeVisible();
  await expect(byInsurer.getByRole('row', { name: /Harel/ })).toContainText(/2\s*\$1,800\.00\s*69\.23%/);
  await expect(byInsurer.getByRole('row', { name: /Migdal/ })).toContainText(/1\s*\$800\.00\s*30\.77%/);
  const byType = section(page, 'By policy type');
  await expect(byType.getByRole('row', { name: /Home/ })).toContainText(/2\s*\$1,400\.00\s*53\.85%/);
  await expect(byType.getByRole('row', { name: /Motor/ })).toContainText(/1\s*\$1,200\.00\s*46\.15%/);
  const byFrequency = section(page, 'By payment frequency');
  await expect(byFrequency.getByRole('row', { name: /Single payment/ })).toContainText('$1,800.00');
  await expect(byFrequency.getByRole('row', { name: /Quarterly/ })).toContainText('$800.00');
  await lookAt(page, 'current-portfolio', testInfo);

  // The renewals link opens the policy list on the same policies.
  await figure(page, 'Within 30 days').getByRole('link', { name: 'See them' }).click();
  await expect(page).toHaveURL(/\/policies\?expiring_within_days=30$/);
  await expect(page.getByText('1 policy', { exact: true })).toBeVisible();

  // A payment recorded elsewhere reaches the portfolio at once, not after its five minutes.
  await openFromMenu(page, 'Payments Management', testInfo);
  await page.getByRole('button', { name: 'Record a payment on B-2, instalment 1' }).click();
  await page.getByRole('button', { name: 'Record', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Record a payment on B-2, instalment 1' })).toHaveCount(0);
  await openFromMenu(page, 'Current Portfolio', testInfo);
  await expect(figure(page, 'Overdue instalments')).toContainText('$0.00');
  await expect(figure(page, 'Overdue instalments')).toContainText('Nothing overdue');
});

test('customer analytics: who the book is made of, over the period chosen @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  await seedBook(request, broker);
  await signInWithTokens(page, broker);
  await page.goto('/customer-analytics');
  await expect(page.getByRole('heading', { level: 1, name: 'Customer Analytics' })).toBeVisible();

  await expect(figure(page, 'Customers')).toContainText('3');
  await expect(figure(page, 'Customers')).toContainText('2 active, 1 inactive');
  // Over 12 months Dana (30 days ago) and Yossi (100 days ago) are new; nobody was covered a year ago.
  await expect(figure(page, 'New customers')).toContainText(/^New customers2Last 12 months$/);
  await expect(figure(page, 'Retention')).toContainText('—');
  await expect(figure(page, 'Customers overdue')).toContainText('$200.00 in 1 instalment');
  // 2,600.00 over 2 customers; commission (125.00 + 120.00 + 60.00) / 2, received (125.00 + 60.00) / 2.
  await expect(figure(page, 'Average lifetime premium')).toContainText('$1,300.00');
  await expect(figure(page, 'Average commission')).toContainText('$152.50');
  await expect(figure(page, 'Average commission')).toContainText('$92.50 earned on customer payments');
  const top = section(page, 'Top customers by premium');
  // A desk also counts their policies (2 and 1); a phone leaves that to the customer's page.
  await expect(top.getByRole('row').nth(1)).toContainText(/^Dana Levi(2)?\$2,000\.00$/);
  await expect(top.getByRole('row').nth(2)).toContainText(/^Yossi Cohen(1)?\$600\.00$/);
  await expect(section(page, 'Policies per customer').getByRole('row', { name: /^1 policy/ })).toContainText(
    '1',
  );
  await expect(
    section(page, 'Policies per customer').getByRole('row', { name: /^2 policies/ }),
  ).toContainText('1');
  await expect(
    section(page, 'New customers per month').getByRole('img', { name: /^Chart of/ }),
  ).toBeVisible();
  await lookAt(page, 'customer-analytics', testInfo);

  // Three months back only Dana is new, and Yossi, covered then, is still a customer.
  const reloaded = page.waitForResponse((response) =>
    response.url().includes('/api/analytics/customers/?period=3m'),
  );
  await choose(page, 'Period', 'Last 3 months', testInfo);
  expect((await reloaded).status()).toBe(200);
  await expect(page).toHaveURL(/period=3m/);
  await expect(figure(page, 'New customers')).toContainText(/^New customers1Last 3 months$/);
  await expect(figure(page, 'Retention')).toContainText('100.00%');
  await expect(figure(page, 'Retention')).toContainText('1 of 1 customers kept');
});

test('portfolio history: the book month by month, over 12 or 24 months @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  await seedBook(request, broker);
  await signInWithTokens(page, broker);
  await page.goto('/portfolio-history');
  await expect(page.getByRole('heading', { level: 1, name: 'Portfolio History' })).toBeVisible();

  await expect(figure(page, 'Policies in force')).toContainText(/^Policies in force3/);
  await expect(figure(page, 'Premium in force')).toContainText('$2,600.00');
  await expect(figure(page, 'New policies')).toContainText(/^New policies3In 12 months$/);
  // This month's commission: expected on the terms started this month, which A-1 (30 days ago,
  // 125.00) and B-2 (10 days ago, 120.00) are or not by today's date; received on both payments,
  // taken today: 125.00 + 60.00.
  const startedThisMonth = (daysAgo: number) =>
    new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 7) ===
    new Date().toISOString().slice(0, 7);
  const expectedThisMonth = (startedThisMonth(30) ? 125 : 0) + (startedThisMonth(10) ? 120 : 0);
  await expect(figure(page, 'Commission this month')).toContainText(`$${expectedThisMonth}.00`);
  await expect(figure(page, 'Commission this month')).toContainText('$185.00 earned on customer payments');
  // Over the 12 months: the same payments, of the 305.00 the three new terms expect.
  await expect(section(page, 'Commission')).toContainText('$185.00 of $305.00 in 12 months');
  for (const chart of ['Premium in force', 'Policies in force', 'New, renewed, expired and cancelled']) {
    await expect(section(page, chart).getByRole('img', { name: /^Chart of/ })).toBeVisible();
  }
  // A row a month on a desk, a card a month on a phone; the current month first, as it stands today.
  const months = section(page, 'Month by month').locator('tbody tr, [role="group"]');
  await expect(months).toHaveCount(12);
  await expect(months.first()).toContainText(/3.*\$2,600\.00/);
  await lookAt(page, 'portfolio-history', testInfo);

  const reloaded = page.waitForResponse((response) =>
    response.url().includes('/api/analytics/portfolio-history/?months=24'),
  );
  await choose(page, 'Months shown', '24 months', testInfo);
  expect((await reloaded).status()).toBe(200);
  await expect(page).toHaveURL(/months=24/);
  await expect(months).toHaveCount(24);
  await expect(figure(page, 'New policies')).toContainText('In 24 months');
});

test('an agency with nothing yet is told what each screen will show', async ({ page, broker }, testInfo) => {
  await signInWithTokens(page, broker);
  for (const [path, empty] of [
    ['/customer-analytics', 'No customers yet'],
    ['/current-portfolio', 'Nothing in force today'],
    ['/portfolio-history', 'No history yet'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByText(empty)).toBeVisible();
    await lookAt(page, `${path.slice(1)}-empty`, testInfo);
  }
});

test('a plan without the premium modules shows each analytics screen locked, with the way to upgrade', async ({
  page,
  broker,
  request,
}, testInfo) => {
  await changeSubscription(request, broker.tenantId, { plan: 'starter' });
  await signInWithTokens(page, broker);
  for (const [path, module] of [
    ['/customer-analytics', 'Customer Analytics'],
    ['/current-portfolio', 'Current Portfolio'],
    ['/portfolio-history', 'Portfolio History'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: `${module} is not in your plan` })).toBeVisible();
    await expect(page.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/billing');
  }
  await lookAt(page, 'portfolio-history-locked', testInfo);
});
