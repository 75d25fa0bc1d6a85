import { z } from 'zod';
import { money } from './billing.js';
import {
  LEAD_ACTIVITY_TYPES,
  LEAD_FOLLOW_UPS,
  LEAD_SOURCES,
  LEAD_STATUSES,
  LOGGED_LEAD_ACTIVITY_TYPES,
} from './constants.js';
import { exportQueryOf } from './export.js';
import {
  boundedText,
  choiceOf,
  EARLIEST_DATE,
  EVEN_WHEN_FIELDS_FAIL,
  isoDate,
  LATEST_DATE,
  moneyInput,
  optionalEmail,
  optionalPhone,
  optionalText,
  REQUIRED,
  requiredText,
  uuid,
} from './fields.js';
import { ordering, paged, pageQuery } from './pagination.js';

export const leadStatus = z.enum(LEAD_STATUSES, { error: 'Choose a status.' });
export const leadSource = z.enum(LEAD_SOURCES, { error: 'Choose where the lead came from.' });
export const leadActivityType = z.enum(LEAD_ACTIVITY_TYPES);
export const leadFollowUp = z.enum(LEAD_FOLLOW_UPS, { error: 'Choose overdue, today or this_week.' });

/**
 * A moment as the API speaks it: "2026-11-22T09:30:00.000Z" (any offset is accepted), between the
 * years 1900 and 2200 like every date.
 */
export const isoDateTime = z.iso
  .datetime({
    offset: true,
    error: (issue) => (issue.input === undefined ? REQUIRED : 'Enter a valid date and time.'),
  })
  // Only a well-formed value is compared: anything else already has its message.
  .refine(
    (value) =>
      !/^\d{4}-\d\d-\d\dT/.test(value) ||
      (value.slice(0, 10) >= EARLIEST_DATE && value.slice(0, 10) <= LATEST_DATE),
    {
      message: 'Enter a date between 1900 and 2200.',
    },
  );

/** An id or nothing: "" and null both read as no choice. */
export const optionalChoice = (message: string) =>
  z
    .union([z.literal(''), z.null(), z.uuid({ error: message })])
    .transform((value) => value || null)
    .default(null);

export const LOST_REASON_REQUIRED = 'Say why the lead was lost.';
export const LEAD_NAME_REQUIRED = 'Enter a first and last name, or a business name.';

/**
 * A lead as created and edited: a person (first and last name) or a business (its name, with the
 * person to speak to when known). A lost lead says why.
 */
export const leadBody = z
  .object({
    first_name: optionalText(150).describe(
      'First name of the person; required with the last name unless a business name is given.',
    ),
    last_name: optionalText(150).describe('Last name of the person.'),
    business_name: optionalText(200).describe('The business, when the lead is one.'),
    email: optionalEmail.describe('Stored lower-cased.'),
    phone: optionalPhone,
    source: leadSource.default('other').describe('How the lead reached the agency.'),
    policy_type_id: optionalChoice('Choose a policy type.').describe(
      'The policy type of the agency the lead is interested in, or null.',
    ),
    estimated_premium: moneyInput
      .nullable()
      .optional()
      .transform((value) => value ?? null)
      .describe('The yearly premium the broker expects to write, as "1250.00", or null.'),
    status: leadStatus.default('new'),
    lost_reason: optionalText(500).describe('Why the lead was lost; required when the status is lost.'),
    next_follow_up_at: z
      .union([z.literal(''), z.null(), isoDateTime])
      .transform((value) => value || null)
      .default(null)
      .describe('When the broker means to get back to the lead (ISO 8601 with offset), or null.'),
    assigned_user_id: z
      .union([z.literal(''), z.null(), z.uuid({ error: 'Choose a user of your agency.' })])
      .transform((value) => value || null)
      .optional()
      .describe(
        'The user of the agency who works the lead, or null. Left out: on creation the member adding it, on a change whoever has it now.',
      ),
    notes: optionalText(5000),
  })
  .superRefine((lead, context) => {
    const named = (value: unknown) => typeof value === 'string' && value.trim() !== '';
    if (!named(lead.business_name)) {
      for (const field of ['first_name', 'last_name'] as const) {
        if (!named(lead[field]))
          context.addIssue({ code: 'custom', path: [field], message: LEAD_NAME_REQUIRED });
      }
    }
    if (lead.status === 'lost' && !named(lead.lost_reason)) {
      context.addIssue({ code: 'custom', path: ['lost_reason'], message: LOST_REASON_REQUIRED });
    }
  }, EVEN_WHEN_FIELDS_FAIL);
export type LeadBody = z.input<typeof leadBody>;
export type LeadValues = z.output<typeof leadBody>;

/** `PATCH /leads/{id}/`: any subset of the fields; the result is checked as a whole. */
export const leadPatchBody = z.record(z.string(), z.unknown());

