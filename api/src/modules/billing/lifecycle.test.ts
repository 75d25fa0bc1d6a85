import type { Plan } from '@coverdesk/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiAs, createTestApp, PASSWORD, signedInAgency, type TestApp } from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { customers } from '../customers/tables.js';
import { settleAllSubscriptions } from './schedule.js';

/** How the Billing page writes a day, "Dec 25, 2026", which server messages match. */
const readableDay = (iso: string) => {
  const [year, month, day] = iso.slice(0, 10).split('-').map(Number);
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${months[(month ?? 1) - 1]} ${day}, ${year}`;
};

let t: TestApp;
let plans: Record<string, Plan>;
beforeAll(async () => {
  t = await createTestApp();
  const { results } = (await t.app.inject({ method: 'GET', url: '/api/billing/plans/' })).json();
  plans = Object.fromEntries(results.map((plan: Plan) => [plan.name, plan]));
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());

const DAY = 86_400_000;
const agency = () => signedInAgency(t.app);
type As = Awaited<ReturnType<typeof agency>>['as'];

const upgradeTo = (as: As, plan: string, billing_cycle = 'monthly') =>
  as.post('/api/billing/subscriptions/upgrade/', { plan_id: plans[plan]?.id, billing_cycle });

const historyOf = async (as: As) =>
  (await as.get('/api/billing/events/')).json().results as {
    type: string;
    to_status: string;
    actor: string;
  }[];

/**
 * Moves the clock the API reads (only Date: timers and the database keep running) and signs the
 * user in again, since their access token has expired by then.
 */
async function travelTo(at: number, email: string) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/token/',
    payload: { email, password: PASSWORD },
  });
  return apiAs(t.app, response.json().access);
}

describe('upgrade from the trial (manual provider)', () => {
  it('makes the agency active on the plan at once, for one period, recorded as manual with who did it', async () => {
    const { as } = await agency();
    const response = await upgradeTo(as, 'agency', 'yearly');
    expect(response.statusCode).toBe(200);
    const { subscription, message } = response.json();
    expect(message).toBe('You are now on the Agency plan, billed yearly.');
    expect(subscription).toMatchObject({
      status: 'active',
      provider: 'manual',
      billing_cycle: 'yearly',
      is_active: true,
      is_trial_active: false,
      plan_details: { name: 'agency' },
    });
    const days =
      (Date.parse(subscription.current_period_end) - Date.parse(subscription.current_period_start)) / DAY;
    expect(days).toBeGreaterThanOrEqual(365);
    const [event, trial] = (await as.get('/api/billing/events/')).json().results;
    expect(trial).toMatchObject({ type: 'trial_started', to_status: 'trial', actor: 'Noa Peretz' });
    expect(event).toMatchObject({
      type: 'upgraded',
      from_status: 'trial',
      to_status: 'active',
      provider: 'manual',
      amount: '1999.99',
      actor: 'Noa Peretz',
      provider_event_id: null,
    });
  });

  it('refuses a second upgrade of a paying agency, and a plan that is not on sale', async () => {
    const { as } = await agency();
    await upgradeTo(as, 'professional');
    const again = await upgradeTo(as, 'agency');
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toMatch(/Change plan/);
    const unknown = await as.post('/api/billing/subscriptions/upgrade/', {
      plan_id: '0190a0a0-0000-7000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ plan_id: ['Choose a plan on sale.'] });
  });

  it('applies a checkout session at once and answers where to go next', async () => {
    const { as } = await agency();
    const response = await as.post('/api/billing/subscriptions/create_checkout_session/', {
      plan_id: plans.starter?.id,
      billing_cycle: 'monthly',
      success_url: '/billing?checkout=success',
      cancel_url: '/pricing',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      provider: 'manual',
      paddle: null,
      success_url: '/billing?checkout=success',
      subscription: { status: 'active', plan_details: { name: 'starter' } },
    });
    const offSite = await as.post('/api/billing/subscriptions/create_checkout_session/', {
      plan_id: plans.starter?.id,
      success_url: 'https://elsewhere.example/',
    });
    expect(offSite.statusCode).toBe(400);
  });

  it('refuses a return path that a browser would read as another site', async () => {
    const { as } = await agency();
    // A browser drops the tab and reads a backslash as a slash: each of these leads to evil.example.
    for (const path of ['/\t/evil.example', '/\n/evil.example', '/\\evil.example', '//evil.example']) {
      const response = await as.post('/api/billing/subscriptions/create_checkout_session/', {
        plan_id: plans.starter?.id,
        cancel_url: path,
      });
      expect(response.statusCode, JSON.stringify(path)).toBe(400);
      expect(response.json()).toEqual({ cancel_url: ['Enter a path of this app, starting with /.'] });
    }
    expect((await as.get('/api/billing/subscriptions/current/')).json().status).toBe('trial');
  });
});

describe('change plan', () => {
  it('schedules a change to yearly for the period end, then the schedule applies it on a frozen clock', async () => {
    const { as: before, email } = await agency();
    await upgradeTo(before, 'professional');
    const response = await before.post('/api/billing/subscription/change-plan/', {
      plan_id: plans.professional?.id,
      billing_cycle: 'yearly',
    });
    expect(response.statusCode).toBe(200);
    const { subscription } = response.json();
    expect(subscription).toMatchObject({
      billing_cycle: 'monthly',
      scheduled_change: { plan_name: 'Professional', billing_cycle: 'yearly' },
    });
    expect(subscription.scheduled_change.effective_at).toBe(subscription.current_period_end);
    expect(response.json().message).toBe(
      `You move to the Professional plan, billed yearly, on ${readableDay(subscription.current_period_end)}.`,
    );

    const as = await travelTo(Date.parse(subscription.current_period_end) + 60_000, email);
    await settleAllSubscriptions(t.database.db, new Date());
    const after = (await as.get('/api/billing/subscriptions/current/')).json();
    expect(after).toMatchObject({
      status: 'active',
      billing_cycle: 'yearly',
      scheduled_change: null,
      is_active: true,
    });
    expect(after.current_period_start).toBe(subscription.current_period_end);
    expect((await historyOf(as))[0]).toMatchObject({ type: 'renewed', actor: null });
  });

  it('changes at once with the unused part of the period credited', async () => {
    const { as } = await agency();
    await upgradeTo(as, 'professional');
    const response = await as.post('/api/billing/subscription/change-plan/', {
      plan_id: plans.agency?.id,
      change_type: 'immediate',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().subscription.plan_details.name).toBe('agency');
    const [event] = (await as.get('/api/billing/events/')).json().results;
    // Almost the whole month of Professional (79.99) is unused: about 199.99 - 79.99 is charged.
    expect(event.type).toBe('plan_changed');
    expect(Number(event.amount)).toBeCloseTo(120, 0);
  });

  it('refuses a downgrade now that the agency is over its limits, saying what to remove; schedules it with a warning', async () => {
    const { as, user } = await agency();
    await upgradeTo(as, 'professional');
    await withTenant(t.database.db, user.tenant_id, (tx) =>
      tx.insert(customers).values(
        Array.from({ length: 253 }, (_, index) => ({
          tenantId: user.tenant_id,
          firstName: 'Bulk',
          lastName: `${index}`,
        })),
      ),
    );
    const now = await as.post('/api/billing/subscription/change-plan/', {
      plan_id: plans.starter?.id,
      change_type: 'immediate',
    });
    expect(now.statusCode).toBe(409);
    expect(now.json().detail).toBe(
      'Your agency has more than the Starter plan allows: remove 3 customers first, or schedule the change for the end of the period.',
    );
    const later = await as.post('/api/billing/subscription/change-plan/', { plan_id: plans.starter?.id });
    expect(later.statusCode).toBe(200);
    expect(later.json().message).toMatch(/over its limits: remove 3 customers by then/);
  });

  it('is refused during the trial and to the same plan and cycle', async () => {
    const { as } = await agency();
    const trial = await as.post('/api/billing/subscription/change-plan/', { plan_id: plans.starter?.id });
    expect(trial.statusCode).toBe(409);
    expect(trial.json().detail).toBe('During the trial, choose a plan with Upgrade.');
    await upgradeTo(as, 'starter');
    const same = await as.post('/api/billing/subscription/change-plan/', { plan_id: plans.starter?.id });
    expect(same.statusCode).toBe(400);
  });
});

describe('choosing a plan during the trial', () => {
  it("keeps the trial's remaining days: the plan starts when the trial ends, by the schedule", async () => {
    const { email } = await agency();
    const during = await travelTo(Date.now() + 5 * DAY, email);
    const response = await during.post('/api/billing/subscriptions/upgrade/', {
      plan_id: plans.starter?.id,
      billing_cycle: 'yearly',
      starts: 'at_trial_end',
    });
    expect(response.statusCode).toBe(200);
    const { subscription, message } = response.json();
    expect(message).toBe(
      `Your trial's 9 remaining days are kept: Starter, billed yearly, starts on ${readableDay(subscription.trial_ends_at)}.`,
    );
    // Still the trial, with every day it had left; the plan chosen waits for its end.
    expect(subscription).toMatchObject({
      status: 'trial',
      is_trial_active: true,
      days_until_trial_expires: 9,
      plan_details: { name: 'professional' },
      scheduled_change: { plan_name: 'Starter', billing_cycle: 'yearly' },
      current_period_start: null,
    });
    expect(subscription.scheduled_change.effective_at).toBe(subscription.trial_ends_at);
    expect((await historyOf(during))[0]).toMatchObject({ type: 'plan_change_scheduled', to_status: 'trial' });

    const after = await travelTo(Date.parse(subscription.trial_ends_at) + 60_000, email);
    await settleAllSubscriptions(t.database.db, new Date());
    const started = (await after.get('/api/billing/subscriptions/current/')).json();
    expect(started).toMatchObject({
      status: 'active',
      is_active: true,
      billing_cycle: 'yearly',
      plan_details: { name: 'starter' },
      scheduled_change: null,
      current_period_start: subscription.trial_ends_at,
    });
    const [upgraded] = (await after.get('/api/billing/events/')).json().results;
    expect(upgraded).toMatchObject({ type: 'upgraded', from_status: 'trial', amount: '299.99', actor: null });
  });

  it('starts the plan now when the broker chooses Start now, ending the trial', async () => {
    const { as } = await agency();
    const response = await as.post('/api/billing/subscriptions/upgrade/', {
      plan_id: plans.starter?.id,
      starts: 'immediate',
    });
    expect(response.json().message).toBe('You are now on the Starter plan, billed monthly.');
    const { subscription } = response.json();
    expect(subscription).toMatchObject({ status: 'active', is_trial_active: false, scheduled_change: null });
    expect(Date.now() - Date.parse(subscription.current_period_start)).toBeLessThan(60_000);
  });

  it('takes back the plan chosen for the trial end: the trial then ends as any trial', async () => {
    const { as, email } = await agency();
    await as.post('/api/billing/subscriptions/upgrade/', {
      plan_id: plans.agency?.id,
      starts: 'at_trial_end',
    });
    const withdrawn = await as.post('/api/billing/subscription/withdraw-scheduled-change/', {});
    expect(withdrawn.statusCode).toBe(200);
    const { subscription, message } = withdrawn.json();
    expect(message).toBe(
      `Agency no longer starts when your trial ends on ${readableDay(subscription.trial_ends_at)}: choose a plan before then to keep your agency open.`,
    );
    expect(subscription).toMatchObject({ status: 'trial', scheduled_change: null });
    const after = await travelTo(Date.parse(subscription.trial_ends_at) + 60_000, email);
    expect((await after.get('/api/billing/subscriptions/current/')).json().status).toBe('expired');
  });
});

