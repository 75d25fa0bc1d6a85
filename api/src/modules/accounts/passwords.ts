import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

/** argon2id with the OWASP-recommended minimum cost (m=19 MiB, t=2, p=1): what every install hashes with. */
export const OWASP_ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * argon2id at far less than a real install's cost, for test runs alone: the API and browser tests
 * register thousands of agencies and sign in thousands of times, and each hash at the real cost
 * took about 20 ms of CPU on a two-core machine. A hash records its own cost, so either kind
 * verifies whatever the setting.
 */
const TEST_ARGON2 = { algorithm: 2, memoryCost: 1_024, timeCost: 1, parallelism: 1 } as const;

/**
 * The real cost unless PASSWORD_HASH_COST=test, which the test runs set (api/vitest.config.ts,
 * e2e/playwright.config.ts); never in production (NODE_ENV=production, as the Docker image sets).
 */
export function argon2Options(env: Record<string, string | undefined> = process.env) {
  return env.PASSWORD_HASH_COST === 'test' && env.NODE_ENV !== 'production' ? TEST_ARGON2 : OWASP_ARGON2;
}

const ARGON2_OPTIONS = argon2Options();

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
