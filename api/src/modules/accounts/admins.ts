import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { hashPassword } from './passwords.js';
import { findUserByEmail, replacePassword } from './queries.js';
import { assertAcceptablePassword, createAgency } from './service.js';
import { users } from './tables.js';

export interface AdminAccount {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/**
 * Makes `email` a platform admin with this password: a new account in an administration agency of
 * its own, or an existing account promoted.
 */
export async function createAdmin(db: Database, admin: AdminAccount): Promise<'created' | 'promoted'> {
  assertAcceptablePassword('password', admin.password, [admin.email, admin.firstName, admin.lastName]);
  const existing = await findUserByEmail(db, admin.email);
  if (existing) {
    const passwordHash = await hashPassword(admin.password);
    // Whoever held the account before must not keep a session (or a reset link) that now carries
    // admin rights. Running servers learn of the revoked sessions within a second.
    await db.transaction(async (tx) => {
      await tx.update(users).set({ isAdmin: true }).where(eq(users.id, existing.id));
      await replacePassword(tx, existing.id, passwordHash);
    });
    return 'promoted';
  }
  await createAgency(db, { ...admin, companyName: 'Coverdesk administration', isAdmin: true });
  return 'created';
}