describe('upgrades now, downgrades at the period end', () => {
  it('starts an upgrade now by default, charging the price less the unused part of the period', async () => {
    const { as: before, email } = await agency();
    const bought = (await upgradeTo(before, 'professional')).json().subscription;
    const start = Date.parse(bought.current_period_start);
    const end = Date.parse(bought.current_period_end);
    const as = await travelTo(start + 10 * DAY, email);
    const response = await as.post('/api/billing/subscription/change-plan/', { plan_id: plans.agency?.id });
    expect(response.statusCode).toBe(200);
    const { subscription, message } = response.json();
    expect(subscription).toMatchObject({ plan_details: { name: 'agency' }, scheduled_change: null });
    const credit = Math.round(79.99 * ((end - Date.now()) / (end - start)) * 100) / 100;
    const charge = (199.99 - credit).toFixed(2);
    expect(message).toBe(
      `You are now on the Agency plan, billed monthly: ${charge} charged now, ${credit.toFixed(2)} of the Professional plan credited for the unused part of the period.`,
    );
    const [event] = (await as.get('/api/billing/events/')).json().results;
    expect(event).toMatchObject({ type: 'plan_changed', amount: charge });
  });

  it('moves a downgrade to the period end by default, keeping the plan paid for until then', async () => {
    const { as: before, email } = await agency();
    await upgradeTo(before, 'agency');
    const response = await before.post('/api/billing/subscription/change-plan/', {
      plan_id: plans.starter?.id,
    });
    expect(response.statusCode).toBe(200);
    const { subscription, message } = response.json();
    expect(subscription).toMatchObject({
      plan_details: { name: 'agency' },
      features: expect.arrayContaining(['module_customer_analytics']),
      scheduled_change: { plan_name: 'Starter', billing_cycle: 'monthly' },
    });
    expect(message).toBe(
      `You move to the Starter plan, billed monthly, on ${readableDay(subscription.current_period_end)}; you keep Agency until then.`,
    );
    const as = await travelTo(Date.parse(subscription.current_period_end) + 60_000, email);
    await settleAllSubscriptions(t.database.db, new Date());
    const after = (await as.get('/api/billing/subscriptions/current/')).json();
    expect(after).toMatchObject({
      plan_details: { name: 'starter' },
      scheduled_change: null,
      status: 'active',
    });
    expect((await historyOf(as))[0]).toMatchObject({ type: 'renewed' });
  });

  it('takes back a scheduled downgrade: the plan renews as it was', async () => {
    const { as: before, email } = await agency();
    await upgradeTo(before, 'agency');
    const scheduled = (
      await before.post('/api/billing/subscription/change-plan/', { plan_id: plans.professional?.id })
    ).json().subscription;
    const day = readableDay(scheduled.current_period_end);
    const withdrawn = await before.post('/api/billing/subscription/withdraw-scheduled-change/', {});
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json().message).toBe(
      `You stay on the Agency plan: the move to Professional on ${day} is withdrawn.`,
    );
    expect(withdrawn.json().subscription.scheduled_change).toBeNull();
    expect((await historyOf(before))[0]).toMatchObject({
      type: 'plan_change_withdrawn',
      actor: 'Noa Peretz',
    });
    const again = await before.post('/api/billing/subscription/withdraw-scheduled-change/', {});
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('No plan change is waiting.');

    const as = await travelTo(Date.parse(scheduled.current_period_end) + 60_000, email);
    await settleAllSubscriptions(t.database.db, new Date());
    expect((await as.get('/api/billing/subscriptions/current/')).json().plan_details.name).toBe('agency');
  });
});

