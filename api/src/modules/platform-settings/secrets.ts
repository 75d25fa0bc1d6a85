import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Why a saved secret cannot be read: no key, or a key other than the one that sealed it. */
export class SecretUnreadable extends Error {}

const FORMAT = 'v1';
/** GCM's full tag, the length sealSecret writes. */
const TAG_BYTES = 16;

/**
 * Seals a secret with AES-256-GCM: a fresh 12-byte nonce each time, and the purpose ("email.password")
 * bound in as associated data, so a sealed value copied into another field does not open there.
 * Stored as `v1.<nonce>.<tag>.<ciphertext>`, each in base64url.
 */
export function sealSecret(key: Buffer, purpose: string, secret: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(purpose));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [FORMAT, ...[nonce, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url'))].join(
    '.',
  );
}

export function openSecret(key: Buffer | undefined, purpose: string, stored: string): string {
  if (!key) throw new SecretUnreadable('SETTINGS_ENCRYPTION_KEY is not set on this server');
  const [format, nonce, tag, sealed] = stored.split('.');
  if (format !== FORMAT || !nonce || !tag || sealed === undefined) {
    throw new SecretUnreadable('the saved secret is not in a format this server reads');
  }
  const authTag = Buffer.from(tag, 'base64url');
  // GCM accepts tags cut short, which are easier to forge: only the whole tag sealSecret wrote opens.
  if (authTag.length !== TAG_BYTES) {
    throw new SecretUnreadable('the saved secret is not in a format this server reads');
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(nonce, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(authTag);
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new SecretUnreadable('SETTINGS_ENCRYPTION_KEY is not the key the secret was saved with');
  }
}
