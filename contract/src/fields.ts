import { z } from 'zod';
import { readAmount, readPercentage } from './amount-text.js';
import { toCents } from './schedule.js';

// Field rules shared by every form and request body, with the same wording everywhere.

export const REQUIRED = 'This field is required.';

const NUL = '\u0000';
/**
 * Half of a surrogate pair without its other half: JSON can carry one ("\ud800"), UTF-8 has no way
 * to write it. With the `u` flag a whole pair reads as one code point, so only a lone half matches.
 * (String.prototype.isWellFormed says the same, but this schema also runs in browsers older than it.)
 */
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Whether PostgreSQL can keep the text as sent: it refuses NUL anywhere and a lone surrogate in
 * jsonb, and a text column would get a replacement character in its place.
 */
const isStorable = (value: string) => !value.includes(NUL) && !LONE_SURROGATE.test(value);

/**
 * Every text a client sends, in a body or a query: what PostgreSQL cannot store is refused here
 * with a field message, rather than by the database with a 500. Every free-text field of the
 * contract is built on this, so the rule lives in one place and holds in the web app's forms too;
 * strings held to a pattern or a list (ids, emails, dates, enums) cannot carry such characters.
 */
export const text = (params?: { error: string }) =>
  z.string(params).refine(isStorable, {
    message: 'This text contains a character that cannot be saved.',
  });

/** Required, trimmed text; `blank` says what to enter when it is empty. */
export const requiredText = (max: number, blank = 'This field may not be blank.') =>
  text({ error: REQUIRED })
    .trim()
    .min(1, blank)
    .max(max, `Ensure this field has no more than ${max} characters.`);

/** Text up to a length, trimmed. */
export const boundedText = (max: number) =>
  text().trim().max(max, `Ensure this field has no more than ${max} characters.`);

/** Free text a broker may leave empty; stored and returned as "". */
export const optionalText = (max: number) => boundedText(max).default('');

export const optionalEmail = text()
  .trim()
  .toLowerCase()
  .max(254, 'Ensure this field has no more than 254 characters.')
  .pipe(z.union([z.literal(''), z.email('Enter a valid email address.')]))
  .default('');

export const optionalUrl = text()
  .trim()
  .max(300, 'Ensure this field has no more than 300 characters.')
  .refine((value) => value === '' || /^https?:\/\/[^\s.]+\.[^\s]+$/i.test(value), {
    message: 'Enter a valid web address starting with http:// or https://.',
  })
  .default('');

export const EARLIEST_DATE = '1900-01-01';
export const LATEST_DATE = '2200-12-31';

/**
 * A calendar date as the API speaks it: "2026-11-22". Bounded to years a policy, payment or birth
 * can fall in; PostgreSQL refuses the year 0, and the far future only makes schedules explode.
 */
export const isoDate = z.iso
  .date({ error: (issue) => (issue.input === undefined ? REQUIRED : 'Enter a valid date (YYYY-MM-DD).') })
  // Only a date-shaped value is compared: anything else already has its message.
  .refine((date) => !/^\d{4}-\d\d-\d\d$/.test(date) || (date >= EARLIEST_DATE && date <= LATEST_DATE), {
    message: 'Enter a date between 1900 and 2200.',
  });

export const uuid = z.uuid('Not a valid id.');

/** A record the broker picks from a list: missing or malformed, it reads as a choice not made. */
export const choiceOf = (message: string) => z.uuid({ error: message });

/** The refusal of an assignee who is not an active member of the agency, in bodies and on the server. */
export const NOT_AN_ACTIVE_MEMBER = 'Choose an active member of your agency.';

/**
 * The member who looks after a record (customers, policies, claims): left out on creation, the
 * member who creates it; left out on a change, whoever has it now; null for no one.
 */
export const assigneeInput = z
  .union([z.uuid({ error: NOT_AN_ACTIVE_MEMBER }), z.null()], { error: NOT_AN_ACTIVE_MEMBER })
  .optional();

