import { z } from 'zod';
import { REQUIRED, requiredText, text } from './fields.js';
import { teamRole } from './roles.js';

export const PASSWORD_MIN_LENGTH = 8;
/** Long passphrases are welcome; the cap only keeps hashing cost bounded. */
export const PASSWORD_MAX_LENGTH = 256;

export const emailField = z
  .string({ error: 'This field is required.' })
  .trim()
  .toLowerCase()
  .max(254, 'Ensure this field has no more than 254 characters.')
  .pipe(z.email('Enter a valid email address.'));

export const passwordField = text({ error: REQUIRED })
  .min(
    PASSWORD_MIN_LENGTH,
    `This password is too short. It must contain at least ${PASSWORD_MIN_LENGTH} characters.`,
  )
  .max(PASSWORD_MAX_LENGTH, `Ensure this field has no more than ${PASSWORD_MAX_LENGTH} characters.`);

/**
 * The agency's time zone, an IANA name ("Europe/London"): its day decides which policies are
 * active and which instalments are overdue. UTC is accepted besides the regional names.
 */
export const timeZoneField = z
  .string({ error: 'Choose a time zone.' })
  .refine((name) => name === 'UTC' || Intl.supportedValuesOf('timeZone').includes(name), {
    message: 'Choose a time zone from the list.',
  });

/**
 * The agency's currency, an ISO 4217 code ("EUR"): every amount it records is shown in it. Amounts
 * are kept to the cent whatever the currency.
 */
export const currencyField = z
  .string({ error: 'Choose a currency.' })
  .refine((code) => Intl.supportedValuesOf('currency').includes(code), {
    message: 'Choose a currency from the list.',
  });

export const registerBody = z.object({
  email: emailField,
  password: passwordField,
  first_name: requiredText(150),
  last_name: requiredText(150),
  company_name: requiredText(200),
  time_zone: timeZoneField.optional(),
});
export type RegisterBody = z.infer<typeof registerBody>;

/** Sign-in takes the email as typed (no address rules to hint with), within the lengths stored. */
export const tokenBody = z.object({
  email: text({ error: REQUIRED })
    .trim()
    .toLowerCase()
    .min(1, 'This field may not be blank.')
    .max(254, 'Ensure this field has no more than 254 characters.'),
  password: text({ error: REQUIRED })
    .min(1, 'This field may not be blank.')
    .max(PASSWORD_MAX_LENGTH, `Ensure this field has no more than ${PASSWORD_MAX_LENGTH} characters.`),
});

export const tokenPair = z.object({ access: z.string(), refresh: z.string() });
export type TokenPair = z.infer<typeof tokenPair>;

export const refreshBody = z.object({
  refresh: text({ error: REQUIRED }).min(1, 'This field may not be blank.'),
});

export const userProfile = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  is_admin: z.boolean(),
  is_demo_user: z.boolean(),
  /** What the user may do in their agency (`TEAM_ACTIONS`). */
  role: teamRole,
  company_name: z.string(),
  time_zone: z.string(),
  currency: z.string(),
  tenant_id: z.string(),
  date_joined: z.string(),
  last_login: z.string().nullable(),
  /** Two-step sign-in (an authenticator app's code after the password) is on. */
  mfa_enabled: z.boolean(),
  /** When the agency requires two-step sign-in and it is off: the moment it must be on by. */
  two_step_required_by: z.string().nullable(),
});
export type UserProfile = z.infer<typeof userProfile>;

export const registerResponse = tokenPair.extend({ user: userProfile });

/** Who to try the demo as: the agency's owner (the default), one of its agents, or a viewer. */
export const demoLoginQuery = z.object({
  role: z.enum(['owner', 'agent', 'viewer'], { error: 'Choose owner, agent or viewer.' }).default('owner'),
});
export type DemoLoginQuery = z.infer<typeof demoLoginQuery>;

export const demoLoginResponse = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  user: userProfile,
});

export const profileUpdateBody = z.object({
  first_name: requiredText(150).optional(),
  last_name: requiredText(150).optional(),
  company_name: requiredText(200).optional(),
  time_zone: timeZoneField.optional(),
  currency: currencyField.optional(),
  email: emailField.optional(),
  // Bounded like every password, so a megabyte of it is refused before anything hashes it.
  current_password: text()
    .max(PASSWORD_MAX_LENGTH, `Ensure this field has no more than ${PASSWORD_MAX_LENGTH} characters.`)
    .optional(),
  new_password: passwordField.optional(),
});
export type ProfileUpdateBody = z.infer<typeof profileUpdateBody>;

export const profileUpdateResponse = z.object({ user: userProfile, message: z.string() });

export const passwordResetRequestBody = z.object({ email: emailField });

export const passwordResetConfirmBody = z.object({
  token: text({ error: REQUIRED }).min(1, 'This field may not be blank.'),
  new_password: passwordField,
});
