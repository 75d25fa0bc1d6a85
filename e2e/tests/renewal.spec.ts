import type { APIRequestContext } from '@playwright/test';
import { type Broker, expect, expectAccessible, signInWithTokens, test } from './fixtures.js';

/** Harel selling Motor, a customer, and one policy of 2,400.00 with a net of 2,200.00 at 10%. */
async function seedPolicy(request: APIRequestContext, broker: Broker) {
  const headers = { authorization: `Bearer ${broker.access}` };
  const call = async (method: 'post' | 'put', url: string, data: object) => {
    const response = await request[method](url, { headers, data });
    expect(response.status(), await response.text()).toBeLessThan(300);
    return (await response.json()) as { id: string };
  };
  const motor = await call('post', '/api/policy-types/', { name: 'Motor', category: 'auto' });
  const harel = await call('post', '/api/companies/', {
    name: 'Harel',
    policy_types: [{ policy_type_id: motor.id, commission_percentage: '10' }],
  });
  const customer = await call('post', '/api/customers/', { first_name: 'Noa', last_name: 'Friedman' });
  const policy = await call('post', '/api/policies/', {
    policy_number: 'HR-2026-001',
    customer_id: customer.id,
    company_id: harel.id,
    policy_type_id: motor.id,
    start_date: '2026-01-01',
    end_date: '2026-12-31',
    total_premium: '2400.00',
    net_premium: '2200.00',
    commission_percentage: '10',
  });
  // The insurer pays more on Motor since the policy was sold.
  await call('put', `/api/companies/${harel.id}/`, {
    name: 'Harel',
    policy_types: [{ policy_type_id: motor.id, commission_percentage: '11.5' }],
  });
  return { policy, harel, motor, customer };
}

test('a renewal at a new premium keeps the net in proportion and takes the new number and rate', async ({
  page,
  broker,
  request,
}, testInfo) => {
  const { policy } = await seedPolicy(request, broker);
  await signInWithTokens(page, broker);
  await page.goto(`/policies/${policy.id}/renew`);

  const net = page.getByRole('textbox', { name: 'Net premium' });
  await expect(net).toHaveValue('2200.00');
  await expect(page.getByRole('textbox', { name: 'Commission (%)' })).toHaveValue('11.50');
  await expect(page.getByRole('textbox', { name: 'Policy number' })).toHaveValue('HR-2026-001');
  await page.getByRole('textbox', { name: 'Total premium' }).fill('2520');
  // 2,200 of 2,400 is 2,310 of 2,520, to the cent.
  await expect(net).toHaveValue('2310.00');
  await page.getByRole('textbox', { name: 'Policy number' }).fill('HR-2027-001');
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('renew-form.png'), fullPage: true });
  await page.getByRole('button', { name: 'Renew policy' }).click();

  await expect(page.getByRole('heading', { name: /HR-2027-001/ })).toBeVisible();
  await expect(page.getByText('$2,310.00').first()).toBeVisible();
  // 2,310.00 x 11.5% = 265.65 expected commission.
  await expect(page.getByText('$265.65').first()).toBeVisible();
});

test('a renewal from before the term ends says when the term will end and what it earns, and the policy page shows it @phone', async ({
  page,
  broker,
  request,
}, testInfo) => {
  const { policy } = await seedPolicy(request, broker);
  await signInWithTokens(page, broker);
  await page.goto(`/policies/${policy.id}/renew`);
  // From the day after the end, nothing to tell.
  await expect(page.getByRole('textbox', { name: 'Policy number' })).toHaveValue('HR-2026-001');
  await expect(page.getByText('This term will end early')).toHaveCount(0);

  await page.getByLabel('Starts').fill('2026-12-20');
  const notice = page.getByRole('alert').filter({ hasText: 'This term will end early' });
  // 353 of 365 days: 2,321.10 of 2,400.00, and 212.77 of the 220.00 commission.
  await expect(notice).toContainText('2,321.10');
  await expect(notice).toContainText('212.77');
  await expect(notice).toContainText('2026');
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('renew-early.png'), fullPage: true });
  await page.getByRole('button', { name: 'Renew policy' }).click();
  await expect(page.getByText('Policy HR-2026-001 renewed.')).toBeVisible();
  await expect(page).not.toHaveURL(/renew$/);

  await page.goto(`/policies/${policy.id}`);
  await expect(page.getByText('Ended early by renewal')).toBeVisible();
  await expect(page.getByText('$2,321.10').first()).toBeVisible();
  await expect(page.getByText('$212.77').first()).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('policy-ended-early.png'), fullPage: true });
});

test('a net the broker typed stays when the premium changes after it', async ({ page, broker, request }) => {
  const { policy } = await seedPolicy(request, broker);
  await signInWithTokens(page, broker);
  await page.goto(`/policies/${policy.id}/renew`);
  const net = page.getByRole('textbox', { name: 'Net premium' });
  await net.fill('2000');
  await page.getByRole('textbox', { name: 'Total premium' }).fill('2600');
  await expect(net).toHaveValue('2000');
  await page.getByRole('textbox', { name: 'Total premium' }).fill('1900');
  await page.getByRole('button', { name: 'Renew policy' }).click();
  await expect(page.getByText('The net premium cannot be more than the total premium.')).toBeVisible();
});

test('the policy form shows every problem on the first submit and warns of a number already used', async ({
  page,
  broker,
  request,
}, testInfo) => {
  await seedPolicy(request, broker);
  await signInWithTokens(page, broker);
  await page.goto('/policies/create');
  await page.getByLabel('Starts').fill('2027-06-01');
  await page.getByLabel('Ends').fill('2027-01-01');
  await page.getByRole('textbox', { name: 'Total premium' }).fill('100');
  await page.getByRole('textbox', { name: 'Net premium' }).fill('150');
  await page.getByRole('button', { name: 'Add policy' }).click();
  for (const message of [
    'Choose a customer.',
    'Choose an insurer.',
    'Choose a policy type.',
    'The policy must end after it starts.',
    'The net premium cannot be more than the total premium.',
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await expect(page.getByText('Not a valid id.')).toHaveCount(0);

  await page.getByRole('textbox', { name: 'Policy number' }).fill('hr-2026-001');
  const warning = page.getByRole('status').filter({ hasText: 'is already used' });
  await expect(warning).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('policy-number-warning.png'), fullPage: true });
  await warning.getByRole('link', { name: 'Noa Friedman, Harel' }).click();
  await expect(page).toHaveURL(/\/policies\/[0-9a-f-]+$/);
  await expect(page.getByRole('heading', { name: /HR-2026-001/ })).toBeVisible();
});

test('a phone number with letters is refused with a message that says what a number may hold', async ({
  page,
  broker,
}) => {
  await signInWithTokens(page, broker);
  await page.goto('/customers/create');
  await page.getByRole('textbox', { name: 'First name' }).fill('Noa');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Friedman');
  await page.getByRole('textbox', { name: 'Phone' }).fill('call after 5');
  await page.getByRole('button', { name: 'Add customer' }).click();
  await expect(
    page.getByText('Use digits, spaces, +, - and parentheses, and "ext." before an extension.'),
  ).toBeVisible();
  await page.getByRole('textbox', { name: 'Phone' }).fill('+972 (52) 123-4567 ext. 12');
  await page.getByRole('button', { name: 'Add customer' }).click();
  await expect(page.getByText('+972 (52) 123-4567 ext. 12')).toBeVisible();
});
