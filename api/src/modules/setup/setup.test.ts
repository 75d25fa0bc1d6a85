import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInAgency, type TestApp } from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { companies } from '../companies/tables.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const agency = () => signedInAgency(t.app);

/** Straight into the table, so these tests do not wait on the companies API. */
const addInsurer = (tenantId: string, name: string) =>
  withTenant(t.database.db, tenantId, (tx) => tx.insert(companies).values({ tenantId, name }));

const status = async (as: Awaited<ReturnType<typeof agency>>['as']) => {
  const response = await as.get('/api/setup/status/');
  expect(response.statusCode).toBe(200);
  return response.json();
};

describe('setup status', () => {
  it('is complete once the agency has policy types and insurers', async () => {
    const { as, user } = await agency();
    expect(await status(as)).toEqual({ hasPolicyTypes: false, hasCompanies: false, isComplete: false });

    await as.post('/api/policy-types/', { name: 'Motor', category: 'auto' });
    expect(await status(as)).toEqual({ hasPolicyTypes: true, hasCompanies: false, isComplete: false });

    await addInsurer(user.tenant_id, 'Harel');
    expect(await status(as)).toEqual({ hasPolicyTypes: true, hasCompanies: true, isComplete: true });
  });

  it("does not count another agency's types and insurers", async () => {
    const owner = await agency();
    const other = await agency();
    await owner.as.post('/api/policy-types/', { name: 'Motor', category: 'auto' });
    await addInsurer(owner.user.tenant_id, 'Harel');
    expect(await status(owner.as)).toMatchObject({ isComplete: true });
    expect(await status(other.as)).toEqual({ hasPolicyTypes: false, hasCompanies: false, isComplete: false });
  });

  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/setup/status/' })).statusCode).toBe(401);
  });
});