describe('cancel, reactivate and pause', () => {
  it('cancels at period end keeping access until then, and reactivates', async () => {
    const { as } = await agency();
    await upgradeTo(as, 'professional');
    const cancelled = await as.post('/api/billing/subscription/cancel/', { reason: 'Closing the office' });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().subscription).toMatchObject({
      status: 'cancelled',
      cancel_at_period_end: true,
      cancel_reason: 'Closing the office',
      is_active: true,
    });
    expect(cancelled.json().message).toBe(
      `Your subscription is cancelled. You keep access until ${readableDay(cancelled.json().subscription.current_period_end)}.`,
    );
    expect((await as.get('/api/customers/')).statusCode).toBe(200);
    expect((await as.post('/api/billing/subscription/cancel/', {})).statusCode).toBe(409);

    const back = await as.post('/api/billing/subscription/reactivate/', {});
    expect(back.statusCode).toBe(200);
    expect(back.json().subscription).toMatchObject({ status: 'active', cancel_at_period_end: false });
    expect((await historyOf(as)).slice(0, 2).map((event) => event.type)).toEqual([
      'reactivated',
      'cancellation_scheduled',
    ]);
  });

  it('cancels at once with the default reason: access ends, reactivation is refused, an upgrade starts again', async () => {
    const { as } = await agency();
    await upgradeTo(as, 'professional');
    const cancelled = await as.post('/api/billing/subscription/cancel/', { immediate: true });
    expect(cancelled.json().subscription).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'Cancelled by user',
      is_active: false,
    });
    expect((await as.get('/api/customers/')).statusCode).toBe(402);
    const reactivate = await as.post('/api/billing/subscription/reactivate/', {});
    expect(reactivate.statusCode).toBe(409);
    expect((await upgradeTo(as, 'starter')).json().subscription.status).toBe('active');
  });

  it('pauses a paid subscription (no access) and resumes it; a trial cannot pause', async () => {
    const { as } = await agency();
    expect((await as.post('/api/billing/subscription/pause/', {})).statusCode).toBe(409);
    await upgradeTo(as, 'professional');
    const paused = await as.post('/api/billing/subscription/pause/', {});
    expect(paused.json().subscription).toMatchObject({ status: 'paused', is_active: false });
    expect((await as.get('/api/customers/')).statusCode).toBe(402);
    expect((await as.post('/api/billing/subscription/pause/', {})).statusCode).toBe(409);
    expect((await upgradeTo(as, 'agency')).statusCode).toBe(409);
    const resumed = await as.post('/api/billing/subscription/reactivate/', {});
    expect(resumed.json().subscription).toMatchObject({ status: 'active', is_active: true });
  });
});

