import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { argon2Options, hashPassword, OWASP_ARGON2, verifyPassword } from './passwords.js';

describe('password hashing cost', () => {
  it('is the OWASP minimum in production, whatever a test setting left in the environment', () => {
    expect(argon2Options({})).toEqual({ algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    expect(argon2Options({ NODE_ENV: 'production', PASSWORD_HASH_COST: 'test' })).toBe(OWASP_ARGON2);
    expect(argon2Options({ PASSWORD_HASH_COST: 'anything else' })).toBe(OWASP_ARGON2);
  });

  it('is lowered for the test runs alone, and a real install’s hashes still verify there', async () => {
    // api/vitest.config.ts sets PASSWORD_HASH_COST=test: the run hashes cheaply...
    expect(await hashPassword('quiet harbour lighthouse')).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    // ...and a password saved at the real cost is checked at the cost its hash records.
    const saved = await hash('quiet harbour lighthouse', OWASP_ARGON2);
    expect(saved).toMatch(/\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(saved, 'quiet harbour lighthouse')).toBe(true);
    expect(await verifyPassword(saved, 'quiet harbour lighthousf')).toBe(false);
  });
});
