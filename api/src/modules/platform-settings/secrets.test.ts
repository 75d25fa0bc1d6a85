import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSecret, SecretUnreadable, sealSecret } from './secrets.js';

const key = randomBytes(32);
const PURPOSE = 'email.password';

/** The sealed value with its tag replaced by `tag`. */
function withTag(sealed: string, tag: (whole: Buffer) => Buffer): string {
  const [format, nonce, whole, ciphertext] = sealed.split('.');
  return [format, nonce, tag(Buffer.from(whole ?? '', 'base64url')).toString('base64url'), ciphertext].join(
    '.',
  );
}

describe('sealed secrets', () => {
  it('open with the key and purpose they were sealed with, and with no other', () => {
    const sealed = sealSecret(key, PURPOSE, 'quiet harbour lighthouse');
    expect(openSecret(key, PURPOSE, sealed)).toBe('quiet harbour lighthouse');
    expect(() => openSecret(randomBytes(32), PURPOSE, sealed)).toThrow(SecretUnreadable);
    expect(() => openSecret(key, 'paddle.api_key', sealed)).toThrow(SecretUnreadable);
    expect(() => openSecret(undefined, PURPOSE, sealed)).toThrow(SecretUnreadable);
  });

  it('refuse a tag cut short, which is easier to forge, even when what is left is right', () => {
    const sealed = sealSecret(key, PURPOSE, 'quiet harbour lighthouse');
    for (const length of [4, 8, 12, 15]) {
      expect(() =>
        openSecret(
          key,
          PURPOSE,
          withTag(sealed, (whole) => whole.subarray(0, length)),
        ),
      ).toThrow(SecretUnreadable);
    }
    const longer = withTag(sealed, (whole) => Buffer.concat([whole, Buffer.from([0])]));
    expect(() => openSecret(key, PURPOSE, longer)).toThrow(SecretUnreadable);
  });
});
