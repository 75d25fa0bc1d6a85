import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { adminSession, expect, expectAccessible, signInWithTokens, test } from './fixtures.js';

/**
 * The three diagnostics a support engineer opens by URL, run by the platform admin on the admin's
 * own agency: a book over two insurers (one pro-rata, one full-policy) with a part-paid and a paid
 * policy and a cancellation, so every recomputed total has something to add up.
 */
async function seedAdminAgency(request: APIRequestContext, access: string) {
  const headers = { authorization: `Bearer ${access}` };
  const call = async (method: 'get' | 'post', url: string, data?: object) => {
    const response = await request[method](url, { headers, data });
    expect(response.ok(), await response.text()).toBe(true);
    return response.json();
  };
  // Desktop and mobile seed the same agency: the names stay apart.
  const tag = randomUUID().slice(0, 6);
  const type = await call('post', '/api/policy-types/', { name: `Home ${tag}`, category: 'home' });
  const insurers = await Promise.all(
    (['pro_rata', 'full_policy'] as const).map((method, index) =>
      call('post', '/api/companies/', {
        name: `Insurer ${index + 1} ${tag}`,
        commission_payment_method: method,
        policy_types: [{ policy_type_id: type.id, commission_percentage: index ? '10' : '12.5' }],
      }),
    ),
  );
  const customer = await call('post', '/api/customers/', { first_name: 'Dana', last_name: `Levi ${tag}` });
  const premiums = ['1000.00', '333.33', '777.77'];
  const policies = [];
  for (const [index, premium] of premiums.entries()) {
    policies.push(
      await call('post', '/api/policies/', {
        policy_number: `D-${tag}-${index}`,
        customer_id: customer.id,
        company_id: insurers[index % 2].id,
        policy_type_id: type.id,
        start_date: '2026-01-01',
        end_date: '2026-12-31',
        total_premium: premium,
        payment_frequency: index === 1 ? 'single' : 'quarterly',
      }),
    );
  }
  for (const policy of policies.slice(0, 2)) {
    const { results } = await call('get', `/api/policies/${policy.id}/installments/`);
    await call('post', `/api/installments/${results[0].id}/payment/`, {
      amount: policy === policies[0] ? '100.01' : undefined,
      payment_method: 'bank_transfer',
    });
  }
  await call('post', `/api/policies/${policies[2].id}/cancel/`, {
    cancelled_at: '2026-06-30',
    reason: 'The customer sold the house.',
  });
}

async function lookAt(page: Page, name: string, testInfo: TestInfo) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

test('an admin runs the three diagnostics on the agency and every figure agrees @phone', async ({
  page,
  request,
}, testInfo) => {
  test.slow();
  const admin = await adminSession(request);
  await seedAdminAgency(request, admin.access);
  await signInWithTokens(page, admin);

  await page.goto('/performance-test');
  await expect(page.getByRole('heading', { level: 1, name: 'Performance test' })).toBeVisible();
  await page.getByLabel('Runs per call').selectOption('5');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status')).toBeVisible();
  await expect(page.getByRole('status')).toBeHidden({ timeout: 60_000 });
  for (const path of [
    '/policies/',
    '/policies/commission_batch/',
    '/analytics/customers/',
    '/installments/',
  ]) {
    await expect(page.getByText(`GET ${path}`, { exact: true })).toBeVisible();
  }
  await expect(page.getByText(/\d+ ms/).first()).toBeVisible();
  await expect(page.getByText(/refused|^\d{3}:/)).toHaveCount(0);
  await lookAt(page, 'performance-test', testInfo);

  for (const path of ['/commission-aggregation-test', '/analytics-summaries-test']) {
    await page.goto(path);
    await page.getByRole('button', { name: 'Run checks' }).click();
    await expect(page.getByText(/All \d+ checks match to the cent\./)).toBeVisible({ timeout: 60_000 });
    await expect(page.getByText(/differs by/)).toHaveCount(0);
    const verdict = await page.getByText(/All \d+ checks match to the cent\./).textContent();
    expect(Number(verdict?.match(/\d+/)?.[0])).toBeGreaterThan(5);
    await lookAt(page, path.slice(1), testInfo);
  }
  if (testInfo.project.name === 'mobile') {
    // A phone folds each agreeing group to one line; opened, it shows each figure as a card.
    await page.getByRole('button', { name: /Current portfolio/ }).click();
    await expect(page.getByText('Premium in force = premium of active policies in the list')).toBeVisible();
    await lookAt(page, 'analytics-summaries-test-opened', testInfo);
  }

  // A period narrows both sides the same way.
  await page.goto('/commission-aggregation-test');
  await page.getByLabel('Period from').fill('2026-03-01');
  await page.getByLabel('Period to').fill('2026-03-31');
  await page.getByRole('button', { name: 'Run checks' }).click();
  await expect(page.getByText(/All \d+ checks match to the cent\./)).toBeVisible({ timeout: 60_000 });
});

test('a broker opening a diagnostic is refused', async ({ page, broker }) => {
  await signInWithTokens(page, broker);
  await page.goto('/performance-test');
  await expect(page.getByRole('heading', { name: 'Admins only' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toHaveCount(0);
});
