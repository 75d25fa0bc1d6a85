import { randomUUID } from 'node:crypto';
import {
  adminSession,
  expect,
  expectAccessible,
  registerBroker,
  signInWithTokens,
  switchUser,
  test,
  uniqueEmail,
} from './fixtures.js';

// The admin portal's day: an agency asks for more time, the admin finds it, extends its trial,
// answers its ticket, and finds both actions in the platform's user activity.
test('an admin helps an agency and finds what they did in user activity', async ({ page, request }) => {
  // Six screens for the admin and one for the broker, on a machine shared with the server.
  test.slow();
  const agencyName = `Harbour Lights ${randomUUID().slice(0, 6)}`;
  const broker = await registerBroker(request, uniqueEmail('owner'), agencyName);
  const subject = `More time for our trial ${randomUUID().slice(0, 6)}`;
  const opened = await request.post('/api/support/tickets/', {
    headers: { authorization: `Bearer ${broker.access}` },
    multipart: {
      subject,
      category: 'billing',
      message: 'Our data import slipped a week. Could we have longer?',
    },
  });
  expect(opened.status(), await opened.text()).toBe(201);
  const ticketId = ((await opened.json()) as { id: string }).id;

  const admin = await adminSession(request);
  await signInWithTokens(page, admin);

  // Finds the agency and gives it another week.
  await page.goto('/admin/tenants');
  await page.getByRole('textbox', { name: 'Search agencies or emails' }).fill(agencyName);
  await expect(page.getByText('1 agency', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: new RegExp(agencyName) }).click();
  await expect(page.getByRole('heading', { name: agencyName })).toBeVisible();
  await page.getByRole('link', { name: 'Subscription' }).click();
  await page.getByRole('button', { name: 'Extend trial' }).click();
  const extend = page.getByRole('dialog', { name: `Extend trial: ${agencyName}` });
  await extend.getByRole('textbox', { name: 'Days' }).fill('7');
  await extend
    .getByRole('textbox', { name: 'Reason' })
    .fill('Asked in a support ticket: their import slipped');
  await extend.getByRole('button', { name: 'Extend trial', exact: true }).click();
  await expect(extend).toHaveCount(0);
  await expect(page.getByText(/^The trial now ends on /)).toBeVisible();

  // Answers the ticket from the inbox.
  await page.goto(`/admin/support?search=${encodeURIComponent(subject)}`);
  await page.getByRole('link', { name: subject }).first().click();
  await expect(page).toHaveURL(new RegExp(`/admin/support/${ticketId}$`));
  const answer = 'Done: your trial now runs a week longer.';
  await page.getByRole('textbox', { name: 'Message' }).fill(answer);
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.getByRole('list', { name: 'Messages' }).getByText(answer)).toBeVisible();

  // The broker reads the answer on their ticket.
  await switchUser(page, broker);
  await page.goto(`/support/${ticketId}`);
  await expect(page.getByRole('list', { name: 'Messages' }).getByText(answer)).toBeVisible();

  // Back in the portal, the agency's activity holds both actions, with who did them.
  await switchUser(page, admin);
  await page.goto(`/admin/user-activity?tenant=${broker.tenantId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'User activity' })).toBeVisible();
  const log = page.getByRole('main');
  await expect(log.getByText('Trial extended').first()).toBeVisible();
  await expect(log.getByText('Ticket answered').first()).toBeVisible();
  // Each line opens onto its details: the reason the admin gave.
  await log
    .getByRole('button', { name: /^Show details of Trial extended/ })
    .first()
    .click();
  await expect(log.getByText('Asked in a support ticket: their import slipped').first()).toBeVisible();
  await expectAccessible(page);
});
