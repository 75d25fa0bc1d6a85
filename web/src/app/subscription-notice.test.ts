import type { SubscriptionState } from '@coverdesk/contract';
import { describe, expect, it } from 'vitest';
import { subscriptionNotice } from './subscription-notice.js';

const base = {
  status: 'trial',
  is_trial_active: true,
  is_active: true,
  days_until_trial_expires: 10,
} as SubscriptionState;

describe('subscription banner', () => {
  it('stays hidden while the trial has more than 3 days left', () => {
    expect(subscriptionNotice(base)).toBeNull();
  });

  it('counts down the last 3 days of the trial with Upgrade Now', () => {
    expect(subscriptionNotice({ ...base, days_until_trial_expires: 3 })).toMatchObject({
      text: 'Trial expires in 3 days',
      action: 'Upgrade Now',
    });
    expect(subscriptionNotice({ ...base, days_until_trial_expires: 1 })?.text).toBe('Trial expires in 1 day');
  });

  it('says nothing of a trial whose plan is chosen to start when it ends', () => {
    const chosen = {
      plan_id: 'starter',
      plan_name: 'Starter',
      billing_cycle: 'monthly',
      effective_at: '2026-12-06T10:00:00.000Z',
    } as const;
    expect(subscriptionNotice({ ...base, days_until_trial_expires: 2, scheduled_change: chosen })).toBeNull();
  });

  it('asks to renew an expired or troubled subscription', () => {
    const expired = {
      ...base,
      status: 'expired',
      is_trial_active: false,
      is_active: false,
    } as SubscriptionState;
    expect(subscriptionNotice(expired)).toMatchObject({
      text: 'Your subscription has expired',
      action: 'Renew Subscription',
    });
    expect(subscriptionNotice({ ...expired, status: 'past_due' })?.text).toBe('Subscription issue detected');
    expect(subscriptionNotice({ ...expired, status: 'paused' })?.text).toBe('Subscription issue detected');
  });

  it('warns of a failed payment being retried while access continues', () => {
    const pastDue = {
      ...base,
      status: 'past_due',
      is_trial_active: false,
      is_active: true,
    } as SubscriptionState;
    expect(subscriptionNotice(pastDue)).toMatchObject({
      text: 'Subscription issue detected',
      action: 'Renew Subscription',
    });
  });

  it('says nothing about a paid, active subscription', () => {
    expect(subscriptionNotice({ ...base, status: 'active', is_trial_active: false })).toBeNull();
  });
});
