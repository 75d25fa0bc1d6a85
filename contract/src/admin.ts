import { z } from 'zod';
import { billingCycle, subscriptionStatus } from './billing.js';
import { EARLIEST_DATE, LATEST_DATE, text } from './fields.js';

/** A moment an admin sets, in the years the app's dates allow. */
const isoDateTime = z.iso
  .datetime({ offset: true, error: 'Enter a date and time in ISO 8601 format.' })
  .refine(
    (value) =>
      !/^\d{4}-/.test(value) || (value.slice(0, 10) >= EARLIEST_DATE && value.slice(0, 10) <= LATEST_DATE),
    {
      message: 'Enter a date between 1900 and 2200.',
    },
  );

/** An admin's change to one agency's subscription (plan, status, trial or period end). */
export const adminSubscriptionUpdateBody = z.object({
  plan: text().trim().min(1, 'This field may not be blank.').optional(),
  status: subscriptionStatus.optional(),
  billing_cycle: billingCycle.optional(),
  trial_ends_at: isoDateTime.nullable().optional(),
  current_period_end: isoDateTime.nullable().optional(),
});
export type AdminSubscriptionUpdateBody = z.infer<typeof adminSubscriptionUpdateBody>;
