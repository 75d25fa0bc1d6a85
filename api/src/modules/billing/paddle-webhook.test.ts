import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, signedInAgency, type TestApp } from '../../../test/test-app.js';
import type { PaddleConfig } from '../../config.js';
import { applyPaddlePrices } from './plan-catalogue.js';

const SECRET = 'pdl_ntfset_test_secret';
const paddle: PaddleConfig = {
  apiKey: 'pdl_sdbx_apikey_test',
  clientToken: 'test_client_token',
  webhookSecret: SECRET,
  environment: 'sandbox',
  prices: {
    professional: { monthly: 'pri_prof_month', yearly: 'pri_prof_year' },
    agency: { monthly: 'pri_agency_month', yearly: '' },
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ paddle });
  await applyPaddlePrices(t.database.db, paddle);
});
afterAll(() => t.close());

/** Paddle-Signature as Paddle makes it: an HMAC-SHA256 of `ts:body` with the destination's secret. */
const sign = (body: string, secret = SECRET, ts = Math.floor(Date.now() / 1000)) => {
  return `ts=${ts};h1=${createHmac('sha256', secret).update(`${ts}:${body}`).digest('hex')}`;
};

const deliver = (event: object, signature?: string) => {
  const body = JSON.stringify(event);
  return t.app.inject({
    method: 'POST',
    url: '/api/billing/webhooks/paddle/',
    headers: { 'content-type': 'application/json', 'paddle-signature': signature ?? sign(body) },
    payload: body,
  });
};

/** The custom data Coverdesk's checkout gives Paddle, which Paddle returns in the events. */
const agency = (tenantId: string) => ({
  tenant_id: tenantId,
  tenant_sig: createHmac('sha256', SECRET).update(tenantId).digest('hex'),
});

const iso = (offsetDays: number, from = Date.now()) => new Date(from + offsetDays * 86_400_000).toISOString();

function subscriptionEvent(
  tenantId: string,
  eventType: string,
  occurredAt: string,
  fields: {
    status: string;
    price?: string;
    scheduled_change?: object | null;
    id?: string;
    custom_data?: object;
  },
) {
  return {
    event_id: `evt_${randomUUID()}`,
    event_type: eventType,
    occurred_at: occurredAt,
    notification_id: `ntf_${randomUUID()}`,
    data: {
      id: fields.id ?? `sub_${tenantId.slice(0, 8)}`,
      status: fields.status,
      customer_id: 'ctm_test',
      custom_data: fields.custom_data ?? agency(tenantId),
      current_billing_period: { starts_at: iso(0), ends_at: iso(30) },
      scheduled_change: fields.scheduled_change ?? null,
      items: [{ price: { id: fields.price ?? 'pri_prof_month' } }],
    },
  };
}

