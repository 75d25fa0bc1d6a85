import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerAgency, type TestApp } from '../../../test/test-app.js';

let t: TestApp;
let adminToken: string;
beforeAll(async () => {
  t = await createTestApp({ adminEmails: ['ops@coverdesk.test'] });
  adminToken = (await registerAgency(t.app, { email: 'ops@coverdesk.test' })).access;
});
afterAll(() => t.close());

const patchSubscription = (tenantId: string, token: string, payload: object) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/admin/tenants/${tenantId}/subscription/`,
    headers: bearer(token),
    payload,
  });

describe("an agency's subscription, changed by an admin", () => {
  it('moves the agency to another plan and ends its trial', async () => {
    const agency = await registerAgency(t.app);
    const past = new Date(Date.now() - 3_600_000).toISOString();
    const response = await patchSubscription(agency.user.tenant_id, adminToken, {
      plan: 'starter',
      trial_ends_at: past,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      plan_details: { name: 'starter' },
      status: 'expired',
      is_active: false,
    });

    const seenByAgency = await t.app.inject({
      method: 'GET',
      url: '/api/billing/subscriptions/status/',
      headers: bearer(agency.access),
    });
    expect(seenByAgency.json()).toMatchObject({ plan_details: { name: 'starter' }, is_active: false });
    const history = await t.app.inject({
      method: 'GET',
      url: '/api/billing/events/',
      headers: bearer(agency.access),
    });
    // Newest first: the trial the admin ended, then the admin's change itself.
    expect(history.json().results.map((event: { type: string }) => event.type)).toEqual([
      'trial_expired',
      'changed_by_admin',
      'trial_started',
    ]);
    expect(history.json().results[1]).toMatchObject({
      type: 'changed_by_admin',
      from_status: 'trial',
      plan_name: 'Starter',
      actor: 'Noa Peretz',
    });
  });

  it('is refused to anyone who is not an admin, including for their own agency', async () => {
    const agency = await registerAgency(t.app);
    const response = await patchSubscription(agency.user.tenant_id, agency.access, { status: 'active' });
    expect(response.statusCode).toBe(403);
    expect((await patchSubscription(agency.user.tenant_id, '', { status: 'active' })).statusCode).toBe(401);
  });

  it('answers 404 for an unknown agency and 400 for an unknown plan or a bad date', async () => {
    const missing = await patchSubscription('01890000-0000-7000-8000-000000000000', adminToken, {
      status: 'active',
    });
    expect(missing.statusCode).toBe(404);
    const agency = await registerAgency(t.app);
    expect((await patchSubscription(agency.user.tenant_id, adminToken, { plan: 'platinum' })).json()).toEqual(
      {
        plan: ['There is no plan named "platinum".'],
      },
    );
    const badDate = await patchSubscription(agency.user.tenant_id, adminToken, { trial_ends_at: 'tomorrow' });
    expect(badDate.json()).toEqual({ trial_ends_at: ['Enter a date and time in ISO 8601 format.'] });
    expect((await patchSubscription('not-a-uuid', adminToken, {})).json()).toEqual({
      id: ['Not a valid id.'],
    });
  });
});
