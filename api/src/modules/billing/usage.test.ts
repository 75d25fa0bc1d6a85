import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, setSubscription, signedInAgency, type TestApp } from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { customers } from '../customers/tables.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const agency = () => signedInAgency(t.app);

describe('usage', () => {
  it('shows how much of each Professional trial limit the agency uses, members and open invitations counted', async () => {
    const { as } = await agency();
    for (const last_name of ['Levi', 'Cohen', 'Mizrahi']) {
      expect((await as.post('/api/customers/', { first_name: 'Dana', last_name })).statusCode).toBe(201);
    }
    const invited = await as.post('/api/team/invitations/', {
      email: `agent-${Date.now()}@example.com`,
      role: 'agent',
    });
    expect(invited.statusCode).toBe(201);
    const response = await as.get('/api/billing/usage/summary/');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      policies: {
        current_value: 0,
        limit_value: 500,
        is_over_limit: false,
        usage_percentage: 0,
        remaining_usage: 500,
      },
      customers: {
        current_value: 3,
        limit_value: 1000,
        is_over_limit: false,
        usage_percentage: 0.3,
        remaining_usage: 997,
      },
      leads: {
        current_value: 0,
        limit_value: 200,
        is_over_limit: false,
        usage_percentage: 0,
        remaining_usage: 200,
      },
      users: {
        current_value: 2,
        limit_value: 10,
        is_over_limit: false,
        usage_percentage: 20,
        remaining_usage: 8,
      },
      storage_mb: {
        current_value: 0,
        limit_value: 5000,
        is_over_limit: false,
        usage_percentage: 0,
        remaining_usage: 5000,
      },
    });
  });

  it('shows an agency over the limit of a smaller plan, even once its subscription has lapsed', async () => {
    const { as, user } = await agency();
    await withTenant(t.database.db, user.tenant_id, (tx) =>
      tx.insert(customers).values(
        Array.from({ length: 261 }, (_, index) => ({
          tenantId: user.tenant_id,
          firstName: 'Bulk',
          lastName: `${index}`,
        })),
      ),
    );
    await setSubscription(t, user.tenant_id, { plan: 'starter', status: 'expired' });

    const response = await as.get('/api/billing/usage/summary/');
    expect(response.statusCode).toBe(200);
    expect(response.json().customers).toEqual({
      current_value: 261,
      limit_value: 250,
      is_over_limit: true,
      usage_percentage: 104.4,
      remaining_usage: 0,
    });
  });

  it("counts only the agency's own customers", async () => {
    const owner = await agency();
    const other = await agency();
    await owner.as.post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' });
    expect((await other.as.get('/api/billing/usage/summary/')).json().customers.current_value).toBe(0);
  });

  it('needs a signed-in user', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/billing/usage/summary/' });
    expect(response.statusCode).toBe(401);
  });
});
