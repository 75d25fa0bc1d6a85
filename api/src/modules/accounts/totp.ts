import { TOTP_DIGITS } from '@coverdesk/contract';
import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app reads it: SHA-1, 30-second steps, six digits. */
const PERIOD_SECONDS = 30;
const ISSUER = 'Coverdesk';
/** A step either way, for a phone's clock a little off. */
const DRIFT_STEPS = 1;

/** A new secret: 160 random bits, as base32 to type into an app. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

const totpOf = (secret: string, email = '') =>
  new TOTP({
    issuer: ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });

/** The key URI an app reads from the QR code: `otpauth://totp/Coverdesk:<email>?…&issuer=Coverdesk`. */
export const otpauthUrl = (secret: string, email: string): string => totpOf(secret, email).toString();

/**
 * The 30-second step a code is right for, allowing a step of drift either way, or null when it is
 * wrong. The caller accepts a step once only, so a code seen over a shoulder cannot be used again.
 */
export function stepOfCode(secret: string, code: string, now = Date.now()): number | null {
  const totp = totpOf(secret);
  const delta = totp.validate({ token: code, timestamp: now, window: DRIFT_STEPS });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}
