import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import {
  adminSession,
  changeSubscription,
  expect,
  PASSWORD,
  seedAgency,
  signInWithTokens,
  test,
  uniqueEmail,
} from './fixtures.js';

async function register(request: import('@playwright/test').APIRequestContext, company: string) {
  const response = await request.post('/api/accounts/register/', {
    data: { email: uniqueEmail('shots'), password: PASSWORD, first_name: 'Tamar', last_name: 'Shore', company_name: company },
  });
  expect(response.status()).toBe(201);
  const body = await response.json();
  return { tenantId: body.user.tenant_id as string, access: body.access as string, refresh: body.refresh as string, email: body.user.email as string };
}

test('uifix screenshots', async ({ page, request }, info) => {
  test.setTimeout(240_000);
  const name = info.project.name;
  const shot = async (what: string, settle = 800) => {
    await page.waitForTimeout(settle);
    await page.screenshot({ path: `/work/shots/uifix/${what}-${name}.png` });
  };
  const suffix = randomUUID().slice(0, 6);
  const paying = await register(request, `Harbour Lights ${suffix}`);
  await seedAgency(request, { ...paying, password: PASSWORD, firstName: 'Tamar', lastName: 'Shore', companyName: `Harbour Lights ${suffix}` } as never);
  await changeSubscription(request, paying.tenantId, { plan: 'professional', status: 'active', billing_cycle: 'monthly' });
  await changeSubscription(request, paying.tenantId, { plan: 'starter', reason: 'Asked to move down a plan' });
  const trial = await register(request, `Lighthouse Cover ${suffix}`);
  const admin = await adminSession(request);
  const ticket = await request.post('/api/support/tickets/', {
    headers: { authorization: `Bearer ${trial.access}` },
    multipart: { subject: 'Reminders stopped', category: 'technical', message: 'No renewal reminders since Monday.' },
  });
  await signInWithTokens(page, admin);

  await page.goto('/admin/revenue-analytics');
  await expect(page.getByText('How MRR moved')).toBeVisible();
  await page.getByText('How MRR moved').scrollIntoViewIfNeeded();
  await shot('revenue-moved');
  await page.getByRole('heading', { name: 'By plan' }).scrollIntoViewIfNeeded();
  await shot('revenue-by-plan');

  await page.goto(`/admin/billing?search=${suffix}`);
  await page.getByRole('heading', { name: 'Billing events' }).scrollIntoViewIfNeeded();
  await shot('billing-events', 1500);

  await page.goto(`/admin/tenants?search=${suffix}`);
  await shot('tenants', 1500);
  await page.goto(`/admin/tenants/${trial.tenantId}`);
  await shot('tenant');
  await page.goto(`/admin/tenants/${trial.tenantId}/subscription`);
  await shot('subscription');
  await page.getByRole('button', { name: 'Change plan' }).click();
  await shot('subscription-dialog');
  await page.getByRole('dialog').getByRole('button', { name: 'Change plan' }).click();
  await shot('subscription-dialog-confirmed', 400);
  await page.keyboard.press('Escape');

  await page.goto('/admin/users');
  await shot('users', 1500);
  await page.goto('/admin/super-admin');
  await shot('super-admin');
  await page.goto(`/admin/user-activity?tenant=${paying.tenantId}&action=subscription_changed`);
  await shot('user-activity', 1500);
  await page.goto('/admin/system-health');
  await expect(page.getByRole('heading', { name: 'Diagnostics' })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await shot('system-health', 1500);
  await page.goto('/admin');
  await shot('dashboard', 1500);
  await page.goto('/admin/paddle-setup');
  await page.getByLabel('Client-side token').fill('');
  await page.getByRole('button', { name: /Save/ }).first().click();
  await page.getByLabel('Client-side token').scrollIntoViewIfNeeded();
  await shot('paddle-setup-error', 400);

  if (ticket.ok()) {
    const id = (await ticket.json()).id;
    await page.goto(`/admin/support/${id}`);
    await shot('admin-ticket-top');
    await page.getByRole('textbox', { name: 'Message' }).fill('Fixed: your reminders go out again from tonight.');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await expect(page.getByText(/Reply sent\. We emailed/)).toBeVisible();
    await page.getByRole('button', { name: 'Send reply' }).scrollIntoViewIfNeeded();
    await shot('admin-ticket-replied', 300);
  } else {
    console.log('ticket', ticket.status(), await ticket.text());
  }
});
