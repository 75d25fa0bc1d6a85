import { z } from 'zod';
import { POLICY_CATEGORIES } from './constants.js';
import { boundedText, optionalText, percentage, queryBoolean, requiredText, uuid } from './fields.js';
import { ordering, paged, pageQuery } from './pagination.js';

export const policyCategory = z.enum(POLICY_CATEGORIES, { error: 'Choose a category.' });

/** A policy type in the agency's catalogue, as created and edited. */
export const policyTypeBody = z.object({
  name: requiredText(100),
  category: policyCategory,
  description: optionalText(1000),
  is_active: z.boolean().default(true),
});
export type PolicyTypeBody = z.input<typeof policyTypeBody>;

export const policyType = z.object({
  id: z.string(),
  name: z.string(),
  category: policyCategory,
  description: z.string(),
  is_active: z.boolean(),
  /** How many insurers sell it. */
  companies_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PolicyType = z.infer<typeof policyType>;

export const POLICY_TYPE_ORDERINGS = ['name', 'category', 'created_at'] as const;

export const policyTypeListQuery = pageQuery.extend({
  category: policyCategory.optional(),
  is_active: queryBoolean.optional(),
  ordering: ordering(POLICY_TYPE_ORDERINGS, 'name'),
});
export type PolicyTypeListQuery = z.input<typeof policyTypeListQuery>;

export const policyTypePage = paged(policyType);

/**
 * The spec's link call on `POST /policy-types/`: an insurer starts selling a type, or changes its
 * name or rate for it. What the call leaves out keeps its value (a new link: no name, 0%).
 */
export const policyTypeLinkBody = z.object({
  company_id: uuid,
  policy_type_id: uuid,
  custom_name: boundedText(100).optional(),
  commission_percentage: percentage.optional(),
});
export type PolicyTypeLinkBody = z.input<typeof policyTypeLinkBody>;

/** A type as one insurer sells it: its own name for it and the commission it pays. */
export const companyPolicyType = z.object({
  id: z.string(),
  company_id: z.string(),
  policy_type_id: z.string(),
  name: z.string(),
  category: policyCategory,
  custom_name: z.string(),
  commission_percentage: z.string(),
  is_active: z.boolean(),
});
export type CompanyPolicyType = z.infer<typeof companyPolicyType>;

export const byCompanyQuery = z.object({ company_id: uuid });
export const companyPolicyTypeList = z.object({ results: z.array(companyPolicyType) });

/** Why a type cannot be deleted: `409 {detail, companies, policies_count}`. */
export const policyTypeInUse = z.object({
  detail: z.string(),
  companies: z.array(z.object({ id: z.string(), name: z.string() })),
  policies_count: z.number().int(),
});
export type PolicyTypeInUse = z.infer<typeof policyTypeInUse>;
