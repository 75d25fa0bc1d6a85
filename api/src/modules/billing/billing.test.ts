import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, bearer, createTestApp, registerAgency, type TestApp } from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { bearerAuth } from '../../http/authenticate.js';
import { authorizeModule } from './access.js';
import { paymentMethods, plans, subscriptions } from './tables.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { demoAgency: true });
  // A stand-in for a premium module's route, to exercise the server-side plan gate.
  t.app.get('/gated/analytics', { schema: { security: bearerAuth } }, async (request) => {
    await authorizeModule({ db: t.database.db }, request, 'module_customer_analytics');
    return { ok: true };
  });
});
afterAll(() => t.close());

const get = (url: string, token?: string) =>
  t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });

const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000);

async function setSubscription(tenantId: string, changes: Partial<typeof subscriptions.$inferInsert>) {
  await withTenant(t.database.db, tenantId, (tx) =>
    tx.update(subscriptions).set(changes).where(eq(subscriptions.tenantId, tenantId)),
  );
}

describe('plans', () => {
  it('lists the catalogue publicly, with the Professional sample plan as the spec gives it', async () => {
    const response = await get('/api/billing/plans/');
    expect(response.statusCode).toBe(200);
    const { results } = response.json();
    expect(results.map((plan: { name: string }) => plan.name)).toEqual(['starter', 'professional', 'agency']);
    const professional = results[1];
    expect(professional).toMatchObject({
      display_name: 'Professional',
      trial_days: 14,
      price_monthly: '79.99',
      price_yearly: '799.99',
      limits: { policies: 500, customers: 1000, leads: 200, storage_mb: 5000 },
      is_active: true,
      features: { excluded: [] },
    });
    expect(professional.features.included).toContain('module_portfolio_history');
    const starter = results[0];
    expect(starter.features.excluded.sort()).toEqual(
      ['module_customer_analytics', 'module_portfolio_analytics', 'module_portfolio_history'].sort(),
    );
    expect(starter.features.included).not.toContain('module_customer_analytics');
  });
});

describe('subscriptions', () => {
  it('starts every new agency on a 14-day Professional trial', async () => {
    const agency = await registerAgency(t.app);
    const current = await get('/api/billing/subscriptions/current/', agency.access);
    expect(current.statusCode).toBe(200);
    const body = current.json();
    expect(body).toMatchObject({
      status: 'trial',
      billing_cycle: 'monthly',
      is_trial_active: true,
      days_until_trial_expires: 14,
      is_active: true,
      plan_details: { name: 'professional', limits: { customers: 1000 } },
    });
    const trialDays = (Date.parse(body.trial_ends_at) - Date.parse(body.trial_started_at)) / 86_400_000;
    expect(trialDays).toBeCloseTo(14, 5);

    const status = (await get('/api/billing/subscriptions/status/', agency.access)).json();
    expect(status).toMatchObject({ status: 'trial', is_active: true, plan_id: body.plan_details.id });
    expect(status.features).toContain('module_customer_analytics');
  });

  it('counts the days left and reports an ended trial as expired with no modules', async () => {
    const agency = await registerAgency(t.app);
    await setSubscription(agency.user.tenant_id, { trialEndsAt: hoursFromNow(2 * 24 + 3) });
    expect((await get('/api/billing/subscriptions/status/', agency.access)).json()).toMatchObject({
      days_until_trial_expires: 3,
      is_trial_active: true,
    });

    await setSubscription(agency.user.tenant_id, { trialEndsAt: hoursFromNow(-0.02) });
    expect((await get('/api/billing/subscriptions/status/', agency.access)).json()).toMatchObject({
      status: 'expired',
      is_trial_active: false,
      days_until_trial_expires: 0,
      is_active: false,
      features: [],
    });
  });

  it('needs a signed-in user', async () => {
    expect((await get('/api/billing/subscriptions/current/')).statusCode).toBe(401);
    expect((await get('/api/billing/subscriptions/status/')).statusCode).toBe(401);
  });
});

