import { expect, expectAccessible, lastEmailTo, settled, signInWithTokens, test } from './fixtures.js';

/** The header's bell, named by its unread count. */
const bellButton = (page: import('@playwright/test').Page) =>
  page.getByRole('button', { name: /^Notifications/ });

test('the demo greets a fresh sign-in with its unread reminders, and the bell leads to the payments', async ({
  page,
}, testInfo) => {
  // Opening the demo builds its agency first.
  test.slow();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  const popup = page.getByRole('dialog', { name: /^You have \d+ new notifications?$/ });
  await expect(popup).toBeVisible({ timeout: 15_000 });
  await expect(popup.getByRole('button', { name: /Overdue payment|Payment reminder/ }).first()).toBeVisible();
  await expect(popup.getByRole('button', { name: 'View All' })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('notification-popup.png') });
  await popup.getByRole('button', { name: 'Got it' }).click();
  await expect(popup).toBeHidden();

  await expect(bellButton(page)).toHaveAccessibleName(/^Notifications, \d+ unread$/);
  const unreadBefore = Number((await bellButton(page).getAttribute('aria-label'))?.match(/\d+/)?.[0]);
  await bellButton(page).click();
  const bell = page.getByRole('dialog').filter({ hasText: 'Show all notifications' });
  await expect(
    bell.getByRole('button', { name: /^Unread: (Overdue payment|Payment reminder)/ }).first(),
  ).toBeVisible();
  await expect(bell.getByText(/^(Just now|\d+m ago|\d+h ago)$/).first()).toBeVisible();
  await expect(bell.getByRole('img', { name: /priority$/ }).first()).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('notification-bell.png') });

  await bell
    .getByRole('button', { name: /^Unread: (Overdue payment|Payment reminder)/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/payments$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Payments Management' })).toBeVisible();
  // Opening it read it.
  await expect(bellButton(page)).toHaveAccessibleName(
    unreadBefore > 1 ? `Notifications, ${unreadBefore - 1} unread` : 'Notifications',
  );
});

test('a broker reads the bell, marks all read, changes a setting and sends a test', async ({
  page,
  broker,
  request,
}, testInfo) => {
  // A long walk through three screens, on a machine shared with the server.
  test.slow();
  const headers = { authorization: `Bearer ${broker.access}` };
  for (const type of ['payment_reminder', 'policy_renewal', 'meeting_reminder']) {
    const sent = await request.post('/api/notifications/settings/test_notification/', {
      headers,
      data: { notification_type: type },
    });
    expect(sent.status(), await sent.text()).toBe(201);
  }
  await signInWithTokens(page, broker);
  await page.goto('/notifications');
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await expect(page.getByText('3 notifications, 3 unread')).toBeVisible();
  await expect(bellButton(page)).toHaveAccessibleName('Notifications, 3 unread');
  await settled(page);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('notifications-page.png'), fullPage: true });

  await bellButton(page).click();
  const bell = page.getByRole('dialog').filter({ hasText: 'Show all notifications' });
  await expect(bell.getByRole('button', { name: /^Unread: / })).toHaveCount(3);
  await bell.getByRole('button', { name: 'Mark all read' }).click();
  await expect(bell.getByRole('button', { name: /^Unread: / })).toHaveCount(0);
  await expect(bellButton(page)).toHaveAccessibleName('Notifications');
  await page.keyboard.press('Escape');
  await expect(page.getByText('3 notifications, 0 unread')).toBeVisible();

  await page.goto('/notification-settings');
  await expect(page).toHaveURL(/\/notifications-settings$/);
  const payments = page.getByRole('region', { name: 'Payment reminder' });
  await expect(payments.getByLabel('Lead time (days)')).toHaveValue('3');
  await payments.getByLabel('Lead time (days)').fill('120');
  await payments.getByRole('button', { name: 'Save' }).click();
  await expect(payments.getByText('At most 90 days.')).toBeVisible();
  await payments.getByLabel('Lead time (days)').fill('5');
  // A test uses the saved settings, so it waits for these to be saved.
  await expect(payments.getByRole('button', { name: 'Send a test' })).toBeDisabled();
  await payments.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Payment reminder settings saved.')).toBeVisible();
  await settled(page);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('notification-settings.png'), fullPage: true });

  await payments.getByRole('button', { name: 'Send a test' }).click();
  await expect(page.getByText(`Test queued: the bell and email to ${broker.email}.`)).toBeVisible();
  expect(await lastEmailTo(request, broker.email)).toContain('Sample Customer');
  await expect(bellButton(page)).toHaveAccessibleName('Notifications, 1 unread');

  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page).toHaveURL(/tab=history/);
  await expect(page.getByText(/^Sent: \d+$/)).toBeVisible();
  await expect(page.getByText('Payment reminder: TEST-0001').first()).toBeVisible();
  await settled(page);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('notification-history.png'), fullPage: true });
});

test('an empty history and list lead to what fills them', async ({ page, broker }) => {
  await signInWithTokens(page, broker);
  await page.goto('/notifications');
  await expect(page.getByText('No notifications yet')).toBeVisible();
  await page.getByRole('link', { name: 'Notification Settings' }).last().click();
  await expect(page).toHaveURL(/\/notifications-settings$/);

  await page.getByRole('tab', { name: 'History' }).click();
  await expect(page.getByText('Nothing sent yet')).toBeVisible();
  await page.getByRole('button', { name: 'Send a test payment reminder' }).click();
  await expect(page.getByText(`Test queued: the bell and email to ${broker.email}.`)).toBeVisible();
  await expect(page.getByText('Payment reminder: TEST-0001').first()).toBeVisible();
});