describe('trial expiry', () => {
  it('expires the trial on a frozen clock, by the request itself and recorded once', async () => {
    const { email } = await agency();
    const as = await travelTo(Date.now() + 14 * DAY + 60_000, email);
    const status = (await as.get('/api/billing/subscriptions/status/')).json();
    expect(status).toMatchObject({ status: 'expired', is_active: false, features: [] });
    expect((await as.get('/api/customers/')).statusCode).toBe(402);
    await settleAllSubscriptions(t.database.db, new Date());
    const history = await historyOf(as);
    expect(history.filter((event) => event.type === 'trial_expired')).toHaveLength(1);
    expect((await as.post('/api/billing/subscription/cancel/', {})).statusCode).toBe(409);
    expect((await upgradeTo(as, 'professional')).json().subscription.is_active).toBe(true);
  });

  it('keeps the trial open the minute before it ends', async () => {
    const { email } = await agency();
    const as = await travelTo(Date.now() + 14 * DAY - 60_000, email);
    expect((await as.get('/api/billing/subscriptions/status/')).json()).toMatchObject({
      status: 'trial',
      is_trial_active: true,
      days_until_trial_expires: 1,
    });
  });
});

describe('plan gates and limits per plan', () => {
  it('closes premium analytics on Starter (403 with the upgrade path) and opens them on Agency', async () => {
    const { as } = await agency();
    await upgradeTo(as, 'starter');
    const refused = await as.get('/api/analytics/customers/');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/Starter plan does not include .*Upgrade your plan/);
    await as.post('/api/billing/subscription/change-plan/', {
      plan_id: plans.agency?.id,
      change_type: 'immediate',
    });
    expect((await as.get('/api/analytics/customers/')).statusCode).toBe(200);
  });

  it("refuses a customer past the Starter plan's limit with 402", async () => {
    const { as, user } = await agency();
    await upgradeTo(as, 'starter');
    await withTenant(t.database.db, user.tenant_id, (tx) =>
      tx.insert(customers).values(
        Array.from({ length: 250 }, (_, index) => ({
          tenantId: user.tenant_id,
          firstName: 'Bulk',
          lastName: `${index}`,
        })),
      ),
    );
    const response = await as.post('/api/customers/', { first_name: 'One', last_name: 'More' });
    expect(response.statusCode).toBe(402);
    expect(response.json().detail).toMatch(/Starter plan allows up to 250 customers/);
  });

  it('details one metric against every plan', async () => {
    const { as } = await agency();
    await as.post('/api/leads/', { first_name: 'Lea', last_name: 'Katz' });
    const response = await as.get('/api/billing/usage/leads/details/');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ metric: 'leads', limit_value: 200 });
    expect(response.json().plans.map((plan: { limit_value: number }) => plan.limit_value)).toEqual([
      50, 200, 2000,
    ]);
    expect((await as.get('/api/billing/usage/storage/details/')).statusCode).toBe(400);
  });
});

