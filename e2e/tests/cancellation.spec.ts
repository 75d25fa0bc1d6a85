import { creator, expect, expectAccessible, payInstalment, signInWithTokens, test } from './fixtures.js';

/** A day `days` from today (UTC: the test agencies' and the browser's time zone). */
const dayFrom = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Issue 31's SL-MOT-4001: a quarterly policy of 900.00 with its first instalment paid, cancelled
 * today, asked for nothing more, yet showed instalments 2-4 as due, on the calendar and with its whole
 * commission. After the cancellation nothing is left to chase.
 */
test('a policy cancelled today leaves nothing to chase: no payment to record, nothing overdue or on the calendar @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  test.slow();
  const post = creator(request, broker);
  const typeId = await post('/api/policy-types/', { name: 'Private motor', category: 'auto' });
  const companyId = await post('/api/companies/', {
    name: 'Shirbit',
    commission_payment_method: 'pro_rata',
    policy_types: [{ policy_type_id: typeId, commission_percentage: '12.5' }],
  });
  const customerId = await post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' });
  // From 40 days ago: instalment 1 paid, 2 to 4 due in about 51, 142 and 233 days.
  const policyId = await post('/api/policies/', {
    policy_number: 'SL-MOT-4001',
    customer_id: customerId,
    company_id: companyId,
    policy_type_id: typeId,
    start_date: dayFrom(-40),
    end_date: dayFrom(324),
    total_premium: '900.00',
    net_premium: '800.00',
    payment_frequency: 'quarterly',
  });
  await payInstalment(request, broker, policyId, 1);
  const headers = { authorization: `Bearer ${broker.access}` };
  const schedule = await request.get(`/api/policies/${policyId}/installments/`, { headers });
  const second = ((await schedule.json()) as { results: { due_date: string }[] }).results[1];
  if (!second) throw new Error('a quarterly policy has a second instalment');

  await signInWithTokens(page, broker);
  // The payments list: a table on a desk, a card an instalment on a phone.
  const inPayments =
    testInfo.project.name === 'mobile'
      ? page.locator('.mantine-Card-root').filter({ hasText: 'SL-MOT-4001' })
      : page.getByRole('row').filter({ hasText: 'SL-MOT-4001' });
  // Before: three instalments are due, the second of them on the calendar.
  await page.goto('/payments?status=due');
  // The app's first load, on a busy machine, may take longer than a step.
  await expect(page.getByRole('heading', { level: 1, name: 'Payments' })).toBeVisible({ timeout: 30_000 });
  await expect(inPayments).toHaveCount(3);
  await page.goto(`/calendar?view=month&date=${second.due_date}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Calendar' })).toBeVisible();
  const onCalendar = page.locator('.fc-event').filter({ hasText: 'Instalment 2' });
  await expect(onCalendar.first()).toBeVisible();

  await page.goto(`/policies/${policyId}`);
  await expect(page.getByRole('heading', { name: 'Policy SL-MOT-4001' })).toBeVisible();
  const record = page.getByRole('button', { name: /^Record a payment on SL-MOT-4001/ });
  await expect(record).toHaveCount(3);

  await page.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Cancel policy' }).click();
  const dialog = page.getByRole('dialog', { name: /Cancel policy SL-MOT-4001/ });
  await expect(dialog.getByLabel('Cancelled on')).toHaveValue(dayFrom(0));
  // A day outside the term is refused before it is sent.
  await dialog.getByLabel('Cancelled on').fill(dayFrom(400));
  await dialog.getByLabel('Reason').fill('Car sold');
  await dialog.getByRole('button', { name: 'Cancel policy' }).click();
  await expect(dialog.getByText(/Choose a day within the term/)).toBeVisible();
  await dialog.getByLabel('Cancelled on').fill(dayFrom(0));
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Cancel policy' }).click();
  await expect(page.getByText('Policy SL-MOT-4001 cancelled.')).toBeVisible();

  // The three instalments still to come are cancelled, with nothing to record on them.
  await expect(record).toHaveCount(0);
  const schedulePanel = page
    .locator('.mantine-Card-root')
    .filter({ has: page.getByRole('heading', { name: 'Instalments' }) });
  await expect(schedulePanel.getByText('Cancelled', { exact: true })).toHaveCount(3);
  // 40 days of 365 earn 900.00 x 40 / 365 = 98.63 of the premium: 100.00 x 98.63 / 900.00 = 10.96,
  // all of it received on the 225.00 paid.
  await expect(page.getByText('$10.96')).toHaveCount(2);
  // The summary shows what the term kept: 98.63 of the 900.00.
  await expect(page.getByText('$98.63 of $900.00')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('policy-cancelled.png'), fullPage: true });

  await page.goto(`/calendar?view=month&date=${second.due_date}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Calendar' })).toBeVisible();
  await expect(onCalendar).toHaveCount(0);

  await page.goto('/payments?status=due');
  await expect(page.getByRole('heading', { level: 1, name: 'Payments' })).toBeVisible();
  await expect(inPayments).toHaveCount(0);
  await page.goto('/payments?status=overdue');
  await expect(page.getByRole('heading', { level: 1, name: 'Payments' })).toBeVisible();
  await expect(inPayments).toHaveCount(0);
});
