import { z } from 'zod';

// Field rules shared by every form and request body, with the same wording everywhere.

export const REQUIRED = 'This field is required.';

export const requiredText = (max: number) =>
  z
    .string({ error: REQUIRED })
    .trim()
    .min(1, 'This field may not be blank.')
    .max(max, `Ensure this field has no more than ${max} characters.`);

/** Text up to a length, trimmed. */
export const boundedText = (max: number) =>
  z.string().trim().max(max, `Ensure this field has no more than ${max} characters.`);

/** Free text a broker may leave empty; stored and returned as "". */
export const optionalText = (max: number) => boundedText(max).default('');

export const optionalEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'Ensure this field has no more than 254 characters.')
  .pipe(z.union([z.literal(''), z.email('Enter a valid email address.')]))
  .default('');

export const optionalUrl = z
  .string()
  .trim()
  .max(300, 'Ensure this field has no more than 300 characters.')
  .refine((value) => value === '' || /^https?:\/\/[^\s.]+\.[^\s]+$/i.test(value), {
    message: 'Enter a valid web address starting with http:// or https://.',
  })
  .default('');

/** A calendar date as the API speaks it: "2026-11-22". */
export const isoDate = z.iso.date('Enter a valid date (YYYY-MM-DD).');

export const uuid = z.uuid('Not a valid id.');

/** "7" -> "7.00", "12.5" -> "12.50": written out from the digits, never through a float. */
function withTwoDecimals(value: string): string {
  const [whole = '0', fraction = ''] = value.split('.');
  return `${whole.replace(/^0+(?=\d)/, '')}.${fraction.padEnd(2, '0').slice(0, 2)}`;
}

/** A non-negative decimal sent as a number or a string, with at most two decimal places that count. */
const decimalInput = (notANumber: string) =>
  z
    .union([z.number(), z.string()], { error: REQUIRED })
    .transform((value) => String(value).trim())
    .refine((value) => /^\d+(\.\d+)?$/.test(value), { message: notANumber, abort: true })
    .refine((value) => !/\.\d{2}0*[1-9]\d*$/.test(value), {
      message: 'Use at most two decimal places.',
      abort: true,
    });

/** A percentage from 0 to 100 with at most two decimals; sent as a number or a string, read as "12.50". */
export const percentage = decimalInput('Enter a number from 0 to 100.')
  .refine((value) => Number(value) <= 100, { message: 'A percentage cannot be more than 100.' })
  .transform(withTwoDecimals);

/** An amount of money up to 999,999,999,999.99; sent as a number or a string, read as "1250.00". */
export const moneyInput = decimalInput('Enter an amount, like 1250.00.')
  .refine((value) => (value.split('.')[0] ?? '').replace(/^0+/, '').length <= 12, {
    message: 'This amount is too large.',
  })
  .transform(withTwoDecimals);

/** A query-string flag: "true" or "false". */
export const queryBoolean = z.enum(['true', 'false']).transform((value) => value === 'true');