describe('payment methods (manual provider)', () => {
  const card = {
    brand: 'visa',
    last4: '4242',
    expiry_month: 12,
    expiry_year: 2030,
    holder_name: 'Noa Peretz',
  };

  it('records cards, keeps one default, and moves the default when it is removed', async () => {
    const { as } = await agency();
    expect((await as.get('/api/billing/payment-methods/default/')).statusCode).toBe(404);
    const first = (await as.post('/api/billing/payment-methods/add/', card)).json();
    const second = (
      await as.post('/api/billing/payment-methods/add/', { ...card, brand: 'mastercard', last4: '5555' })
    ).json();
    expect([first.is_default, second.is_default]).toEqual([true, false]);

    expect(
      (await as.post(`/api/billing/payment-methods/${second.id}/set-default/`, {})).json().is_default,
    ).toBe(true);
    expect((await as.get('/api/billing/payment-methods/default/')).json().last4).toBe('5555');
    const updated = await as.put(`/api/billing/payment-methods/${first.id}/`, { ...card, expiry_year: 2031 });
    expect(updated.json()).toMatchObject({ expiry_year: 2031, is_default: false });

    expect((await as.delete(`/api/billing/payment-methods/${second.id}/delete/`)).statusCode).toBe(200);
    const { count, results } = (await as.get('/api/billing/payment-methods/')).json();
    expect(count).toBe(1);
    expect(results[0]).toMatchObject({ id: first.id, is_default: true });
  });

  it("takes Paddle's card ids as well as its own, and refuses any other id", async () => {
    const { as } = await agency();
    await as.post('/api/billing/payment-methods/add/', card);
    const paddleId = await as.delete(
      '/api/billing/payment-methods/paymtd_01hv8gwdfkw5z6d1yy6pa3xyrz/delete/',
    );
    expect(paddleId.statusCode).toBe(404);
    expect(paddleId.json()).toEqual({ detail: 'No payment method with this id.' });
    expect((await as.delete('/api/billing/payment-methods/card_1/delete/')).statusCode).toBe(400);
    expect((await as.get('/api/billing/payment-methods/')).json().count).toBe(1);
  });

  it('says what is wrong with a card', async () => {
    const { as } = await agency();
    const response = await as.post('/api/billing/payment-methods/add/', {
      ...card,
      last4: '42',
      expiry_month: 13,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      last4: ['Enter the last four digits of the card.'],
      expiry_month: ['Enter the month the card expires, 1 to 12.'],
    });
  });
});