describe('plan gate on the server', () => {
  it('opens a module the plan includes during the trial', async () => {
    const agency = await registerAgency(t.app);
    expect((await get('/gated/analytics', agency.access)).statusCode).toBe(200);
  });

  it('answers 403 naming the upgrade path when the plan excludes the module', async () => {
    const agency = await registerAgency(t.app);
    const [starter] = await t.database.db.select().from(plans).where(eq(plans.name, 'starter'));
    await setSubscription(agency.user.tenant_id, { planId: starter?.id, status: 'active' });
    const response = await get('/gated/analytics', agency.access);
    expect(response.statusCode).toBe(403);
    expect(response.json().detail).toMatch(/Starter plan does not include Customer Analytics.*Upgrade/);
  });

  it('answers 402 once the trial has ended', async () => {
    const agency = await registerAgency(t.app);
    await setSubscription(agency.user.tenant_id, { trialEndsAt: hoursFromNow(-24) });
    const response = await get('/gated/analytics', agency.access);
    expect(response.statusCode).toBe(402);
    expect(response.json().detail).toMatch(/not active/);
  });

  it('lets platform admins through whatever their plan', async () => {
    const t2 = await createTestApp({ adminEmails: ['ops@coverdesk.test'] });
    try {
      t2.app.get('/gated/analytics', { schema: { security: bearerAuth } }, async (request) => {
        await authorizeModule({ db: t2.database.db }, request, 'module_customer_analytics');
        return { ok: true };
      });
      const admin = await registerAgency(t2.app, { email: 'ops@coverdesk.test' });
      await withTenant(t2.database.db, admin.user.tenant_id, (tx) =>
        tx.update(subscriptions).set({ trialEndsAt: sql`now() - interval '1 day'` }),
      );
      const response = await t2.app.inject({
        method: 'GET',
        url: '/gated/analytics',
        headers: bearer(admin.access),
      });
      expect(response.statusCode).toBe(200);
    } finally {
      await t2.close();
    }
  });
});

describe('the demo agency', () => {
  const DEMO_REFUSAL = "The demo agency's plan cannot be changed; register to try billing";

  it('refuses every change to its subscription and cards, and leaves them as they were', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/accounts/login/demo/' });
    const { access_token: access, user } = login.json();
    const as = apiAs(t.app, access);
    // A card on the demo agency's file, for the calls that name one.
    const [card] = await withTenant(t.database.db, user.tenant_id, (tx) =>
      tx
        .insert(paymentMethods)
        .values({
          tenantId: user.tenant_id,
          brand: 'visa',
          last4: '4242',
          expiryMonth: 12,
          expiryYear: 2030,
          holderName: 'Dana Demo',
          isDefault: true,
        })
        .returning({ id: paymentMethods.id }),
    );
    const before = (await as.get('/api/billing/subscriptions/current/')).json();
    const cardsBefore = (await as.get('/api/billing/payment-methods/')).json();
    expect(cardsBefore.count).toBeGreaterThan(0);
    const [plan] = (await get('/api/billing/plans/')).json().results;
    const choice = { plan_id: plan.id, billing_cycle: 'yearly' };
    const checkout = { ...choice, success_url: '/billing', cancel_url: '/billing' };
    const cardBody = { expiry_month: 1, expiry_year: 2031, holder_name: 'A visitor' };

    const changes: [method: 'post' | 'put' | 'delete', url: string, body?: object][] = [
      ['post', '/api/billing/subscription/cancel/', { immediate: true }],
      ['post', '/api/billing/subscription/pause/', {}],
      ['post', '/api/billing/subscription/reactivate/', {}],
      ['post', '/api/billing/subscription/withdraw-scheduled-change/', {}],
      ['post', '/api/billing/subscription/change-plan/', { ...choice, change_type: 'immediate' }],
      ['post', '/api/billing/subscriptions/upgrade/', choice],
      ['post', '/api/billing/subscriptions/upgrade/', { ...choice, starts: 'at_trial_end' }],
      ['post', '/api/billing/subscriptions/create_checkout_session/', checkout],
      ['post', '/api/billing/subscriptions/create_payment_intent/', checkout],
      ['post', '/api/billing/payment-methods/add/', { ...cardBody, brand: 'visa', last4: '1111' }],
      ['put', `/api/billing/payment-methods/${card?.id}/`, cardBody],
      ['post', `/api/billing/payment-methods/${card?.id}/set-default/`, {}],
      ['delete', `/api/billing/payment-methods/${card?.id}/delete/`],
      ['post', '/api/billing/payment-methods/add-checkout/', {}],
    ];
    for (const [method, url, body] of changes) {
      const response = await as[method](url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json()).toEqual({ detail: DEMO_REFUSAL });
    }

    expect((await as.get('/api/billing/subscriptions/current/')).json()).toEqual(before);
    expect((await as.get('/api/billing/payment-methods/')).json()).toEqual(cardsBefore);
    expect((await as.get('/api/billing/events/')).statusCode).toBe(200);
    expect((await as.get('/api/billing/subscriptions/status/')).json()).toMatchObject({ is_active: true });
  });

  it("leaves an agency's own broker free to cancel", async () => {
    const agency = await registerAgency(t.app);
    const cancelled = await apiAs(t.app, agency.access).post('/api/billing/subscription/cancel/', {
      immediate: true,
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().subscription).toMatchObject({ status: 'cancelled', is_active: false });
  });
});
