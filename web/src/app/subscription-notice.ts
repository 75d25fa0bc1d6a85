import { type SubscriptionState, TRIAL_BANNER_THRESHOLD_DAYS } from '@coverdesk/contract';

export interface SubscriptionNotice {
  text: string;
  action: 'Upgrade Now' | 'Renew Subscription';
  tone: 'warning' | 'danger';
}

/** The subscription banner for non-admins: a trial about to end, or a subscription not active. */
export function subscriptionNotice(subscription: SubscriptionState | undefined): SubscriptionNotice | null {
  if (!subscription) return null;
  if (subscription.is_trial_active) {
    const days = subscription.days_until_trial_expires;
    // A plan chosen to start when the trial ends leaves nothing to warn of.
    if (days > TRIAL_BANNER_THRESHOLD_DAYS || subscription.scheduled_change) return null;
    return {
      text: `Trial expires in ${days} day${days === 1 ? '' : 's'}`,
      action: 'Upgrade Now',
      tone: 'warning',
    };
  }
  // A failed payment being retried keeps access, but the agency should know before it runs out.
  if (subscription.is_active && subscription.status !== 'past_due') return null;
  return {
    text: subscription.status === 'expired' ? 'Your subscription has expired' : 'Subscription issue detected',
    action: 'Renew Subscription',
    tone: 'danger',
  };
}
