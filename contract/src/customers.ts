import { z } from 'zod';
import { CONTACT_CHANNELS, CUSTOMER_STATUSES, CUSTOMER_TYPES } from './constants.js';
import { exportQueryOf } from './export.js';
import {
  assignedToFilter,
  assigneeFields,
  assigneeInput,
  boundedText,
  EVEN_WHEN_FIELDS_FAIL,
  isoDate,
  optionalEmail,
  optionalPhone,
  optionalText,
  REQUIRED,
  requiredText,
  text,
  uuid,
  validField,
} from './fields.js';
import { ordering, paged, pageQuery } from './pagination.js';

export const customerType = z.enum(CUSTOMER_TYPES, { error: 'Choose individual or business.' });
export const customerStatus = z.enum(CUSTOMER_STATUSES, { error: 'Choose active or inactive.' });
export const contactChannel = z.enum(CONTACT_CHANNELS, { error: 'Choose a contact channel.' });

const tag = text().trim().min(1).max(40, 'A tag has at most 40 characters.');

/**
 * A customer as created and edited. An individual has a name; a business has its business name,
 * with first and last name as the person to speak to.
 */
export const customerBody = z
  .object({
    customer_type: customerType.default('individual'),
    first_name: requiredText(150),
    last_name: requiredText(150),
    business_name: optionalText(200),
    email: optionalEmail,
    phone: optionalPhone,
    date_of_birth: z
      .union([z.literal(''), z.null(), isoDate])
      .transform((value) => value || null)
      .default(null),
    national_id: optionalText(50),
    address_line: optionalText(300),
    city: optionalText(100),
    postal_code: optionalText(20),
    country: optionalText(100),
    preferred_contact: contactChannel.default('email'),
    notes: optionalText(5000),
    tags: z
      .array(tag)
      .max(20, 'At most 20 tags.')
      .default([])
      .transform((tags) => [...new Set(tags)]),
    status: customerStatus.default('active'),
    assigned_to: assigneeInput,
  })
  .superRefine((customer, context) => {
    if (customer.customer_type === 'business' && !customer.business_name) {
      context.addIssue({ code: 'custom', path: ['business_name'], message: REQUIRED });
    }
    const born = validField(isoDate, customer.date_of_birth);
    if (born && born > new Date().toISOString().slice(0, 10)) {
      context.addIssue({
        code: 'custom',
        path: ['date_of_birth'],
        message: 'A date of birth cannot be in the future.',
      });
    }
  }, EVEN_WHEN_FIELDS_FAIL);
export type CustomerBody = z.input<typeof customerBody>;
export type CustomerValues = z.output<typeof customerBody>;

export const customer = z.object({
  id: z.string(),
  customer_type: customerType,
  first_name: z.string(),
  last_name: z.string(),
  business_name: z.string(),
  /** The business name, or first and last name. */
  display_name: z.string(),
  email: z.string(),
  phone: z.string(),
  date_of_birth: z.string().nullable(),
  national_id: z.string(),
  address_line: z.string(),
  city: z.string(),
  postal_code: z.string(),
  country: z.string(),
  preferred_contact: contactChannel,
  notes: z.string(),
  tags: z.array(z.string()),
  status: customerStatus,
  ...assigneeFields,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Customer = z.infer<typeof customer>;

/**
 * A customer as answered alone (added, read, changed), with how many policies are theirs: those
 * must be deleted or moved before the customer can be, so a screen can say so before asking.
 */
export const customerDetail = customer.extend({ policy_count: z.number().int() });
export type CustomerDetail = z.infer<typeof customerDetail>;

export const CUSTOMER_ORDERINGS = ['name', 'created_at', 'city'] as const;

export const customerListQuery = pageQuery.extend({
  status: customerStatus.optional(),
  customer_type: customerType.optional(),
  tag: boundedText(40).optional(),
  assigned_to: assignedToFilter,
  ordering: ordering(CUSTOMER_ORDERINGS, 'name'),
});
export type CustomerListQuery = z.input<typeof customerListQuery>;

/** `GET /customers/export/`: every customer the list's search, filters and sort match. */
export const customerExportQuery = exportQueryOf(customerListQuery);
export type CustomerExportQuery = z.input<typeof customerExportQuery>;

export const customerPage = paged(customer);

/** `PATCH /customers/{id}/`: any subset of the fields; the result is checked as a whole. */
export const customerPatchBody = z.record(z.string(), z.unknown());

/** Existing customers that share an email, phone or national id with what is being typed. */
export const customerDuplicateQuery = z.object({
  email: boundedText(254).optional(),
  phone: boundedText(40).optional(),
  national_id: boundedText(50).optional(),
  exclude_id: uuid.optional(),
});
export type CustomerDuplicateQuery = z.input<typeof customerDuplicateQuery>;

export const DUPLICATE_FIELDS = ['email', 'phone', 'national_id'] as const;

export const customerDuplicate = z.object({
  id: z.string(),
  display_name: z.string(),
  email: z.string(),
  phone: z.string(),
  national_id: z.string(),
  matched_on: z.array(z.enum(DUPLICATE_FIELDS)),
});
export type CustomerDuplicate = z.infer<typeof customerDuplicate>;
export const customerDuplicateList = z.object({ results: z.array(customerDuplicate) });
