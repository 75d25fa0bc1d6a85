import type { Browser, Page, TestInfo } from '@playwright/test';
import {
  creator,
  expect,
  expectAccessible,
  invite,
  lastEmailTo,
  settled,
  signInWithTokens,
  teamMember,
  test,
  uniqueEmail,
} from './fixtures.js';

/** Checks a screen whole (nothing scrolling sideways, axe) and keeps its picture with the results. */
async function lookAt(page: Page, name: string, testInfo: TestInfo) {
  await settled(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

/** A browser of someone else's: the project's device, nothing of the owner's session. */
async function otherBrowser(browser: Browser, testInfo: TestInfo) {
  const { viewport, userAgent, deviceScaleFactor, isMobile, hasTouch, baseURL, reducedMotion } =
    testInfo.project.use;
  return browser.newContext({
    viewport,
    userAgent,
    deviceScaleFactor,
    isMobile,
    hasTouch,
    baseURL,
    reducedMotion,
  });
}

test('an owner invites an agent, who joins through the emailed link and works the book but not the insurers @phone', async ({
  page,
  request,
  browser,
  agency,
}, testInfo) => {
  test.slow();
  await signInWithTokens(page, agency);
  await page.goto('/team');
  await expect(page.getByRole('heading', { name: 'Just you so far' })).toBeVisible();
  await expect(page.getByText(agency.email).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Roles' })).toBeVisible();
  await lookAt(page, 'team', testInfo);

  const email = uniqueEmail('agent');
  await page.getByRole('button', { name: 'Invite member' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Invite a member' });
  await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
  await expect(dialog.getByRole('combobox', { name: 'Role' })).toHaveValue('Agent');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  const sent = page.getByRole('dialog', { name: 'Invitation sent' });
  await expect(sent.getByText(`We emailed an invitation to join as Agent to ${email}`)).toBeVisible();
  const link = await sent.getByRole('textbox', { name: 'Invitation link' }).inputValue();
  expect(link).toMatch(/\/invite\/[^/]+$/);
  await expectAccessible(page);
  // The email carries the same link.
  expect(await lastEmailTo(request, email)).toContain(link);
  await sent.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText(email)).toBeVisible();

  // The invited agent, in a browser of their own.
  const theirs = await otherBrowser(browser, testInfo);
  const agent = await theirs.newPage();
  await agent.goto(link);
  await expect(agent.getByRole('heading', { name: `Join ${agency.companyName}` })).toBeVisible();
  await expect(agent.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
  await expect(
    agent.getByText(/Noa Peretz invited you to join the agency on Coverdesk as an Agent/),
  ).toBeVisible();
  await lookAt(agent, 'invite', testInfo);
  await agent.getByRole('textbox', { name: 'First name' }).fill('Yael');
  await agent.getByRole('textbox', { name: 'Last name' }).fill('Mizrahi');
  await agent.getByRole('textbox', { name: 'Password' }).fill('short');
  await agent.getByRole('button', { name: `Join ${agency.companyName}` }).click();
  await expect(
    agent.getByText('This password is too short. It must contain at least 8 characters.'),
  ).toBeVisible();
  await agent.getByRole('textbox', { name: 'Password' }).fill('amber orchard morning');
  await agent.getByRole('button', { name: `Join ${agency.companyName}` }).click();
  await expect(agent).toHaveURL(/\/dashboard$/);

  // An agent works the book…
  await agent.goto('/customers');
  await expect(agent.getByText('Dana Levi').first()).toBeVisible();
  await agent.getByRole('link', { name: 'New customer' }).first().click();
  await agent.getByRole('textbox', { name: 'First name', exact: true }).fill('Omer');
  await agent.getByRole('textbox', { name: 'Last name', exact: true }).fill('Katz');
  await agent.getByRole('button', { name: 'Add customer' }).click();
  await expect(agent.getByRole('heading', { name: 'Omer Katz' })).toBeVisible();
  // …but does not change the insurers.
  await agent.goto('/companies');
  await expect(agent.getByText('Harel Insurance').first()).toBeVisible();
  await expect(agent.getByRole('link', { name: 'New insurer' })).toHaveCount(0);
  await theirs.close();

  // The owner sees a new member, and the invitation gone.
  await page.reload();
  await expect(page.getByText('Yael Mizrahi')).toBeVisible();
  await expect(page.getByText('No invitations are waiting.')).toBeVisible();
});

test('a viewer reads the customers and the team but changes nothing @phone', async ({
  page,
  request,
  agency,
}, testInfo) => {
  const viewer = await teamMember(request, agency, 'viewer', 'Tamar');
  await signInWithTokens(page, viewer);
  await page.goto('/customers');
  await expect(page.getByText('Dana Levi').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'New customer' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Import/ })).toHaveCount(0);
  await lookAt(page, 'viewer-customers', testInfo);
  await page
    .getByRole('link', { name: /Dana Levi/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Dana Levi' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Actions|Edit/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'New policy' })).toHaveCount(0);
  await lookAt(page, 'viewer-customer', testInfo);

  await page.goto('/team');
  await expect(page.getByText('Your role (Viewer) shows you the team.')).toBeVisible();
  // A table's cell on a desk, a card on a phone.
  await expect(page.getByText('Tamar Cohen (you)')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Invite member' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Change / })).toHaveCount(0);
  await expect(page.getByRole('switch', { name: 'Agents see only their own customers' })).toBeDisabled();
  await lookAt(page, 'viewer-team', testInfo);

  // Billing and the agency's details are the owner's (and, for the details, a manager's).
  await page.goto('/billing');
  await expect(page.getByText("Only the agency's owner can change billing")).toBeVisible();
  await page.goto('/profile/settings');
  await expect(page.getByRole('textbox', { name: 'Agency name' })).toHaveAttribute('readonly', '');
  await expect(page.getByRole('textbox', { name: 'First name' })).toBeEditable();
});

test('an owner withdraws an invitation and deactivates a member, handing their book on and keeping their credit @phone', async ({
  page,
  request,
  agency,
}, testInfo) => {
  test.slow();
  const waiting = uniqueEmail('waiting');
  const withdrawn = await invite(request, agency, waiting, 'viewer');
  const leaving = await teamMember(request, agency, 'agent', 'Avi');
  await teamMember(request, agency, 'viewer', 'Tamar');
  // A policy Avi wrote, in force today: the producers' report credits it to him.
  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  await creator(request, agency)('/api/policies/', {
    policy_number: 'P-2100',
    customer_id: agency.ids.customer,
    company_id: agency.ids.company,
    policy_type_id: agency.ids.type,
    start_date: day(-10),
    end_date: day(354),
    total_premium: '900.00',
    assigned_to: leaving.id,
  });
  await signInWithTokens(page, agency);
  await page.goto('/team');
  await expect(page.getByText(waiting)).toBeVisible();
  await expect(page.getByText('Avi Cohen')).toBeVisible();
  await lookAt(page, 'team-members', testInfo);

  // The emailed link cannot be shown again (only its hash is kept): a new one replaces it.
  await page.getByRole('button', { name: `Copy a new link for the invitation to ${waiting}` }).click();
  const renew = page.getByRole('dialog', { name: 'A new invitation link' });
  await expect(
    renew.getByText(/replaces the one emailed to them, which stops working at once/),
  ).toBeVisible();
  await renew.getByRole('button', { name: 'Make a new link' }).click();
  const renewed = page.getByRole('dialog', { name: 'The new invitation link' });
  const newLink = await renewed.getByRole('textbox', { name: 'Invitation link' }).inputValue();
  expect(newLink).toMatch(/\/invite\/[^/]+$/);
  expect(newLink).not.toBe(withdrawn.invite_url);
  await expect(renewed.getByRole('button', { name: 'Copy link' })).toBeVisible();
  await lookAt(page, 'team-new-link', testInfo);
  await renewed.getByRole('button', { name: 'Done' }).click();
  await expect(renewed).toHaveCount(0);

  await page.getByRole('button', { name: `Withdraw the invitation to ${waiting}` }).click();
  const withdraw = page.getByRole('dialog', { name: `Withdraw the invitation to ${waiting}?` });
  await withdraw.getByRole('button', { name: 'Withdraw invitation' }).click();
  await expect(withdraw).toHaveCount(0);
  await expect(page.getByText('No invitations are waiting.')).toBeVisible();

  await page.getByRole('button', { name: 'Change Avi Cohen' }).click();
  await page.getByRole('menuitem', { name: 'Deactivate' }).click();
  const deactivate = page.getByRole('dialog', { name: 'Deactivate Avi Cohen?' });
  await expect(deactivate.getByText(/signed out at once/)).toBeVisible();
  await expect(
    deactivate.getByText(
      'The policies Avi Cohen wrote stay credited to them in the producers’ report, at the share they were written at.',
    ),
  ).toBeVisible();
  await deactivate.getByRole('combobox', { name: 'Hand their book to' }).click();
  // A viewer changes nothing, so cannot look after a book.
  await expect(page.getByRole('option')).toHaveText(['Noa Peretz']);
  await page.getByRole('option', { name: 'Noa Peretz' }).click();
  await lookAt(page, 'team-deactivate', testInfo);
  await deactivate.getByRole('button', { name: 'Deactivate' }).click();
  await expect(deactivate).toHaveCount(0);
  await expect(
    page.getByText('Avi Cohen is deactivated; Noa Peretz now looks after their book.'),
  ).toBeVisible();
  await expect(page.getByText('Deactivated', { exact: true })).toBeVisible();

  // Noa looks after the policy now; the producers' report still credits Avi with it.
  await page.goto('/commission-report');
  const producers = page.getByRole('region', { name: 'Producers' });
  await expect(producers.getByText('Avi Cohen')).toBeVisible();
  await lookAt(page, 'producers-after-deactivation', testInfo);

  // The withdrawn link says so, and leads to the sign-in.
  await page.goto(withdrawn.invite_url);
  await expect(page.getByRole('heading', { name: 'This invitation cannot be used' })).toBeVisible();
  await expect(page.getByText('This invitation link is not valid: ask for a new one.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();

  // Their session ended with it.
  const profile = await request.get('/api/user/profile/', {
    headers: { authorization: `Bearer ${leaving.access}` },
  });
  expect(profile.status()).toBe(401);
});

test('an owner changes a member’s role and commission share, and is told why they cannot stop being the last owner', async ({
  page,
  request,
  broker,
}, testInfo) => {
  const member = await teamMember(request, broker, 'agent', 'Shira');
  await signInWithTokens(page, broker);
  await page.goto('/team');

  await page.getByRole('button', { name: 'Change Shira Cohen' }).click();
  await page.getByRole('menuitem', { name: 'Change role' }).click();
  const roleDialog = page.getByRole('dialog', { name: 'Change Shira Cohen’s role' });
  await expect(roleDialog.getByText(/signs Shira Cohen out on every device/)).toBeVisible();
  await roleDialog.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: /^Manager/ }).click();
  await roleDialog.getByRole('button', { name: 'Change role' }).click();
  await expect(roleDialog).toHaveCount(0);
  const row = page.getByRole('row', { name: /Shira Cohen/ });
  await expect(row.getByText('Manager')).toBeVisible();
  // The new role takes effect at their next sign-in: the old session is over.
  const profile = await request.get('/api/user/profile/', {
    headers: { authorization: `Bearer ${member.access}` },
  });
  expect(profile.status()).toBe(401);

  await page.getByRole('button', { name: 'Change Shira Cohen' }).click();
  await page.getByRole('menuitem', { name: 'Edit commission share' }).click();
  const shareDialog = page.getByRole('dialog', { name: 'Commission share of Shira Cohen' });
  await shareDialog.getByRole('textbox', { name: 'Commission share (%)' }).fill('150');
  await shareDialog.getByRole('button', { name: 'Save share' }).click();
  await expect(shareDialog.getByText('A percentage cannot be more than 100.')).toBeVisible();
  await shareDialog.getByRole('textbox', { name: 'Commission share (%)' }).fill('12.5');
  await shareDialog.getByRole('button', { name: 'Save share' }).click();
  await expect(shareDialog).toHaveCount(0);
  await expect(row.getByRole('cell', { name: /^12\.5% since / })).toBeVisible();
  // The share over time: what Shira started with, then 12.5 % for what she writes from today.
  await page.getByRole('button', { name: 'Change Shira Cohen' }).click();
  await page.getByRole('menuitem', { name: 'Edit commission share' }).click();
  await expect(shareDialog.getByRole('list', { name: 'Share over time' }).getByRole('listitem')).toHaveText([
    '0% from the start',
    /^12\.5% from /,
  ]);
  await lookAt(page, 'team-share', testInfo);
  await shareDialog.getByRole('button', { name: 'Cancel' }).click();

  // The agency keeps an owner: the server's sentence shows in the dialog.
  await page.getByRole('button', { name: 'Change Noa Peretz' }).click();
  await page.getByRole('menuitem', { name: 'Change role' }).click();
  const ownDialog = page.getByRole('dialog', { name: 'Change Noa Peretz’s role' });
  await expect(ownDialog.getByText(/Changing your own role signs you out/)).toBeVisible();
  await ownDialog.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: /^Agent/ }).click();
  await ownDialog.getByRole('button', { name: 'Change role' }).click();
  await expect(
    ownDialog.getByText('The agency needs at least one active owner: make another member an owner first.'),
  ).toBeVisible();
});

/** Sets a list's "Mine" filter, which a phone keeps in the filters' drawer. */
async function showMine(page: Page, testInfo: TestInfo) {
  const phone = testInfo.project.name === 'mobile';
  if (phone) await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByText('Mine', { exact: true }).click();
  if (phone) await page.getByRole('button', { name: 'Show results' }).click();
}

test('an agent narrows the leads to their own with Mine, and has nothing to reassign @phone', async ({
  page,
  request,
  agency,
}, testInfo) => {
  const agent = await teamMember(request, agency, 'agent', 'Avi');
  await creator(request, agency)('/api/leads/', { first_name: 'Ron', last_name: 'Bar' });
  // The agent's own, assigned to the member who adds it.
  const added = await request.post('/api/leads/', {
    headers: { authorization: `Bearer ${agent.access}` },
    data: { first_name: 'Gil', last_name: 'Shani' },
  });
  expect(added.status(), await added.text()).toBe(201);
  await signInWithTokens(page, agent);
  await page.goto('/leads');
  await expect(page.getByText('Ron Bar').first()).toBeVisible();
  await expect(page.getByText('Gil Shani').first()).toBeVisible();
  await expect(page.getByRole('button', { name: /^Reassign/ })).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: /^Choose / })).toHaveCount(0);

  await showMine(page, testInfo);
  await expect(page).toHaveURL(new RegExp(`assigned_user_id=${agent.id}`));
  await expect(page.getByText('Gil Shani').first()).toBeVisible();
  await expect(page.getByText('Ron Bar')).toHaveCount(0);
  await lookAt(page, 'leads-mine', testInfo);
});

test('an owner hands policies to an agent in bulk, and sets a policy’s producer’s share @phone', async ({
  page,
  request,
  browser,
  agency,
}, testInfo) => {
  test.slow();
  const agent = await teamMember(request, agency, 'agent', 'Avi');
  const { ids } = agency;
  await creator(request, agency)('/api/policies/', {
    policy_number: 'P-2001',
    customer_id: ids.customer,
    company_id: ids.company,
    policy_type_id: ids.type,
    start_date: '2026-02-01',
    end_date: '2027-01-31',
    total_premium: '800.00',
  });
  await signInWithTokens(page, agency);
  await page.goto('/policies');
  await page.getByRole('checkbox', { name: 'Choose P-1042' }).check();
  await page.getByRole('checkbox', { name: 'Choose P-2001' }).check();
  // Away from the rows: a row under the pointer is shaded, a passing state the picture leaves out.
  await page.mouse.move(0, 0);
  await lookAt(page, 'policies-chosen', testInfo);
  await page.getByRole('button', { name: 'Reassign (2)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reassign 2 policies' });
  await dialog.getByRole('combobox', { name: 'Member' }).click();
  await page.getByRole('option', { name: 'Avi Cohen' }).click();
  await dialog.getByRole('button', { name: 'Reassign' }).click();
  await expect(page.getByText('2 policies reassigned.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reassign', exact: true })).toBeDisabled();
  const assigned = await request.get(`/api/policies/?assigned_to=${agent.id}`, {
    headers: { authorization: `Bearer ${agency.access}` },
  });
  const numbers = ((await assigned.json()) as { results: { policy_number: string }[] }).results.map(
    (policy) => policy.policy_number,
  );
  expect(numbers.sort()).toEqual(['P-1042', 'P-2001']);
  // The leads take the same checkboxes and button, beside their own actions.
  await page.goto('/leads');
  await expect(page.getByRole('button', { name: 'Reassign', exact: true })).toBeDisabled();
  await lookAt(page, 'leads-reassign', testInfo);

  // The share of the commission Avi earns on this one, instead of his default.
  await page.goto(`/policies/${ids.policy}/edit`);
  const share = page.getByRole('textbox', { name: "Producer's share (%)" });
  await expect(share).toHaveValue('');
  await expect(page.getByText("Leave empty to use the producer's default share.")).toBeVisible();
  await share.fill('30');
  await lookAt(page, 'policy-form-share', testInfo);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText("Producer's share").first()).toBeVisible();
  await expect(page.getByText('30.00%')).toBeVisible();

  // An agent edits the policy without the share, which stays the team's.
  const theirs = await otherBrowser(browser, testInfo);
  const theirPage = await theirs.newPage();
  await signInWithTokens(theirPage, agent);
  await theirPage.goto(`/policies/${ids.policy}/edit`);
  await expect(theirPage.getByRole('textbox', { name: 'Policy number' })).toBeVisible();
  await expect(theirPage.getByRole('textbox', { name: "Producer's share (%)" })).toHaveCount(0);
  await theirPage.goto('/policies');
  await expect(theirPage.getByText('P-1042').first()).toBeVisible();
  await expect(theirPage.getByRole('checkbox', { name: /^Choose / })).toHaveCount(0);
  await theirs.close();
});

