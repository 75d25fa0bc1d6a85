import { z } from 'zod';
import { emailField } from './auth.js';
import { boundedText, REQUIRED, requiredText, text } from './fields.js';

// The platform's own settings, set by an admin: /admin/settings, /admin/email-setup, /admin/paddle-setup.

export const MAX_TRIAL_DAYS = 365;

/** Sign-ups, the demo and the trial every new agency gets. */
export const platformSettings = z.object({
  signups_open: z.boolean({ error: REQUIRED }),
  demo_enabled: z.boolean({ error: REQUIRED }),
  /** Days of the trial a new agency starts with; null keeps each plan's own. */
  default_trial_days: z
    .number({ error: 'Enter a whole number of days.' })
    .int('Enter a whole number of days.')
    .min(1, 'A trial lasts at least 1 day.')
    .max(MAX_TRIAL_DAYS, `A trial lasts at most ${MAX_TRIAL_DAYS} days.`)
    .nullable(),
});
export type PlatformSettings = z.infer<typeof platformSettings>;

/** What the public pages need to know before anyone signs in. */
export const publicSettings = z.object({
  signups_open: z.boolean(),
  /** The demo is switched on here and by the server's DEMO_ENABLED. */
  demo_available: z.boolean(),
});
export type PublicSettings = z.infer<typeof publicSettings>;

export const SIGNUPS_CLOSED = 'Sign-ups are closed at the moment: new agencies cannot register.';
export const DEMO_SWITCHED_OFF = 'The demo is switched off at the moment.';

/** Where the settings in use come from: saved on this screen, the server's environment, or nowhere. */
export const settingsSource = z.enum(['saved', 'environment', 'none']);
export type SettingsSource = z.infer<typeof settingsSource>;

/** A secret as it is shown once saved: whether there is one and, at most, its last four characters. */
export const savedSecret = z.object({ set: z.boolean(), last4: z.string().nullable() });
export type SavedSecret = z.infer<typeof savedSecret>;

/** A secret in a form: left blank (or out), the saved one is kept. */
const newSecret = (max: number) =>
  text().max(max, `Ensure this field has no more than ${max} characters.`).optional();

export const SMTP_SECURITY = ['none', 'starttls', 'tls'] as const;
export const smtpSecurity = z.enum(SMTP_SECURITY, { error: 'Choose none, STARTTLS or TLS.' });
export type SmtpSecurity = z.infer<typeof smtpSecurity>;
export const SMTP_SECURITY_LABELS: Record<SmtpSecurity, string> = {
  none: 'None',
  starttls: 'STARTTLS',
  tls: 'TLS (implicit)',
};

const port = z
  .number({ error: 'Enter a port number.' })
  .int('Enter a port number.')
  .min(1, 'Enter a port between 1 and 65535.')
  .max(65535, 'Enter a port between 1 and 65535.');

/** The mail server the app sends through, as the admin saved it; the password never comes back. */
export const emailSetup = z.object({
  host: z.string(),
  port: z.number().int().nullable(),
  security: smtpSecurity,
  username: z.string(),
  password: savedSecret,
  from_email: z.string(),
  from_name: z.string(),
  /** Whether settings were saved here; the app then sends through them rather than SMTP_URL. */
  saved: z.boolean(),
  source: settingsSource,
  /** Without SETTINGS_ENCRYPTION_KEY no secret can be saved. */
  encryption_key_set: z.boolean(),
  updated_at: z.string().nullable(),
});
export type EmailSetup = z.infer<typeof emailSetup>;

/** The saved mail password goes only to the server it was saved for: another one needs it again. */
export const SMTP_PASSWORD_AGAIN = 'Enter the password again: the server changed.';

export const emailSetupBody = z.object({
  host: requiredText(255).refine((value) => /^[A-Za-z0-9.:[\]-]+$/.test(value), {
    message: 'Enter a host name or address, without spaces.',
  }),
  port,
  security: smtpSecurity,
  /** Blank for a server that takes mail without signing in. */
  username: boundedText(255),
  password: newSecret(500),
  from_email: emailField,
  from_name: boundedText(100),
});
export type EmailSetupBody = z.infer<typeof emailSetupBody>;

export const emailTestBody = z.object({ to: emailField.optional() });
export type EmailTestBody = z.infer<typeof emailTestBody>;

/**
 * The mail server's answer to a test message, or why there was none. A failure is told in a plain
 * sentence: the host, port and error code behind it stay in the server's log, since the test would
 * otherwise map the network the server sits in, port by port.
 */
export const emailTestResult = z.object({
  delivered: z.boolean(),
  to: z.string(),
  /** The SMTP reply code the mail server answered with (250, 535…); null when none answered. */
  code: z.number().nullable(),
  /** The server's reply line, "250 2.0.0 OK", or why the test failed, in a sentence. */
  response: z.string(),
});
export type EmailTestResult = z.infer<typeof emailTestResult>;

export const PADDLE_ENVIRONMENTS = ['sandbox', 'production'] as const;
export const paddleEnvironment = z.enum(PADDLE_ENVIRONMENTS, { error: 'Choose sandbox or production.' });

const priceId = text()
  .trim()
  .refine((value) => value === '' || /^pri_[a-z0-9]+$/.test(value), {
    message: 'A Paddle price id reads pri_ followed by letters and digits.',
  });

/** One plan's Paddle prices; blank where the plan is not sold online in that cycle. */
export const planPrices = z.object({ monthly: priceId, yearly: priceId });

export const paddleSetup = z.object({
  environment: paddleEnvironment,
  api_key: savedSecret,
  client_token: z.string(),
  webhook_secret: savedSecret,
  /** Per plan name, with the plan's display name for the form. */
  prices: z.array(
    z.object({ plan: z.string(), display_name: z.string(), monthly: z.string(), yearly: z.string() }),
  ),
  saved: z.boolean(),
  source: settingsSource,
  encryption_key_set: z.boolean(),
  /** Where Paddle must send its notifications. */
  webhook_url: z.string(),
  updated_at: z.string().nullable(),
});
export type PaddleSetup = z.infer<typeof paddleSetup>;

export const paddleSetupBody = z.object({
  environment: paddleEnvironment,
  api_key: newSecret(500),
  client_token: requiredText(200, 'Enter the client-side token.'),
  webhook_secret: newSecret(500),
  prices: z.record(z.string(), planPrices),
});
export type PaddleSetupBody = z.infer<typeof paddleSetupBody>;

export const paddleCheckResult = z.object({ ok: z.boolean(), detail: z.string() });
export type PaddleCheckResult = z.infer<typeof paddleCheckResult>;
