import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, tokenPair } from './auth.js';
import { REQUIRED, requiredText, text } from './fields.js';

/** Digits of an authenticator app's code (RFC 6238: SHA-1, 30 seconds, 6 digits). */
export const TOTP_DIGITS = 6;
/** Recovery codes made at each setup; each is good once. */
export const RECOVERY_CODE_COUNT = 10;

/** The password was right and two-step sign-in is on: the code is asked for with this token. */
export const mfaChallenge = z.object({ mfa_required: z.literal(true), mfa_token: z.string() });
export type MfaChallenge = z.infer<typeof mfaChallenge>;

/** What `POST /api/token/` answers: the tokens, or the second step. */
export const signInResponse = z.union([tokenPair, mfaChallenge]);
export type SignInResponse = z.infer<typeof signInResponse>;

/** Six digits; spaces an app shows in the middle ("123 456") are dropped. */
export const totpCode = text({ error: 'Enter the 6-digit code from your authenticator app.' })
  .max(20, 'Enter the 6-digit code from your authenticator app.')
  .transform((code) => code.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'));

/** "ABCD-EFGH-JKLM", as shown; typed with or without its dashes, in either case. */
export const recoveryCode = text({ error: 'Enter one of your recovery codes.' })
  .max(40, 'Enter one of your recovery codes.')
  .transform((code) => code.replace(/[\s-]+/g, '').toUpperCase())
  .pipe(z.string().regex(/^[A-Z2-7]{12}$/, 'Enter one of your recovery codes.'));

export const mfaSignInBody = z
  .object({
    mfa_token: text({ error: REQUIRED }).min(1, 'This field may not be blank.').max(100),
    code: totpCode.optional(),
    recovery_code: recoveryCode.optional(),
  })
  .refine((body) => (body.code === undefined) !== (body.recovery_code === undefined), {
    message: 'Enter the code from your authenticator app, or one recovery code.',
    path: ['code'],
  });

export const totpSetup = z.object({ secret: z.string(), otpauth_url: z.string() });
export type TotpSetup = z.infer<typeof totpSetup>;

export const totpConfirmBody = z.object({ code: totpCode });

export const recoveryCodes = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodes>;

const currentPassword = text({ error: REQUIRED })
  .min(1, 'Enter your password.')
  .max(PASSWORD_MAX_LENGTH, `Ensure this field has no more than ${PASSWORD_MAX_LENGTH} characters.`);

/** Turning two-step sign-in off takes the password and a current code. */
export const mfaDisableBody = z.object({ password: currentPassword, code: totpCode });

/** New recovery codes take a current code: the old ones stop working. */
export const recoveryCodesBody = z.object({ code: totpCode });

/** An admin resets a user's two-step sign-in (a lost phone), saying why. */
export const mfaResetBody = z.object({ reason: requiredText(500) });

/** One signed-in session: a sign-in and the refreshes that kept it going. */
export const userSession = z.object({
  id: z.string(),
  created_at: z.string(),
  last_used_at: z.string(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** The session this request came with. */
  current: z.boolean(),
  /** Signed in with both steps. */
  two_step: z.boolean(),
});
export type UserSession = z.infer<typeof userSession>;
export const userSessionList = z.object({ results: z.array(userSession) });

/** The admin portal's refusal of a session that did not come through two steps. */
export const MFA_REQUIRED_CODE = 'mfa_required';
export const ADMIN_MFA_REQUIRED = 'Turn on two-step sign-in to use the admin portal.';
export const AGENCY_MFA_REQUIRED =
  'Your agency requires two-step sign-in: turn it on in your profile settings to go on working.';