/** Who looks after a record, as read: the member's id and name (null and "" for no one). */
export const assigneeFields = {
  assigned_to: z.string().nullable().describe('The member who looks after it; null for no one.'),
  assigned_to_name: z.string().describe('First and last name of the assignee; "" without one.'),
};

/** The lists' "Mine" filter: records assigned to this member. */
export const assignedToFilter = uuid.optional().describe('Only records assigned to this member.');

const PHONE_MAX = 40;
/** Digits, spaces, +, - and parentheses, with an optional extension ("ext. 12", "x12"). */
const PHONE = /^\+?(?=[^x]*\d)[\d\s()-]+(\s*(ext\.?|x)\s*\d{1,6})?$/i;

export const optionalPhone = boundedText(PHONE_MAX)
  // Longer values already have their message; the pattern is only tried on what could be a number.
  .refine((value) => value === '' || value.length > PHONE_MAX || PHONE.test(value), {
    message: 'Use digits, spaces, +, - and parentheses, and "ext." before an extension.',
  })
  .default('');

/**
 * A field's value inside a rule across fields. Such rules run even when other fields failed, so a
 * form shows every problem on its first submit; each reads its fields through this, which gives
 * the value only when the field is valid on its own, so a rule never compares broken values.
 */
export function validField<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
): z.output<Schema> | undefined {
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
}

/** Options for an object's rule across fields: run whenever the body is an object at all. */
export const EVEN_WHEN_FIELDS_FAIL = {
  when: (payload: { value: unknown }) =>
    typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
};

/** "7" -> "7.00", "12.5" -> "12.50": written out from the digits, never through a float. */
function withTwoDecimals(value: string): string {
  const [whole = '0', fraction = ''] = value.split('.');
  return `${whole.replace(/^0+(?=\d)/, '')}.${fraction.padEnd(2, '0').slice(0, 2)}`;
}

/**
 * A non-negative decimal sent as a number or a string, written as people type it ("1,200", "12,5%":
 * see amount-text.ts), with at most two decimal places that count,
 * and within `limit`. One check reports the first problem only: no field rule aborts,
 * since an aborted field would keep a body's rules across fields from running.
 */
const decimalInput = (
  read: (text: string) => string,
  notANumber: string,
  limit: (value: string) => string | undefined,
) =>
  z
    .union([z.number(), z.string()], { error: REQUIRED })
    .transform((value) => read(String(value).trim()))
    .superRefine((value, context) => {
      let problem: string | undefined;
      if (/^-\s*\d/.test(value)) problem = 'This cannot be negative.';
      else if (!/^\d+(\.\d+)?$/.test(value)) problem = notANumber;
      else if (/\.\d{2}0*[1-9]\d*$/.test(value)) problem = 'Use at most two decimal places.';
      else problem = limit(value);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .transform(withTwoDecimals);

/** A percentage from 0 to 100 with at most two decimals; sent as a number or a string, read as "12.50". */
export const percentage = decimalInput(readPercentage, 'Enter a number from 0 to 100.', (value) =>
  Number(value) <= 100 ? undefined : 'A percentage cannot be more than 100.',
);

/** Whether an amount read as "-1250.00" fits a money column: at most 12 digits before the point. */
export const fitsMoney = (amount: string): boolean =>
  (amount.split('.')[0] ?? '').replace(/^-?0*/, '').length <= 12;

/** An amount of money up to 999,999,999,999.99; sent as a number or a string, read as "1250.00". */
export const moneyInput = decimalInput(readAmount, 'Enter an amount, like 1250.00.', (value) =>
  fitsMoney(value) ? undefined : 'This amount is too large.',
);

/** An amount that must be more than zero, like a premium or a payment. */
export const positiveMoney = (message: string) =>
  moneyInput.refine((amount) => toCents(amount) > 0n, { message });

/** A query-string flag: "true" or "false". */
export const queryBoolean = z.enum(['true', 'false']).transform((value) => value === 'true');
