import { changeSubscription, expect, expectAccessible, signInWithTokens, test } from './fixtures.js';

test('a trial agency near expiry upgrades, moves to yearly at period end, cancels at period end and reactivates', async ({
  page,
  request,
  broker,
}, testInfo) => {
  // Six screens and four plan changes: on a busy two-core machine, past the default 30 s.
  test.slow();
  await changeSubscription(request, broker.tenantId, {
    trial_ends_at: new Date(Date.now() + 2 * 86_400_000 + 3_600_000).toISOString(),
  });
  await signInWithTokens(page, broker);
  await page.goto('/dashboard');
  const banner = page.getByRole('region', { name: 'Subscription' });
  await expect(banner).toContainText('Trial expires in 3 days');
  await banner.getByRole('link', { name: 'Upgrade Now' }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByText('3 days left')).toBeVisible();
  await expect(page.getByText('Trial time left')).toBeVisible();
  await expect(page.getByText('3 of 14 days', { exact: true })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: '3 of 14 trial days left' })).toHaveAttribute(
    'aria-valuenow',
    /^21\./,
  );
  await expect(page.getByText(/No payment provider is set up/).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath(`trial-${testInfo.project.name}.png`) });

  // Ending a trial is worded as such, and can be thought better of.
  await page.getByRole('button', { name: 'End trial' }).click();
  const endTrial = page.getByRole('dialog', { name: 'End your Professional trial?' });
  await expect(endTrial.getByRole('button', { name: /^End trial on [A-Z][a-z]{2} \d/ })).toBeVisible();
  await endTrial.getByRole('radio', { name: /^Immediately/ }).check();
  await expect(endTrial.getByRole('button', { name: 'End trial now' })).toBeVisible();
  await endTrial.getByRole('button', { name: 'Keep trial' }).click();
  await expect(endTrial).toHaveCount(0);

  // Upgrade: the manual provider applies it at once.
  await page.getByRole('button', { name: 'Choose Professional' }).click();
  const subscribe = page.getByRole('dialog', { name: 'Subscribe to Professional' });
  await expect(subscribe).toContainText('$79.99 a month');
  await subscribe.getByRole('radio', { name: 'Start now' }).check();
  await subscribe.getByRole('button', { name: 'Subscribe' }).click();
  await expect(subscribe).toHaveCount(0);
  await expect(page.getByText(/^Billed monthly, renews on/)).toBeVisible();
  await expect(banner).toHaveCount(0);

  // Yearly from the end of the period, with the difference shown per month.
  await page.locator('label', { hasText: /^Yearly$/ }).click();
  await page.getByRole('button', { name: 'Switch to yearly' }).click();
  const change = page.getByRole('dialog', { name: 'Switch to Professional, billed yearly' });
  await expect(change).toContainText('$799.99 a year');
  await expect(change).toContainText('−$13.32 a month compared with now');
  await expect(change.getByRole('radio', { name: /At the end of the period/ })).toBeChecked();
  await expectAccessible(page);
  await change.getByRole('button', { name: 'Confirm change' }).click();
  await expect(change).toHaveCount(0);
  await expect(
    page.getByText(/^Moves to Professional, billed yearly, on [A-Z][a-z]{2} \d{1,2}, \d{4}\.$/),
  ).toBeVisible();
  await expect(
    page.getByText(/^You move to the Professional plan, billed yearly, on [A-Z][a-z]{2} \d/),
  ).toBeVisible();
  // The change is chosen: the yearly Professional card says when it starts instead of offering it again.
  await expect(page.getByRole('button', { name: 'Switch to yearly' })).toHaveCount(0);
  await expect(page.getByText(/^Starts on [A-Z][a-z]{2} \d{1,2}, \d{4}$/)).toBeVisible();
  await page.screenshot({
    path: testInfo.outputPath(`scheduled-${testInfo.project.name}.png`),
    fullPage: true,
  });

  // Cancel at period end: access continues until then.
  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  const cancel = page.getByRole('dialog', { name: 'Cancel your Professional subscription?' });
  await expect(cancel.getByLabel('Why are you leaving?')).toHaveAttribute('placeholder', /^For example: /);
  await cancel.getByLabel('Why are you leaving?').fill('Merging with another agency');
  for (const name of ['Keep subscription', 'Cancel at period end']) {
    expect((await cancel.getByRole('button', { name }).boundingBox())?.height).toBeGreaterThanOrEqual(44);
  }
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath(`cancel-${testInfo.project.name}.png`) });
  await cancel.getByRole('button', { name: 'Cancel at period end' }).click();
  await expect(cancel).toHaveCount(0);
  await expect(page.getByText(/^Cancelled: you keep access until/)).toBeVisible();

  await page.getByRole('button', { name: 'Reactivate subscription' }).click();
  await expect(page.getByText(/^Billed monthly, renews on/)).toBeVisible();

  const history = page.getByRole('heading', { name: 'Invoices and billing history' }).locator('..');
  for (const entry of ['Reactivated', 'Cancellation at period end', 'Plan change scheduled', 'Subscribed']) {
    await expect(history.getByText(entry, { exact: true })).toBeVisible();
  }
  await expect(history.getByText('Merging with another agency', { exact: false })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({
    path: testInfo.outputPath(`billing-${testInfo.project.name}.png`),
    fullPage: true,
  });
});

