import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import {
  adminSession,
  expect,
  expectAccessible,
  lastEmailTo,
  signInWithTokens,
  switchUser,
  test,
} from './fixtures.js';

const choose = async (page: Page, label: string, option: string) => {
  await page
    .getByRole('textbox', { name: label })
    .or(page.getByRole('combobox', { name: label }))
    .first()
    .click();
  await page.getByRole('option', { name: option }).click();
};

test('a broker opens a ticket, an admin answers and resolves it, and the broker reads the answer @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  // Three screens for the broker and two for the admin, on a machine shared with the server.
  test.slow();
  const shot = (name: string) =>
    page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  const subject = `Reminders stopped ${randomUUID().slice(0, 6)}`;

  await signInWithTokens(page, broker);
  await page.goto('/support');
  await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No tickets yet' })).toBeVisible();
  await expectAccessible(page);
  await shot('support-empty');

  await page.getByRole('link', { name: 'New ticket' }).first().click();
  await expect(page).toHaveURL(/\/support\/new$/);
  await page.getByRole('button', { name: 'Send ticket' }).click();
  await expect(page.getByText('This field may not be blank.')).toBeVisible();
  await expect(page.getByText('Choose a category.')).toBeVisible();
  await expect(page.getByText('Write a message.')).toBeVisible();

  await page.getByRole('textbox', { name: 'Subject' }).fill(subject);
  await choose(page, 'Category', 'Technical problem');
  await page
    .getByRole('textbox', { name: 'Message' })
    .fill('No renewal reminders since Monday.\nPolicy P-1042.');
  await page.locator('input[type="file"]').setInputFiles({
    name: 'steps.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('1. Open Notifications\n2. Nothing since Monday\n'),
  });
  await expect(page.getByText('steps.txt')).toBeVisible();
  await expectAccessible(page);
  await shot('support-new-ticket');
  await page.getByRole('button', { name: 'Send ticket' }).click();

  await expect(page).toHaveURL(/\/support\/[0-9a-f-]{36}$/);
  const ticketUrl = new URL(page.url()).pathname;
  const ticketId = ticketUrl.split('/').at(-1) ?? '';
  await expect(page.getByRole('heading', { name: subject })).toBeVisible();
  await expect(page.getByText('Open', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download steps.txt' })).toBeVisible();

  // The admin finds it in the inbox among the open tickets, takes it and answers.
  const admin = await adminSession(request);
  await switchUser(page, admin);
  await page.goto(`/admin/support?search=${encodeURIComponent(subject)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Support inbox' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Open', selected: true })).toBeVisible();
  await expect(page.getByText(broker.companyName).first()).toBeVisible();
  await expectAccessible(page);
  await shot('admin-support-inbox');
  await page.getByRole('link', { name: subject }).first().click();

  await expect(page).toHaveURL(new RegExp(`/admin/support/${ticketId}$`));
  await expect(page.getByText('No renewal reminders since Monday.')).toBeVisible();
  await choose(page, 'Assigned to', 'Ada Admin');
  await expect(page.getByText('Assigned to Ada Admin.')).toBeVisible();
  const answer = 'Fixed: your reminders go out again from tonight.';
  await page.getByRole('textbox', { name: 'Message' }).fill(answer);
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.getByText('Pending', { exact: true })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Messages' }).getByText(answer)).toBeVisible();
  await expectAccessible(page);
  await shot('admin-ticket');

  await page.getByRole('button', { name: 'Resolve' }).click();
  const dialog = page.getByRole('dialog', { name: 'Resolve this ticket?' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Resolve' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Resolved', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reopen' })).toBeVisible();

  // The broker is emailed the answer with the way back to the ticket, and reads it there.
  // Quoted-printable wraps long lines with a trailing "=".
  const email = (await lastEmailTo(request, broker.email)).replace(/=\r?\n/g, '');
  expect(email).toContain(`Subject: Re: ${subject}`);
  expect(email).toContain(`/support/${ticketId}`);

  await switchUser(page, broker);
  await page.goto(ticketUrl);
  const thread = page.getByRole('list', { name: 'Messages' });
  await expect(thread.getByText(answer)).toBeVisible();
  await expect(thread.getByText('Coverdesk support')).toBeVisible();
  await expect(page.getByText('Resolved', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await shot('support-ticket-answered');

  await page.goto('/support');
  await expect(page.getByRole('link', { name: subject }).first()).toBeVisible();
});
