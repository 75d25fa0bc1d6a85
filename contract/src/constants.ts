// Plain values with no schema attached, so the web app's first bundle can use them without zod.

export const BILLING_CYCLES = ['monthly', 'yearly'] as const;

export const SUBSCRIPTION_STATUSES = [
  'trial',
  'active',
  'past_due',
  'paused',
  'cancelled',
  'expired',
] as const;

/** The non-admin trial banner appears when this many days or fewer remain. */
export const TRIAL_BANNER_THRESHOLD_DAYS = 3;

/** Every new agency starts a trial of this plan. */
export const PLAN_TRIAL_NAME = 'Professional';