test('a viewer who opens a form by its address is told their role changes nothing, with the way back @phone', async ({
  page,
  request,
  agency,
}, testInfo) => {
  const viewer = await teamMember(request, agency, 'viewer', 'Tamar');
  await signInWithTokens(page, viewer);
  const notice = 'Your role can view but not change records. Ask an owner or manager.';

  await page.goto('/customers/create');
  await expect(page.getByRole('heading', { name: 'View only' })).toBeVisible();
  await expect(page.getByText(notice)).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'First name', exact: true })).toHaveCount(0);
  await lookAt(page, 'viewer-notice', testInfo);
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/customers$/);
  await expect(page.getByText('Dana Levi').first()).toBeVisible();

  await page.goto(`/policies/${agency.ids.policy}/edit`);
  await expect(page.getByText(notice)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page).toHaveURL(new RegExp(`/policies/${agency.ids.policy}$`));
  await expect(page.getByRole('heading', { name: /P-1042/ })).toBeVisible();

  for (const path of ['/leads/create', '/claims/create', '/policy-import']) {
    await page.goto(path);
    await expect(page.getByText(notice), path).toBeVisible();
  }
});

test('an agent narrows the payments and the renewals due to their own with Mine @phone', async ({
  page,
  request,
  agency,
}, testInfo) => {
  const agent = await teamMember(request, agency, 'agent', 'Avi');
  const { ids } = agency;
  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  // Both end within the renewals' first window, each with its instalment on the payments list; a
  // policy that names no one is the owner's, who adds it.
  const endingIn = (days: number, policy_number: string, assignee: object = {}) =>
    creator(request, agency)('/api/policies/', {
      policy_number,
      customer_id: ids.customer,
      company_id: ids.company,
      policy_type_id: ids.type,
      start_date: day(days - 364),
      end_date: day(days),
      total_premium: '700.00',
      ...assignee,
    });
  await endingIn(20, 'P-3001', { assigned_to: agent.id });
  await endingIn(10, 'P-3002');
  await signInWithTokens(page, agent);

  for (const path of ['/payments', '/alerts']) {
    await page.goto(path);
    await expect(page.getByText(/P-3002/).first()).toBeVisible();
    await showMine(page, testInfo);
    await expect(page).toHaveURL(new RegExp(`assigned_to=${agent.id}`));
    await expect(page.getByText(/P-3001/).first()).toBeVisible();
    await expect(page.getByText(/P-3002/)).toHaveCount(0);
    await lookAt(page, `${path.slice(1)}-mine`, testInfo);
  }
});
