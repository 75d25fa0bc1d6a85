import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How far a signature's time may be from the server's clock, either way. Paddle refuses to replay a
 * notification older than this, and so does Coverdesk; one dated ahead is held to the same window,
 * since it would otherwise be good to replay until its time came.
 */
const SIGNATURE_WINDOW_SECONDS = 5;

const hmacHex = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');

/** Compares two hex digests in constant time, so a forger learns nothing from how long a refusal took. */
function sameDigest(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Paddle-Signature `ts=...;h1=...`: an HMAC-SHA256 of `${ts}:${rawBody}` with the secret of the
 * notification destination, dated within five seconds of now.
 */
export function isSignedByPaddle(
  rawBody: string,
  signature: string | undefined,
  secret: string,
  now = Date.now(),
): boolean {
  if (!signature) return false;
  const fields = new Map<string, string[]>();
  for (const part of signature.split(';')) {
    const [key, value] = part.split('=', 2).map((side) => side.trim());
    if (key && value) fields.set(key, [...(fields.get(key) ?? []), value]);
  }
  const ts = fields.get('ts')?.[0];
  const digests = fields.get('h1') ?? [];
  if (!ts || !/^\d{1,12}$/.test(ts) || digests.length === 0) return false;
  if (Math.abs(now / 1000 - Number(ts)) > SIGNATURE_WINDOW_SECONDS) return false;
  const expected = hmacHex(secret, `${ts}:${rawBody}`);
  // While a secret is rotated, Paddle sends one h1 per secret.
  return digests.some((digest) => sameDigest(expected, digest));
}

/**
 * The seal on the agency id a checkout carries through the browser to Paddle and back in its events:
 * only the server, holding the webhook secret, can make one, so a payer cannot name another agency.
 */
export const tenantSignature = (secret: string, tenantId: string) => hmacHex(secret, tenantId);

export const isTenantSigned = (secret: string, tenantId: string, signature: string) =>
  sameDigest(tenantSignature(secret, tenantId), signature);
