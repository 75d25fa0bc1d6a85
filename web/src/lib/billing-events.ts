import type { BillingEventType } from '@coverdesk/contract';

/** What each line of a billing history says happened, for the agency and for the admin portal. */
export const BILLING_EVENT_LABELS: Record<BillingEventType, string> = {
  trial_started: 'Trial started',
  upgraded: 'Subscribed',
  plan_changed: 'Plan changed',
  plan_change_scheduled: 'Plan change scheduled',
  plan_change_withdrawn: 'Plan change withdrawn',
  cancelled: 'Cancelled',
  cancellation_scheduled: 'Cancellation at period end',
  reactivated: 'Reactivated',
  paused: 'Paused',
  renewed: 'Renewed',
  trial_expired: 'Trial ended',
  period_ended: 'Subscription ended',
  past_due: 'Payment overdue',
  payment_completed: 'Payment received',
  payment_failed: 'Payment failed',
  provider_updated: 'Updated by Paddle',
  changed_by_admin: 'Changed by Coverdesk support',
};
