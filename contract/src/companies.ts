import { z } from 'zod';
import { money } from './billing.js';
import { COMMISSION_PAYMENT_METHODS, COMMISSION_TYPES } from './constants.js';
import {
  choiceOf,
  optionalEmail,
  optionalPhone,
  optionalText,
  optionalUrl,
  percentage,
  requiredText,
  uuid,
} from './fields.js';
import { ordering, paged, pageQuery } from './pagination.js';
import { companyPolicyType } from './policy-types.js';

export const commissionPaymentMethod = z.enum(COMMISSION_PAYMENT_METHODS, {
  error: 'Choose how this insurer pays commission.',
});

/** One type the insurer sells, as the company form sends it. */
export const companyRateBody = z.object({
  policy_type_id: choiceOf('Choose a policy type.'),
  custom_name: optionalText(100),
  commission_percentage: percentage,
});

/** An insurer with the types it sells and the commission it pays on each. */
export const companyBody = z.object({
  name: requiredText(200),
  contact_person: optionalText(150),
  email: optionalEmail,
  phone: optionalPhone,
  website: optionalUrl,
  address: optionalText(500),
  notes: optionalText(5000),
  commission_type: z.enum(COMMISSION_TYPES).default('percentage'),
  commission_payment_method: commissionPaymentMethod.default('full_policy'),
  policy_types: z
    .array(companyRateBody)
    .max(200)
    .default([])
    .refine((rates) => new Set(rates.map((rate) => rate.policy_type_id)).size === rates.length, {
      message: 'Each policy type can be listed only once.',
    }),
});
export type CompanyBody = z.input<typeof companyBody>;

export const company = z.object({
  id: z.string(),
  name: z.string(),
  contact_person: z.string(),
  email: z.string(),
  phone: z.string(),
  website: z.string(),
  address: z.string(),
  notes: z.string(),
  commission_type: z.enum(COMMISSION_TYPES),
  commission_payment_method: commissionPaymentMethod,
  policy_types: z.array(companyPolicyType),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Company = z.infer<typeof company>;

export const COMPANY_ORDERINGS = ['name', 'created_at'] as const;

export const companyListQuery = pageQuery.extend({
  policy_type_id: uuid.optional(),
  commission_payment_method: commissionPaymentMethod.optional(),
  ordering: ordering(COMPANY_ORDERINGS, 'name'),
});
export type CompanyListQuery = z.input<typeof companyListQuery>;

export const companyPage = paged(company);

export const companyStats = z.object({
  company_id: z.string(),
  policy_count: z.number().int(),
  active_policy_count: z.number().int(),
  active_premium: money,
  expected_commission: money,
  received_commission: money,
});
export type CompanyStats = z.infer<typeof companyStats>;

/** A policy an insurer underwrote, as its company page lists them. */
export const companyPolicy = z.object({
  id: z.string(),
  policy_number: z.string(),
  customer: z.object({ id: z.string(), first_name: z.string(), last_name: z.string() }),
  policy_type_name: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  status: z.string(),
  total_premium: money,
});
export const companyPolicyPage = paged(companyPolicy);
