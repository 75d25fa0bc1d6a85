import { z } from 'zod';
import { billingCycle, subscriptionStatus } from './billing.js';

/** An admin's change to one agency's subscription (plan, status, trial or period end). */
export const adminSubscriptionUpdateBody = z.object({
  plan: z.string().trim().min(1, 'This field may not be blank.').optional(),
  status: subscriptionStatus.optional(),
  billing_cycle: billingCycle.optional(),
  trial_ends_at: z.iso
    .datetime({ offset: true, error: 'Enter a date and time in ISO 8601 format.' })
    .nullable()
    .optional(),
  current_period_end: z.iso
    .datetime({ offset: true, error: 'Enter a date and time in ISO 8601 format.' })
    .nullable()
    .optional(),
});
export type AdminSubscriptionUpdateBody = z.infer<typeof adminSubscriptionUpdateBody>;
