import type { APIRequestContext, Page } from '@playwright/test';
import {
  adminSession,
  contextOptions,
  expect,
  expectAccessible,
  registerBroker,
  seedAgency,
  settled,
  signInWithTokens,
  test,
  watchPage,
} from './fixtures.js';

/**
 * Every screen of the app shell, looked at: no serious accessibility problem, no console error,
 * nothing scrolling sideways, and a screenshot per viewport for people to review.
 *
 * A test a screen, but not a page, an agency and a sign-in a screen: the screens of a group (public,
 * signed in, the platform admin's, an agency's book) share one page, opened once by the group on one
 * worker in a context of its own, and each test loads its screen in it, the app's files coming from
 * that page's cache. A new screen costs its own load and checks. The tests of a group run in order on
 * one worker; after a failure Playwright starts a new worker, whose page the group opens anew, so the
 * other screens are still looked at and every screen that failed is named.
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

const EMPTY_SCREENS: [path: string, empty: string][] = [
  ['/policy-types', 'No policy types yet'],
  ['/companies', 'No insurers yet'],
  ['/customers', 'No customers yet'],
  ['/policies', 'No policies yet'],
  ['/payments', 'No instalments yet'],
  ['/alerts', 'Nothing ends in the next 30 days or lapsed lately'],
  ['/calendar', 'Nothing on these dates'],
];

type BookIds = Awaited<ReturnType<typeof seedAgency>>;

const MODULE_SCREENS: { path: (ids: BookIds) => string; heading: string }[] = [
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

interface Group {
  page: Page;
  /** The page's console errors since the last screen was looked at. */
  errors: string[];
  /** The agency's book, for a group signed in to an agency with one. */
  ids: BookIds;
}

/**
 * Declares a group's shared page, in the describe block it is called in: opened before the group's
 * first test, signed in with the session `signIn` makes through the API (none for the public screens).
 */
function screenGroup(
  signIn: (
    request: APIRequestContext,
  ) => Promise<{ session?: { access: string; refresh: string }; ids?: BookIds }>,
) {
  test.describe.configure({ mode: 'default' });
  const group = {} as Group;
  test.beforeAll(async ({ browser, playwright }, workerInfo) => {
    const request = await playwright.request.newContext({ baseURL: workerInfo.project.use.baseURL });
    const { session, ids } = await signIn(request);
    await request.dispose();
    const context = await browser.newContext(contextOptions(workerInfo.project.use));
    group.page = await context.newPage();
    group.errors = await watchPage(group.page);
    if (session) await signInWithTokens(group.page, session);
    if (ids) group.ids = ids;
  });
  test.afterAll(async () => {
    await group.page?.context().close();
  });
  return group;
}

/** Loads a screen in the group's page and waits for its heading. */
async function open(group: Group, path: string, heading: string | RegExp) {
  await group.page.goto(path);
  await expect(group.page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

/** The checks of every screen; `name` is its screenshot's. */
async function lookAt(group: Group, name: string) {
  const { page } = group;
  await settled(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
  expect(group.errors.splice(0), 'console errors on the page').toEqual([]);
}

test.describe('public screens', () => {
  const group = screenGroup(async () => ({}));
  for (const screen of PUBLIC_SCREENS) {
    test(`public screen ${screen.path} @phone`, async () => {
      await open(group, screen.path, screen.heading);
      await lookAt(group, screen.path.replace(/[^a-z]+/g, '-') || 'home');
    });
  }
});

test.describe('screens of an agency with nothing yet', () => {
  const group = screenGroup(async (request) => ({ session: await registerBroker(request) }));
  for (const screen of SIGNED_IN_SCREENS) {
    test(`signed-in screen ${screen.path} @phone`, async () => {
      await open(group, screen.path, screen.heading);
      await lookAt(group, screen.path.replace(/[^a-z]+/g, '-'));
    });
  }

  // The module screens before there is anything in them: their empty states.
  for (const [path, empty] of EMPTY_SCREENS) {
    test(`module screen ${path} when the agency has nothing yet @phone`, async () => {
      await group.page.goto(path);
      await expect(group.page.getByText(empty)).toBeVisible();
      await lookAt(group, `${path.slice(1)}-empty`);
    });
  }
});

test.describe('screens of the platform admin', () => {
  const group = screenGroup(async (request) => ({ session: await adminSession(request) }));
  test('admin screen /admin @phone', async () => {
    await open(group, '/admin', 'Admin portal');
    await expect(group.page.getByText(/of \d+ applied/)).toBeVisible();
    await lookAt(group, 'admin');
  });
});

test.describe('screens of an agency with its book', () => {
  const group = screenGroup(async (request) => {
    const session = await registerBroker(request);
    return { session, ids: await seedAgency(request, session) };
  });
  for (const screen of MODULE_SCREENS) {
    const name = screen.path({ type: 'id', company: 'id', customer: 'id', policy: 'id' });
    test(`module screen ${name} @phone`, async () => {
      await open(group, screen.path(group.ids), screen.heading);
      await expect(group.page.getByLabel('Loading')).toHaveCount(0);
      await lookAt(group, name.replace(/[^a-z]+/g, '-'));
    });
  }

  test('the filters of a list, in a drawer on a phone and in the row on a desk @phone', async () => {
    const { page } = group;
    await open(group, '/customers', 'Customers');
    if (test.info().project.name === 'mobile') {
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
    await lookAt(group, 'customers-filters');
  });
});
