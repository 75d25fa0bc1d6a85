import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { withTenant } from '../../db/tenant.js';
import { HttpError } from '../../http/errors.js';
import { findDemoUser } from '../accounts/queries.js';
import { createAgency } from '../accounts/service.js';
import { subscriptions } from '../billing/tables.js';
import { seedDemoAgency } from './agency.js';

const DEMO_EMAIL = 'demo@coverdesk.demo';

/**
 * Makes sure the sample agency behind "Try the demo" exists, with its book of business. Its user has
 * no password (only the demo login reaches it) and its subscription never lapses.
 */
export async function ensureDemoAgency(db: Database, now = new Date()): Promise<void> {
  if (await findDemoUser(db)) return;
  const created = await createAgency(db, {
    email: DEMO_EMAIL,
    password: null,
    firstName: 'Dana',
    lastName: 'Demo',
    companyName: 'Harbor Lane Insurance (demo)',
    isAdmin: false,
    isDemo: true,
  }).catch((error: unknown) => {
    // Another instance starting at the same moment created it first.
    if (error instanceof HttpError) return undefined;
    throw error;
  });
  if (!created) return;
  const { tenantId } = created;
  await withTenant(db, tenantId, async (tx) => {
    await tx
      .update(subscriptions)
      .set({ status: 'active', currentPeriodEnd: null })
      .where(eq(subscriptions.tenantId, tenantId));
    await seedDemoAgency(tx, tenantId, now);
  });
}

/**
 * Rebuilds the demo agency's book as of `now`, in one tenant transaction: visitors see yesterday's
 * agency or today's, never half of one. False when there is no demo agency to rebuild.
 */
export async function resetDemoAgency(db: Database, now = new Date()): Promise<boolean> {
  const demo = await findDemoUser(db);
  if (!demo) return false;
  await withTenant(db, demo.tenantId, (tx) => seedDemoAgency(tx, demo.tenantId, now));
  return true;
}
