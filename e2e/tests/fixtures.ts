import { randomUUID } from 'node:crypto';
import { test as base, expect } from '@playwright/test';

export interface Broker {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  companyName: string;
  access: string;
  refresh: string;
}

/**
 * Every test gets a newly registered broker of its own, and fails on any console error the page
 * logs.
 */
export const test = base.extend<{ broker: Broker }>({
  broker: async ({ request }, use) => {
    const details = {
      email: `broker-${randomUUID().slice(0, 8)}@example.com`,
      password: 'quiet harbour lighthouse',
      first_name: 'Noa',
      last_name: 'Peretz',
      company_name: 'Peretz Insurance Brokers',
    };
    const response = await request.post('/api/accounts/register/', { data: details });
    expect(response.status()).toBe(201);
    const { access, refresh } = await response.json();
    await use({
      email: details.email,
      password: details.password,
      firstName: details.first_name,
      lastName: details.last_name,
      companyName: details.company_name,
      access,
      refresh,
    });
  },
  page: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await use(page);
    expect(errors, 'console errors on the page').toEqual([]);
  },
});

export { expect };
