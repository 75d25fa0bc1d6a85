import {
  adminSession,
  expect,
  expectAccessible,
  seedAgency,
  settled,
  signInWithTokens,
  test,
} from './fixtures.js';

/**
 * Every screen of the app shell, looked at: no serious accessibility problem, no console error,
 * nothing scrolling sideways, and a screenshot per viewport for people to review.
 */
const PUBLIC_SCREENS = [
  { path: '/', heading: /./ },
  { path: '/features', heading: /./ },
  { path: '/pricing', heading: /./ },
  { path: '/about', heading: /./ },
  { path: '/terms', heading: /./ },
  { path: '/contact', heading: /./ },
  { path: '/checkout?plan=professional', heading: /./ },
  { path: '/login', heading: 'Sign in' },
  { path: '/register', heading: 'Start your free trial' },
  { path: '/forgot-password', heading: 'Forgot your password?' },
  { path: '/reset-password/some-token', heading: 'Choose a new password' },
  // A link that opens no invitation says so (team.spec.ts joins through a real one).
  { path: '/invite/some-token', heading: 'This invitation cannot be used' },
];

const SIGNED_IN_SCREENS = [
  { path: '/dashboard', heading: 'Dashboard' },
  { path: '/profile', heading: 'Profile' },
  { path: '/profile/settings', heading: 'Profile settings' },
  { path: '/billing', heading: 'Billing' },
  { path: '/notifications', heading: 'Notifications' },
  { path: '/notifications-settings', heading: 'Notification Settings' },
  { path: '/notifications-settings?tab=history', heading: 'Notification Settings' },
  { path: '/team', heading: 'Team' },
  // Screens on their way: the app shell and what the module will do.
  { path: '/support', heading: 'Support' },
];

async function lookAt(
  page: import('@playwright/test').Page,
  name: string,
  testInfo: import('@playwright/test').TestInfo,
) {
  await settled(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

for (const screen of PUBLIC_SCREENS) {
  test(`public screen ${screen.path} @phone`, async ({ page }, testInfo) => {
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible();
    await lookAt(page, screen.path.replace(/[^a-z]+/g, '-') || 'home', testInfo);
  });
}

for (const screen of SIGNED_IN_SCREENS) {
  test(`signed-in screen ${screen.path} @phone`, async ({ page, broker }, testInfo) => {
    await signInWithTokens(page, broker);
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible();
    await lookAt(page, screen.path.replace(/[^a-z]+/g, '-'), testInfo);
  });
}

test('admin screen /admin @phone', async ({ page, request }, testInfo) => {
  await signInWithTokens(page, await adminSession(request));
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin portal' })).toBeVisible();
  await expect(page.getByText(/of \d+ applied/)).toBeVisible();
  await lookAt(page, 'admin', testInfo);
});

const MODULE_SCREENS: { path: (ids: Awaited<ReturnType<typeof seedAgency>>) => string; heading: string }[] = [
  { path: () => '/policy-types', heading: 'Policy types' },
  { path: () => '/policy-types/create', heading: 'Policy types' },
  { path: (ids) => `/policy-types/${ids.type}/edit`, heading: 'Policy types' },
  { path: () => '/companies', heading: 'Companies' },
  { path: () => '/companies/create', heading: 'Companies' },
  { path: (ids) => `/companies/${ids.company}/edit`, heading: 'Companies' },
  { path: () => '/customers', heading: 'Customers' },
  { path: () => '/customers/create', heading: 'Customers' },
  { path: (ids) => `/customers/${ids.customer}`, heading: 'Customers' },
  { path: (ids) => `/customers/${ids.customer}/edit`, heading: 'Customers' },
  { path: () => '/policies', heading: 'Policies' },
  { path: () => '/policies/create', heading: 'Policies' },
  { path: (ids) => `/policies/${ids.policy}`, heading: 'Policies' },
  { path: (ids) => `/policies/${ids.policy}/edit`, heading: 'Policies' },
  { path: (ids) => `/policies/${ids.policy}/renew`, heading: 'Policies' },
  { path: () => '/payments', heading: 'Payments Management' },
  // P-1042 ends on 2026-12-31: listed in the 60-day window from November; otherwise the empty state.
  { path: () => '/alerts?within_days=60', heading: 'Expiring Policies' },
  {
    path: () => '/commission-report?period=custom&start_date=2026-01-01&end_date=2026-12-31',
    heading: 'Commission Report',
  },
  { path: () => '/commission-statements', heading: 'Commission Statements' },
  { path: () => '/customer-analytics', heading: 'Customer Analytics' },
  { path: () => '/current-portfolio', heading: 'Current Portfolio' },
  { path: () => '/portfolio-history', heading: 'Portfolio History' },
  // The policy's overdue October instalment, then its renewal in the agenda.
  { path: () => '/calendar?view=month&date=2026-10-01', heading: 'Calendar' },
  { path: () => '/calendar?view=agenda&date=2026-12-28', heading: 'Calendar' },
  // The premium modules and the import, so the phone sees every screen of the menu.
  { path: () => '/leads', heading: 'Leads' },
  { path: () => '/leads/create', heading: 'Leads' },
  { path: () => '/claims', heading: 'Claims' },
  { path: () => '/claims/create', heading: 'Claims' },
  { path: () => '/policy-import', heading: 'Policy Import' },
  // An agency with policies: its figures, lists and charts instead of the setup steps.
  { path: () => '/dashboard', heading: 'Dashboard' },
];

for (const screen of MODULE_SCREENS) {
  const name = screen.path({ type: 'id', company: 'id', customer: 'id', policy: 'id' });
  test(`module screen ${name} @phone`, async ({ page, agency }, testInfo) => {
    await signInWithTokens(page, agency);
    await page.goto(screen.path(agency.ids));
    await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible();
    await expect(page.getByLabel('Loading')).toHaveCount(0);
    await lookAt(page, name.replace(/[^a-z]+/g, '-'), testInfo);
  });
}

test('the filters of a list, in a drawer on a phone and in the row on a desk @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  await seedAgency(request, broker);
  await signInWithTokens(page, broker);
  await page.goto('/customers');
  if (testInfo.project.name === 'mobile') {
    await page.getByRole('button', { name: 'Filters' }).click();
    await expect(page.getByRole('dialog', { name: 'Filters' })).toBeVisible();
  }
  await page
    .getByRole('textbox', { name: 'Status' })
    .or(page.getByRole('combobox', { name: 'Status' }))
    .first()
    .click();
  await page.getByRole('option', { name: 'Inactive' }).click();
  await expect(page).toHaveURL(/status=inactive/);
  await lookAt(page, 'customers-filters', testInfo);
});

test('module screens when the agency has nothing yet @phone', async ({ page, broker }, testInfo) => {
  // Six screens, each loaded and checked with axe: more than one test's usual time.
  test.slow();
  await signInWithTokens(page, broker);
  const emptyScreens: [path: string, empty: string][] = [
    ['/policy-types', 'No policy types yet'],
    ['/companies', 'No insurers yet'],
    ['/customers', 'No customers yet'],
    ['/policies', 'No policies yet'],
    ['/payments', 'No instalments yet'],
    ['/alerts', 'Nothing ends in the next 30 days or lapsed lately'],
    ['/calendar', 'Nothing on these dates'],
  ];
  for (const [path, empty] of emptyScreens) {
    await page.goto(path);
    await expect(page.getByText(empty)).toBeVisible();
    await lookAt(page, `${path.slice(1)}-empty`, testInfo);
  }
});