export const lead = z.object({
  id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  business_name: z.string(),
  /** The business name, or first and last name. */
  display_name: z.string().describe('The business name, or first and last name.'),
  email: z.string(),
  phone: z.string(),
  source: leadSource,
  policy_type_id: z.string().nullable(),
  policy_type_name: z.string().describe('The name of the type of interest; "" without one.'),
  estimated_premium: money.nullable(),
  status: leadStatus,
  lost_reason: z.string(),
  next_follow_up_at: z.string().nullable(),
  assigned_user_id: z.string().nullable(),
  assigned_user_name: z.string().describe('First and last name of the assignee; "" without one.'),
  notes: z.string(),
  customer_id: z
    .string()
    .nullable()
    .describe(
      'The customer this lead was converted into; null until converted (or once that customer is deleted).',
    ),
  closed_at: z.string().nullable().describe('When the lead was last moved to won or lost; null while open.'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Lead = z.infer<typeof lead>;

export const LEAD_MATCH_FIELDS = ['email', 'phone'] as const;

/** A customer or another lead with the same email or phone. */
export const leadMatch = z.object({
  kind: z.enum(['customer', 'lead']),
  id: z.string(),
  display_name: z.string(),
  email: z.string(),
  phone: z.string(),
  matched_on: z.array(z.enum(LEAD_MATCH_FIELDS)),
});
export type LeadMatch = z.infer<typeof leadMatch>;
export const leadMatchList = z.object({ results: z.array(leadMatch) });

/** A lead as answered alone, with the customers and leads that look like the same person. */
export const leadDetail = lead.extend({
  matches: z
    .array(leadMatch)
    .describe('Customers and other leads sharing its email (without case) or phone (by its digits).'),
});
export type LeadDetail = z.infer<typeof leadDetail>;

/** Customers and leads that share an email or phone with what is being typed. */
export const leadMatchQuery = z.object({
  email: boundedText(254).optional(),
  phone: boundedText(40).optional(),
  exclude_id: uuid.optional().describe('The lead being edited, left out of the matches.'),
});
export type LeadMatchQuery = z.input<typeof leadMatchQuery>;

export const LEAD_ORDERINGS = [
  'name',
  'created_at',
  'next_follow_up_at',
  'estimated_premium',
  'status',
] as const;

export const leadListQuery = pageQuery.extend({
  status: leadStatus.optional(),
  source: leadSource.optional(),
  assigned_user_id: uuid.optional().describe('Leads assigned to this user.'),
  follow_up: leadFollowUp
    .optional()
    .describe(
      "Open leads (not won or lost) by their next follow-up, in the agency's time zone: `overdue` before now, `today` on today's date, `this_week` from today to the end of the week (Sunday).",
    ),
  customer_id: uuid.optional().describe('The lead converted into this customer.'),
  ordering: ordering(LEAD_ORDERINGS, '-created_at'),
});
export type LeadListQuery = z.input<typeof leadListQuery>;

/** `GET /leads/export/`: every lead the list's search, filters and sort match. */
export const leadExportQuery = exportQueryOf(leadListQuery);
export type LeadExportQuery = z.input<typeof leadExportQuery>;

export const leadPage = paged(lead);

export const leadActivity = z.object({
  id: z.string(),
  lead_id: z.string(),
  activity_type: leadActivityType,
  summary: z.string().describe('What was said or done; "" for a status change.'),
  from_status: leadStatus
    .nullable()
    .describe('A status change: the status before; null when the lead was added.'),
  to_status: leadStatus.nullable().describe('A status change: the status after; null for other activities.'),
  user_id: z.string().nullable().describe('Who logged it or changed the status.'),
  user_name: z.string().describe('Their first and last name; "" when unknown.'),
  occurred_at: z.string().describe('When it happened.'),
});
export type LeadActivity = z.infer<typeof leadActivity>;
export const leadActivityList = z.object({ results: z.array(leadActivity) });

/** A call, email, meeting or note logged by hand; status changes are recorded by the server. */
export const leadActivityBody = z.object({
  activity_type: z.enum(LOGGED_LEAD_ACTIVITY_TYPES, { error: 'Choose a call, email, meeting or note.' }),
  summary: requiredText(2000),
  occurred_at: isoDateTime.optional().describe('When it happened; now when left out.'),
});
export type LeadActivityBody = z.input<typeof leadActivityBody>;

/**
 * How a lead is converted: into a new customer made from its details (no body, or no
 * `customer_id`), or linked to a customer the agency already has, such as one of its matches.
 */
export const leadConversionBody = z.object({
  customer_id: choiceOf('Choose one of your customers.')
    .optional()
    .describe(
      "An existing customer of the agency to link the lead to instead of creating one (the same person, e.g. a customer among the lead's matches). A customer is linked to one lead at most.",
    ),
});
export type LeadConversionBody = z.input<typeof leadConversionBody>;

/** What a conversion answers: the lead, now won and linked, and its customer. */
export const leadConversion = z.object({
  created: z
    .boolean()
    .describe(
      'True when a new customer was made from the lead; false when it was linked to an existing customer or had already been converted (the same customer is answered).',
    ),
  customer: z.object({ id: z.string(), display_name: z.string() }),
  lead: leadDetail,
});
export type LeadConversion = z.infer<typeof leadConversion>;

/** A user of the agency a lead can be assigned to. */
export const leadAssignee = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type LeadAssignee = z.infer<typeof leadAssignee>;
export const leadAssigneeList = z.object({ results: z.array(leadAssignee) });

export const leadStatsQuery = z.object({
  date_from: isoDate.optional().describe('First day of the period; 29 days before `date_to` by default.'),
  date_to: isoDate.optional().describe("Last day of the period; the agency's today by default."),
});
export type LeadStatsQuery = z.input<typeof leadStatsQuery>;

export const leadStats = z.object({
  total: z.number().int(),
  by_status: z.record(leadStatus, z.number().int()),
  open_count: z.number().int().describe('Leads new, contacted, qualified or quoted.'),
  open_pipeline_premium: money.describe('The estimated premiums of the open leads added up.'),
  date_from: z.string(),
  date_to: z.string(),
  won_in_period: z.number().int().describe('Leads whose last move to won falls in the period.'),
  lost_in_period: z.number().int().describe('Leads whose last move to lost falls in the period.'),
  conversion_rate: z
    .string()
    .nullable()
    .describe(
      'won / (won + lost) among the leads closed in the period, as a percentage with two decimals ("33.33"); null when none closed.',
    ),
});
export type LeadStats = z.infer<typeof leadStats>;