test('payment methods: a card is recorded, checked, made default, edited and removed after a confirmation @phone', async ({
  page,
  broker,
}, testInfo) => {
  await signInWithTokens(page, broker);
  await page.goto('/billing');
  const methods = page.getByRole('heading', { name: 'Payment methods' }).locator('../..');
  await expect(methods).toContainText('No payment method yet');

  await methods.getByRole('button', { name: 'Add payment method' }).click();
  const add = page.getByRole('dialog', { name: 'Add a card' });
  await add.getByRole('textbox', { name: 'Last four digits' }).fill('42');
  await add.getByRole('textbox', { name: 'Expiry month' }).fill('12');
  await add.getByRole('textbox', { name: 'Expiry year' }).fill('2030');
  await add.getByRole('textbox', { name: 'Name on card' }).fill('Noa Peretz');
  await add.getByRole('button', { name: 'Add card' }).click();
  await expect(add.getByText('Enter the last four digits of the card.')).toBeVisible();
  await expectAccessible(page);
  await add.getByRole('textbox', { name: 'Last four digits' }).fill('4242');
  await add.getByRole('button', { name: 'Add card' }).click();
  await expect(add).toHaveCount(0);

  await methods.getByRole('button', { name: 'Add payment method' }).click();
  await add.getByRole('textbox', { name: 'Last four digits' }).fill('5555');
  await add.getByRole('textbox', { name: 'Expiry month' }).fill('3');
  await add.getByRole('textbox', { name: 'Expiry year' }).fill('2029');
  await add.getByRole('textbox', { name: 'Name on card' }).fill('Noa Peretz');
  await add.getByRole('button', { name: 'Add card' }).click();
  await expect(add).toHaveCount(0);

  const second = methods.getByLabel('Visa ending 5555');
  await second.getByRole('button', { name: 'Make default' }).click();
  await expect(second.getByText('Default')).toBeVisible();

  const first = methods.getByLabel('Visa ending 4242');
  if (testInfo.project.name === 'mobile') {
    for (const name of ['Make default', 'Edit', 'Remove']) {
      expect((await first.getByRole('button', { name }).boundingBox())?.height).toBeGreaterThanOrEqual(44);
    }
  }
  await first.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit card' });
  await edit.getByRole('textbox', { name: 'Expiry year' }).fill('2031');
  await edit.getByRole('button', { name: 'Save card' }).click();
  await expect(first).toContainText('expires 12/2031');

  await second.getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove payment method' });
  await expect(confirm).toContainText('Another card on file becomes the default.');
  await confirm.getByRole('button', { name: 'Remove card' }).click();
  await expect(second).toHaveCount(0);
  await expect(first.getByText('Default')).toBeVisible();
  await page.screenshot({
    path: testInfo.outputPath(`payment-methods-${testInfo.project.name}.png`),
    fullPage: true,
  });
});

test('a plan chosen on the pricing page carries through registration to the checkout', async ({ page }) => {
  await page.goto('/pricing');
  await page.getByRole('link', { name: 'Subscribe now' }).first().click();
  await expect(page).toHaveURL(/\/checkout\?plan=starter&cycle=monthly$/);
  // The checkout's own cycle control, once its plan has come (the pricing page has one too).
  await expect(page.getByText('$29.99')).toBeVisible();
  await page
    .getByRole('radiogroup', { name: 'Billing cycle' })
    .locator('label', { hasText: /^Yearly$/ })
    .click();
  await expect(page.getByText('$299.99')).toBeVisible();
  await page.getByRole('link', { name: 'Create your account' }).click();
  await expect(page).toHaveURL(/\/register\?plan=starter&cycle=yearly$/);

  await page.getByLabel('First name').fill('Lior');
  await page.getByLabel('Last name').fill('Ben David');
  await page.getByLabel('Agency name').fill('Ben David Cover');
  await page.getByLabel('Work email').fill(`lior-${Date.now()}@example.com`);
  await page.getByRole('textbox', { name: 'Password' }).fill('quiet harbour lighthouse');
  await page.getByRole('button', { name: 'Create my agency' }).click();

  await expect(page).toHaveURL(/\/checkout\?plan=starter&cycle=yearly$/);
  await page.getByRole('button', { name: 'Subscribe to Starter' }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByText(/^Billed yearly, renews on/)).toBeVisible();
});

test('an expired agency is sent to billing from every page but the ones the spec leaves open', async ({
  page,
  request,
  broker,
}) => {
  await changeSubscription(request, broker.tenantId, {
    trial_ends_at: new Date(Date.now() - 60_000).toISOString(),
  });
  await signInWithTokens(page, broker);
  for (const path of [
    '/dashboard',
    '/customers',
    '/policies',
    '/leads',
    '/claims',
    '/calendar',
    '/companies',
  ]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/billing\?expired=true$/);
  }
  for (const path of [
    '/about',
    '/terms',
    '/pricing',
    '/contact',
    '/features',
    '/checkout',
    '/billing',
    '/profile',
    '/support',
  ]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(new RegExp(`${path.replace('/', '\\/')}$`));
  }
});