describe('Paddle webhook', () => {
  it('refuses a delivery whose signature does not match, changing nothing', async () => {
    const { as, user } = await signedInAgency(t.app);
    const event = subscriptionEvent(user.tenant_id, 'subscription.activated', iso(0), { status: 'active' });
    const forged = await deliver(event, sign(JSON.stringify(event), 'not-the-secret'));
    expect(forged.statusCode).toBe(401);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/billing/webhooks/paddle/',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(event),
    });
    expect(unsigned.statusCode).toBe(401);
    expect((await as.get('/api/billing/subscriptions/current/')).json().status).toBe('trial');
  });

  it('applies an activation once however often it is delivered', async () => {
    const { as, user } = await signedInAgency(t.app);
    const event = subscriptionEvent(user.tenant_id, 'subscription.activated', iso(0), {
      status: 'active',
      price: 'pri_prof_year',
    });
    expect((await deliver(event)).json()).toEqual({ outcome: 'applied' });
    expect((await deliver(event)).json()).toEqual({ outcome: 'duplicate' });

    expect((await as.get('/api/billing/subscriptions/current/')).json()).toMatchObject({
      status: 'active',
      provider: 'paddle',
      billing_cycle: 'yearly',
      plan_details: { name: 'professional' },
      is_active: true,
    });
    const { count, results } = (await as.get('/api/billing/events/')).json();
    expect(count).toBe(2);
    expect(results[1].type).toBe('trial_started');
    expect(results[0]).toMatchObject({
      type: 'upgraded',
      provider: 'paddle',
      provider_event_id: event.event_id,
      actor: null,
    });
  });

  it('ignores an older subscription.updated that arrives after a newer one', async () => {
    const { as, user } = await signedInAgency(t.app);
    const activated = subscriptionEvent(user.tenant_id, 'subscription.activated', iso(-1), {
      status: 'active',
    });
    const cancelling = subscriptionEvent(
      user.tenant_id,
      'subscription.updated',
      iso(0, Date.now() - 60_000),
      {
        status: 'active',
        scheduled_change: { action: 'cancel', effective_at: iso(30), resume_at: null },
      },
    );
    const stale = subscriptionEvent(user.tenant_id, 'subscription.updated', iso(0, Date.now() - 120_000), {
      status: 'active',
    });
    await deliver(activated);
    expect((await deliver(cancelling)).json().outcome).toBe('applied');
    expect((await deliver(stale)).json().outcome).toBe('ignored_older');

    expect((await as.get('/api/billing/subscriptions/current/')).json()).toMatchObject({
      status: 'cancelled',
      cancel_at_period_end: true,
      is_active: true,
    });
  });

  it('records a completed payment in the history, in dollars', async () => {
    const { as, user } = await signedInAgency(t.app);
    await deliver(subscriptionEvent(user.tenant_id, 'subscription.activated', iso(-1), { status: 'active' }));
    const payment = {
      event_id: `evt_${randomUUID()}`,
      event_type: 'transaction.completed',
      occurred_at: iso(0),
      data: {
        id: 'txn_test',
        subscription_id: `sub_${user.tenant_id.slice(0, 8)}`,
        custom_data: agency(user.tenant_id),
        currency_code: 'USD',
        details: { totals: { grand_total: '7999' } },
      },
    };
    expect((await deliver(payment)).json().outcome).toBe('applied');
    expect((await as.get('/api/billing/events/')).json().results[0]).toMatchObject({
      type: 'payment_completed',
      amount: '79.99',
      provider_event_id: payment.event_id,
    });
  });

  it('stores an event for no known agency without applying it, and refuses what is not an event', async () => {
    const orphan = subscriptionEvent(randomUUID(), 'subscription.activated', iso(0), { status: 'active' });
    expect((await deliver(orphan)).json().outcome).toBe('ignored_unknown_agency');
    expect((await deliver({ hello: 'world' })).statusCode).toBe(400);
  });
});

describe('checkout with Paddle configured', () => {
  it("answers what Paddle's overlay needs, without changing the subscription", async () => {
    const { as, user, email } = await signedInAgency(t.app);
    const { results } = (await as.get('/api/billing/plans/')).json();
    const professional = results.find((plan: { name: string }) => plan.name === 'professional');
    const response = await as.post('/api/billing/subscriptions/create_checkout_session/', {
      plan_id: professional.id,
      billing_cycle: 'yearly',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      provider: 'paddle',
      subscription: null,
      paddle: {
        environment: 'sandbox',
        client_token: 'test_client_token',
        price_id: 'pri_prof_year',
        customer_email: email,
        custom_data: { tenant_id: user.tenant_id, tenant_sig: agency(user.tenant_id).tenant_sig },
      },
    });
    const starter = results.find((plan: { name: string }) => plan.name === 'starter');
    const unpriced = await as.post('/api/billing/subscriptions/create_checkout_session/', {
      plan_id: starter.id,
    });
    expect(unpriced.statusCode).toBe(409);
    expect((await as.get('/api/billing/subscriptions/current/')).json().status).toBe('trial');
  });
});

