import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import {
  type APIRequestContext,
  type BrowserContext,
  type BrowserContextOptions,
  test as base,
  type CDPSession,
  expect,
  type Frame,
  type Page,
  type PlaywrightTestOptions,
} from '@playwright/test';
import { ADMIN_EMAIL } from '../environment.js';

export const PASSWORD = 'quiet harbour lighthouse';

export interface Broker {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  companyName: string;
  tenantId: string;
  access: string;
  refresh: string;
}

export function uniqueEmail(prefix = 'broker') {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

export async function registerBroker(
  request: APIRequestContext,
  email = uniqueEmail(),
  companyName = 'Peretz Insurance Brokers',
): Promise<Broker> {
  const details = {
    email,
    password: PASSWORD,
    first_name: 'Noa',
    last_name: 'Peretz',
    company_name: companyName,
  };
  const response = await request.post('/api/accounts/register/', { data: details });
  expect(response.status(), await response.text()).toBe(201);
  const { access, refresh, user } = await response.json();
  return {
    email,
    password: PASSWORD,
    firstName: details.first_name,
    lastName: details.last_name,
    companyName: details.company_name,
    tenantId: user.tenant_id,
    access,
    refresh,
  };
}

/** Opens the app already signed in as this broker, the way a returning user arrives. */
export async function signInWithTokens(page: Page, broker: Pick<Broker, 'access' | 'refresh'>) {
  await page.addInitScript(
    ([access, refresh]) => {
      // Init scripts run in every frame, and the PDF viewer's (a document's preview) has no storage.
      if (!window.sessionStorage || !window.localStorage) return;
      if (!sessionStorage.getItem('e2e.seeded')) {
        localStorage.setItem('coverdesk.access', access);
        localStorage.setItem('coverdesk.refresh', refresh);
        sessionStorage.setItem('e2e.seeded', '1');
      }
    },
    [broker.access, broker.refresh] as const,
  );
}

/** Turns the signed-in user of an open app into another one, as signing out and in would. */
export async function switchUser(page: Page, session: Pick<Broker, 'access' | 'refresh'>) {
  await page.evaluate(
    ([access, refresh]) => {
      localStorage.setItem('coverdesk.access', access);
      localStorage.setItem('coverdesk.refresh', refresh);
    },
    [session.access, session.refresh] as const,
  );
}

/** The platform admin of the test server (registered once, then signed in). */
export async function adminSession(request: APIRequestContext): Promise<{ access: string; refresh: string }> {
  const registered = await request.post('/api/accounts/register/', {
    data: {
      email: ADMIN_EMAIL,
      password: PASSWORD,
      first_name: 'Ada',
      last_name: 'Admin',
      company_name: 'Coverdesk Ops',
    },
  });
  if (registered.status() === 201) return registered.json();
  const signedIn = await request.post('/api/token/', { data: { email: ADMIN_EMAIL, password: PASSWORD } });
  expect(signedIn.status()).toBe(200);
  return signedIn.json();
}

export async function changeSubscription(request: APIRequestContext, tenantId: string, changes: object) {
  const response = await request.patch(`/api/admin/tenants/${tenantId}/subscription/`, {
    headers: { authorization: `Bearer ${(await adminSession(request)).access}` },
    data: changes,
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** The email the app sent to an address, read from the test SMTP server. */
export async function lastEmailTo(request: APIRequestContext, address: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const messages = (await (
      await request.get(`${process.env.E2E_MAIL_URL}/messages?to=${address}`)
    ).json()) as {
      raw: string;
    }[];
    const last = messages.at(-1);
    if (last) return last.raw;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no email arrived for ${address}`);
}

/** Creates records through the API as the broker, each expected to be created; answers its id. */
export function creator(request: APIRequestContext, broker: Broker) {
  const headers = { authorization: `Bearer ${broker.access}` };
  return async (url: string, data: object): Promise<string> => {
    const response = await request.post(url, { headers, data });
    expect(response.status(), await response.text()).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
}

/** An invitation made through the API as the owner; answers its id and link. */
export async function invite(request: APIRequestContext, owner: Broker, email: string, role: string) {
  const response = await request.post('/api/team/invitations/', {
    headers: { authorization: `Bearer ${owner.access}` },
    data: { email, role },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; invite_url: string };
}

/**
 * A member of the owner's agency with this role, invited and joined through the API; answers their
 * tokens, as the invitation's acceptance signs them in.
 */
export async function teamMember(request: APIRequestContext, owner: Broker, role: string, firstName: string) {
  const email = uniqueEmail(role);
  const { invite_url } = await invite(request, owner, email, role);
  const accepted = await request.post('/api/team/invitations/accept/', {
    data: {
      token: invite_url.split('/invite/')[1],
      password: PASSWORD,
      first_name: firstName,
      last_name: 'Cohen',
    },
  });
  expect(accepted.status(), await accepted.text()).toBe(201);
  const { access, refresh, user } = (await accepted.json()) as {
    access: string;
    refresh: string;
    user: { id: string };
  };
  return { id: user.id, email, access, refresh, name: `${firstName} Cohen` };
}

/**
 * Dana Levi's motor policy P-1042 with Harel, a $1,000 premium, in force since `daysAgo` days and
 * for a year from then, made through the API as the broker; answers its id.
 */
export async function seedMotorPolicy(request: APIRequestContext, broker: Broker, daysAgo: number) {
  const post = creator(request, broker);
  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const type = await post('/api/policy-types/', { name: 'Private motor', category: 'auto' });
  const company = await post('/api/companies/', {
    name: 'Harel Insurance',
    policy_types: [{ policy_type_id: type, commission_percentage: '12.5' }],
  });
  const customer = await post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' });
  return post('/api/policies/', {
    policy_number: 'P-1042',
    customer_id: customer,
    company_id: company,
    policy_type_id: type,
    start_date: day(-daysAgo),
    end_date: day(360 - daysAgo),
    total_premium: '1000.00',
  });
}

/** Pays instalment `sequence` of a policy in full, as the broker, through the API. */
export async function payInstalment(
  request: APIRequestContext,
  broker: Broker,
  policyId: string,
  sequence: number,
  payment_method = 'cash',
) {
  const headers = { authorization: `Bearer ${broker.access}` };
  const schedule = await request.get(`/api/policies/${policyId}/installments/`, { headers });
  const { results } = (await schedule.json()) as { results: { id: string; sequence: number }[] };
  const instalment = results.find((row) => row.sequence === sequence);
  if (!instalment) throw new Error(`the policy has no instalment ${sequence}`);
  const paid = await request.post(`/api/installments/${instalment.id}/payment/`, {
    headers,
    data: { payment_method },
  });
  expect(paid.status(), await paid.text()).toBe(200);
}

/** An agency with one of everything, so every module screen has something to show. */
export async function seedAgency(request: APIRequestContext, broker: Broker) {
  const post = creator(request, broker);
  const type = await post('/api/policy-types/', { name: 'Private motor', category: 'auto' });
  const company = await post('/api/companies/', {
    name: 'Harel Insurance',
    commission_payment_method: 'pro_rata',
    policy_types: [{ policy_type_id: type, commission_percentage: '12.5' }],
  });
  const customer = await post('/api/customers/', {
    first_name: 'Dana',
    last_name: 'Levi',
    email: 'dana.levi@example.com',
    phone: '052-123-4567',
    city: 'Haifa',
    tags: ['vip'],
  });
  const policy = await post('/api/policies/', {
    policy_number: 'P-1042',
    customer_id: customer,
    company_id: company,
    policy_type_id: type,
    start_date: '2026-01-01',
    end_date: '2026-12-31',
    total_premium: '1000.00',
    payment_frequency: 'quarterly',
  });
  return { type: type, company: company, customer: customer, policy: policy };
}

/**
 * Waits until the screen has nothing loading: no list or page still fetching (`aria-busy`), no page
 * loader, no route change under way. What a check of the whole page (axe, a screenshot) waits for,
 * rather than for the network to go quiet.
 */
export async function settled(page: Page) {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByRole('status', { name: 'Loading', exact: true })).toHaveCount(0);
  await expect(page.getByRole('progressbar', { name: 'Loading page' })).toHaveCount(0);
}

/** Fails on serious or critical accessibility problems on the page as it is now. */
export async function expectAccessible(page: Page) {
  // Only the violations in full: collecting every pass's and every other result's nodes, which nothing
  // reads, took a fifth or more of axe's time (the policy page, three runs each on a busy machine: 11 s
  // against 13.4 to 18.6).
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.html} ${n.failureSummary ?? ''}`).join('; ')})`,
    ),
    `accessibility on ${page.url()}`,
  ).toEqual([]);
}

/** A broker's agency with its book (seedAgency's one of everything), made through the API. */
export type ReadyAgency = Broker & { ids: Awaited<ReturnType<typeof seedAgency>> };

/**
 * Every test fails on any console error the page logs. `broker` is a new agency of the test's own,
 * registered through the API; `agency` is that agency with its book already in it, for a test about
 * a screen rather than about setting the agency up. Either way the test opens the app signed in with
 * signInWithTokens: only the tests about signing in use the sign-in form.
 */
export const test = base.extend<
  { broker: Broker; agency: ReadyAgency; showSetupGuide: boolean; freshContext: boolean },
  { warmContext: { context: BrowserContext; cleaner: Page; devtools: CDPSession } }
>({
  // The app's scripts (over a hundred files) were fetched and compiled anew by every test's new browser
  // context, the largest part of a short test's time. A worker keeps one context, whose HTTP cache
  // keeps them, and each test gets it emptied of what the one before left: its pages, cookies and
  // storage on every site it opened, permissions. A test whose changes to the context cannot be
  // undone (the page clock, installed for good) asks for a context of its own:
  // test.use({ freshContext: true }).
  //
  // The storage is cleared through the DevTools session of a blank page the worker keeps open for it:
  // a page and a session opened and closed after every test cost the browser as much as a short
  // test's own page.
  warmContext: [
    async ({ browser }, use, workerInfo) => {
      const context = await browser.newContext(contextOptions(workerInfo.project.use));
      const cleaner = await context.newPage();
      const devtools = await context.newCDPSession(cleaner);
      await use({ context, cleaner, devtools });
      await context.close();
    },
    { scope: 'worker' },
  ],
  // E2E_FRESH_CONTEXT=1 gives every test a context of its own, to tell a failure that one test left
  // to the next from a failure of the test itself.
  freshContext: [process.env.E2E_FRESH_CONTEXT === '1', { option: true }],
  context: async (
    { warmContext: { context: warmContext, cleaner, devtools }, freshContext, browser },
    use,
    testInfo,
  ) => {
    if (freshContext) {
      const context = await browser.newContext(contextOptions(testInfo.project.use));
      await use(context);
      await context.close();
      return;
    }
    const origins = new Set<string>();
    const noteOrigin = (frame: Frame) => {
      const url = new URL(frame.url());
      if (url.protocol.startsWith('http')) origins.add(url.origin);
    };
    const watch = (page: Page) => page.on('framenavigated', noteOrigin);
    warmContext.on('page', watch);
    await use(warmContext);
    warmContext.off('page', watch);
    // Pages first: the app writes its query cache to storage as a page goes away.
    for (const page of warmContext.pages()) if (page !== cleaner) await page.close();
    for (const origin of origins) {
      await devtools.send('Storage.clearDataForOrigin', {
        origin,
        storageTypes: 'cookies,local_storage,indexeddb,service_workers,cache_storage',
      });
    }
    await warmContext.clearCookies();
    await warmContext.clearPermissions();
  },
  broker: async ({ request }, use) => {
    await use(await registerBroker(request));
  },
  agency: async ({ request, broker }, use) => {
    await use({ ...broker, ids: await seedAgency(request, broker) });
  },
  // The Welcome popup opens over whatever a freshly signed-in broker does next; only the tests
  // about it want it (test.use({ showSetupGuide: true })).
  showSetupGuide: [false, { option: true }],
  page: async ({ page, showSetupGuide }, use) => {
    const errors = await watchPage(page, { showSetupGuide });
    await use(page);
    expect(errors, 'console errors on the page').toEqual([]);
  },
});

/**
 * Readies a page the way every test's is: the Welcome popup kept shut unless `showSetupGuide`, and
 * the console watched. Answers the list of the page's errors, which a test expects to stay empty.
 */
export async function watchPage(page: Page, { showSetupGuide = false } = {}): Promise<string[]> {
  if (!showSetupGuide) {
    await page.addInitScript(() => window.localStorage?.setItem('coverdesk.setup-guide.hidden', '1'));
  }
  const errors: string[] = [];
  page.on('console', (message) => {
    // Refused API calls (a wrong password, a signed-out call) are the app working; server errors
    // are not, and neither is a missing file (the favicon, an asset). The admin-host tests use plain
    // HTTP on a test host name, where Chromium notes that it ignores the Cross-Origin-Opener-Policy
    // header meant for HTTPS.
    const text = message.text();
    const refusedApiCall =
      /Failed to load resource: the server responded with a status of 4\d\d/.test(text) &&
      new URL(message.location().url, 'http://unknown/').pathname.startsWith('/api/');
    const plainHttpNote = /Cross-Origin-Opener-Policy header has been ignored, because the URL's origin/;
    const expected = refusedApiCall || plainHttpNote.test(text);
    if (message.type() === 'error' && !expected) errors.push(`${text} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

export { expect };

/** The project's browser settings (its device, base URL, reduced motion), for a context made here. */
export function contextOptions(use: Partial<PlaywrightTestOptions>): BrowserContextOptions {
  const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch, baseURL, reducedMotion, locale } = use;
  return { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch, baseURL, reducedMotion, locale };
}

/**
 * The demo's fresh sign-in shows its unread notifications in a popup after a second; a test that
 * goes on working the page closes it first.
 */
export async function closeNotificationPopup(page: Page) {
  const popup = page.getByRole('dialog', { name: /new notifications?$/ });
  await popup.getByRole('button', { name: 'Got it' }).click();
  await expect(popup).toBeHidden();
}

/** Opens a move's dialog from a claim's page, fills what it asks and confirms it. */
export async function moveClaim(page: Page, move: string, fill: Record<string, string> = {}) {
  await page.getByRole('button', { name: move, exact: true }).click();
  const dialog = page.getByRole('dialog');
  for (const [label, value] of Object.entries(fill)) await dialog.getByLabel(label).fill(value);
  await dialog.getByRole('button', { name: move, exact: true }).click();
  await expect(dialog).toHaveCount(0);
}
