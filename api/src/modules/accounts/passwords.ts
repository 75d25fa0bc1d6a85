import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

// argon2id with the OWASP-recommended minimum cost (m=19 MiB, t=2, p=1).
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    // Spend the same time as a real check, so a missing account cannot be told apart by timing.
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

const dummyHash = hash('coverdesk-timing-equaliser', ARGON2_OPTIONS);

/** About fifty thousand passwords seen most often in breaches. */
const COMMON_PASSWORDS = new Set(dictionary['passwords-common'] as string[]);

/** Length is checked by the contract schema; this is the server-only part of the password rule. */
export function passwordProblem(password: string, personal: string[] = []): string | null {
  const lowered = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lowered)) return 'This password is too common.';
  if (personal.some((value) => value.length >= 3 && lowered === value.toLowerCase())) {
    return 'The password is too similar to your personal details.';
  }
  return null;
}