describe('Paddle webhook trusts only what Coverdesk issued', () => {
  it("refuses to attach a subscription to an agency named in custom data without the server's signature", async () => {
    const victim = await signedInAgency(t.app);
    const attacker = await signedInAgency(t.app);
    const unsigned = subscriptionEvent(victim.user.tenant_id, 'subscription.activated', iso(0), {
      status: 'active',
      custom_data: { tenant_id: victim.user.tenant_id },
    });
    // The attacker's own signature does not vouch for another agency.
    const borrowed = subscriptionEvent(victim.user.tenant_id, 'subscription.activated', iso(0), {
      status: 'active',
      custom_data: {
        tenant_id: victim.user.tenant_id,
        tenant_sig: agency(attacker.user.tenant_id).tenant_sig,
      },
    });
    expect((await deliver(unsigned)).json().outcome).toBe('ignored_unsigned_agency');
    expect((await deliver(borrowed)).json().outcome).toBe('ignored_unsigned_agency');
    expect((await victim.as.get('/api/billing/subscriptions/current/')).json()).toMatchObject({
      status: 'trial',
      provider: 'manual',
    });
  });

  it('ignores a subscription whose price is in no plan', async () => {
    const { as, user } = await signedInAgency(t.app);
    const event = subscriptionEvent(user.tenant_id, 'subscription.activated', iso(0), {
      status: 'active',
      price: 'pri_someone_elses_product',
    });
    expect((await deliver(event)).json().outcome).toBe('ignored_unknown_price');
    expect((await as.get('/api/billing/subscriptions/current/')).json().status).toBe('trial');
  });

  it("records no payment of a transaction that is not the agency's subscription", async () => {
    const { as, user } = await signedInAgency(t.app);
    await deliver(subscriptionEvent(user.tenant_id, 'subscription.activated', iso(-1), { status: 'active' }));
    const payment = (subscriptionId: string | null) => ({
      event_id: `evt_${randomUUID()}`,
      event_type: 'transaction.completed',
      occurred_at: iso(0),
      data: {
        id: `txn_${randomUUID()}`,
        subscription_id: subscriptionId,
        custom_data: agency(user.tenant_id),
        details: { totals: { grand_total: '100' } },
      },
    });
    expect((await deliver(payment('sub_other'))).json().outcome).toBe('ignored_other_subscription');
    expect((await deliver(payment(null))).json().outcome).toBe('ignored_other_subscription');
    const types = (await as.get('/api/billing/events/')).json().results.map((e: { type: string }) => e.type);
    expect(types).not.toContain('payment_completed');
  });

  it('refuses a signature older than five seconds, or with a digest of another length', async () => {
    const { as, user } = await signedInAgency(t.app);
    const event = subscriptionEvent(user.tenant_id, 'subscription.activated', iso(0), { status: 'active' });
    const body = JSON.stringify(event);
    const old = Math.floor(Date.now() / 1000) - 60;
    expect((await deliver(event, sign(body, SECRET, old))).statusCode).toBe(401);
    expect((await deliver(event, `${sign(body)}00`)).statusCode).toBe(401);
    expect((await deliver(event, 'ts=;h1=')).statusCode).toBe(401);
    expect((await as.get('/api/billing/subscriptions/current/')).json().status).toBe('trial');
  });

  it('refuses a signature dated a day ahead, as it refuses a stale one, and takes one 3 s ahead', async () => {
    const { as, user } = await signedInAgency(t.app);
    const event = subscriptionEvent(user.tenant_id, 'subscription.activated', iso(0), { status: 'active' });
    const body = JSON.stringify(event);
    const now = Math.floor(Date.now() / 1000);
    const stale = await deliver(event, sign(body, SECRET, now - 60));
    const dayAhead = await deliver(event, sign(body, SECRET, now + 86_400));
    expect(dayAhead.statusCode).toBe(401);
    expect(dayAhead.statusCode).toBe(stale.statusCode);
    expect((await as.get('/api/billing/subscriptions/current/')).json().status).toBe('trial');

    // A clock a little ahead of Coverdesk's is still within the window.
    const slightlyAhead = await deliver(event, sign(body, SECRET, now + 3));
    expect(slightlyAhead.statusCode).toBe(200);
    expect((await as.get('/api/billing/subscriptions/current/')).json().status).toBe('active');
  });
});