describe('another agency', () => {
  it('never reads or changes this agency’s subscription, history or cards', async () => {
    const owner = await agency();
    const other = await agency();
    await upgradeTo(owner.as, 'agency');
    const card = (
      await owner.as.post('/api/billing/payment-methods/add/', {
        brand: 'visa',
        last4: '4242',
        expiry_month: 1,
        expiry_year: 2030,
        holder_name: 'Noa',
      })
    ).json();

    expect((await other.as.get('/api/billing/subscriptions/current/')).json()).toMatchObject({
      status: 'trial',
    });
    expect(
      (await other.as.get('/api/billing/events/')).json().results.map((e: { type: string }) => e.type),
    ).toEqual(['trial_started']);
    expect((await other.as.get('/api/billing/payment-methods/')).json().count).toBe(0);
    expect(
      (
        await other.as.put(`/api/billing/payment-methods/${card.id}/`, {
          expiry_month: 2,
          expiry_year: 2031,
          holder_name: 'X',
        })
      ).statusCode,
    ).toBe(404);
    expect((await other.as.delete(`/api/billing/payment-methods/${card.id}/delete/`)).statusCode).toBe(404);
    expect((await other.as.post(`/api/billing/payment-methods/${card.id}/set-default/`, {})).statusCode).toBe(
      404,
    );
    expect((await owner.as.get('/api/billing/payment-methods/')).json().count).toBe(1);
  });

  it('answers 401 to every billing action without a user', async () => {
    for (const url of [
      '/api/billing/subscription/cancel/',
      '/api/billing/subscriptions/upgrade/',
      '/api/billing/events/',
    ]) {
      const response = await t.app.inject({
        method: url.endsWith('events/') ? 'GET' : 'POST',
        url,
        payload: {},
      });
      expect(response.statusCode).toBe(401);
    }
  });
});