describe('a new Paddle purchase after the last one ended', () => {
  it('refuses a second checkout while the subscription runs, and takes a new one once it is cancelled', async () => {
    const { as, user } = await signedInAgency(t.app);
    const first = `sub_first_${user.tenant_id.slice(0, 8)}`;
    const second = `sub_second_${user.tenant_id.slice(0, 8)}`;
    await deliver(
      subscriptionEvent(user.tenant_id, 'subscription.activated', iso(-3), { status: 'active', id: first }),
    );

    const { results } = (await as.get('/api/billing/plans/')).json();
    const professional = results.find((plan: { name: string }) => plan.name === 'professional');
    const checkout = () =>
      as.post('/api/billing/subscriptions/create_checkout_session/', { plan_id: professional.id });
    const refused = await checkout();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/Professional subscription is still running/);
    const meanwhile = subscriptionEvent(user.tenant_id, 'subscription.activated', iso(-2), {
      status: 'active',
      id: second,
    });
    expect((await deliver(meanwhile)).json().outcome).toBe('ignored_other_subscription');

    const ended = subscriptionEvent(user.tenant_id, 'subscription.canceled', iso(-1), {
      status: 'canceled',
      id: first,
    });
    expect((await deliver(ended)).json().outcome).toBe('applied');
    expect((await checkout()).statusCode).toBe(200);
    const bought = subscriptionEvent(user.tenant_id, 'subscription.activated', iso(0), {
      status: 'active',
      id: second,
      price: 'pri_prof_year',
    });
    expect((await deliver(bought)).json().outcome).toBe('applied');
    expect((await as.get('/api/billing/subscriptions/current/')).json()).toMatchObject({
      status: 'active',
      billing_cycle: 'yearly',
      is_active: true,
    });
  });
});

describe('content security policy with Paddle configured', () => {
  it("lets in Paddle's checkout hosts for the environment, and no other paddle.com subdomain", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health/' });
    const policy = String(response.headers['content-security-policy']);
    const directive = (name: string) => policy.split(';').find((part) => part.trim().startsWith(`${name} `));
    expect(directive('script-src')).toContain('https://cdn.paddle.com');
    expect(directive('frame-src')).toContain('https://sandbox-buy.paddle.com');
    expect(directive('connect-src')).toContain('https://sandbox-checkout-service.paddle.com');
    expect(policy).not.toContain('*.paddle.com');
    expect(policy).not.toContain('https://buy.paddle.com');
  });
});

/** Paddle's API as the SDK calls it: each request is recorded and answered with a subscription. */
function stubPaddleApi() {
  const calls: { method: string; path: string; body: Record<string, unknown> }[] = [];
  const passThrough = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input));
    if (!url.hostname.endsWith('paddle.com')) return passThrough(input, init);
    calls.push({
      method: init?.method ?? 'GET',
      path: url.pathname,
      body: init?.body ? JSON.parse(String(init.body)) : {},
    });
    const data = {
      id: url.pathname.split('/')[2],
      status: 'active',
      billing_cycle: { interval: 'month', frequency: 1 },
      items: [],
    };
    return new Response(JSON.stringify({ data }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}

describe('changing plan on a Paddle subscription', () => {
  afterEach(() => vi.restoreAllMocks());

  /** An agency whose Paddle subscription bills `price` for the period from `start` to `end` days. */
  async function paddleAgency(price: string) {
    const agency = await signedInAgency(t.app);
    const activated = subscriptionEvent(agency.user.tenant_id, 'subscription.activated', iso(-1), {
      status: 'active',
      price,
    });
    expect((await deliver(activated)).json().outcome).toBe('applied');
    const { results } = (await agency.as.get('/api/billing/plans/')).json();
    const planId = (name: string) => results.find((plan: { name: string }) => plan.name === name).id;
    return { ...agency, planId, subscriptionId: activated.data.id };
  }

  it('upgrades now, asking Paddle to bill the prorated difference at once', async () => {
    const calls = stubPaddleApi();
    const { as, planId, subscriptionId } = await paddleAgency('pri_prof_month');
    const response = await as.post('/api/billing/subscription/change-plan/', { plan_id: planId('agency') });
    expect(response.statusCode).toBe(200);
    expect(response.json().subscription.plan_details.name).toBe('agency');
    expect(calls).toEqual([
      {
        method: 'PATCH',
        path: `/subscriptions/${subscriptionId}`,
        body: {
          items: [{ price_id: 'pri_agency_month', quantity: 1 }],
          proration_billing_mode: 'prorated_immediately',
        },
      },
    ]);
  });

  it('downgrades at the period end: Paddle bills the new price from the renewal, the plan paid for is kept until then', async () => {
    const calls = stubPaddleApi();
    const { as, user, planId, subscriptionId } = await paddleAgency('pri_agency_month');
    const response = await as.post('/api/billing/subscription/change-plan/', {
      plan_id: planId('professional'),
    });
    expect(response.statusCode).toBe(200);
    expect(calls.at(-1)?.body).toEqual({
      items: [{ price_id: 'pri_prof_month', quantity: 1 }],
      proration_billing_mode: 'do_not_bill',
    });
    // Paddle reports its new price straight away; the agency keeps Agency for the period it paid.
    const updated = subscriptionEvent(user.tenant_id, 'subscription.updated', iso(0), { status: 'active' });
    expect((await deliver(updated)).json().outcome).toBe('applied');
    expect((await as.get('/api/billing/subscriptions/current/')).json()).toMatchObject({
      plan_details: { name: 'agency' },
      scheduled_change: { plan_name: 'Professional' },
    });
    // The renewal starts the next period on Professional.
    const renewed = subscriptionEvent(user.tenant_id, 'subscription.updated', iso(0.5), { status: 'active' });
    renewed.data.current_billing_period = { starts_at: iso(30), ends_at: iso(60) };
    expect((await deliver(renewed)).json().outcome).toBe('applied');
    expect((await as.get('/api/billing/subscriptions/current/')).json()).toMatchObject({
      plan_details: { name: 'professional' },
      scheduled_change: null,
    });
    expect(calls.every((call) => call.path === `/subscriptions/${subscriptionId}`)).toBe(true);
  });

  it('withdraws a scheduled downgrade by putting back the price of the plan kept, unbilled', async () => {
    const calls = stubPaddleApi();
    const { as, planId } = await paddleAgency('pri_agency_month');
    await as.post('/api/billing/subscription/change-plan/', { plan_id: planId('professional') });
    const withdrawn = await as.post('/api/billing/subscription/withdraw-scheduled-change/', {});
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json().subscription).toMatchObject({
      plan_details: { name: 'agency' },
      scheduled_change: null,
    });
    expect(calls.at(-1)?.body).toEqual({
      items: [{ price_id: 'pri_agency_month', quantity: 1 }],
      proration_billing_mode: 'do_not_bill',
    });
  });

  it("says plainly that Paddle's checkout starts the plan now, when asked to keep the trial's days", async () => {
    const { as } = await signedInAgency(t.app);
    const { results } = (await as.get('/api/billing/plans/')).json();
    const professional = results.find((plan: { name: string }) => plan.name === 'professional');
    const response = await as.post('/api/billing/subscriptions/create_checkout_session/', {
      plan_id: professional.id,
      starts: 'at_trial_end',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().detail).toBe(
      'Paddle takes the first payment at checkout, so the plan starts now: choose Start now.',
    );
  });
});
