import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { withTenant } from '../../db/tenant.js';
import { HttpError } from '../../http/errors.js';
import { subscriptions } from '../billing/tables.js';
import { findDemoUser } from './queries.js';
import { createAgency } from './service.js';

const DEMO_EMAIL = 'demo@coverdesk.demo';

/**
 * Makes sure the sample agency behind "Try the demo" exists. Its user has no password (only the demo
 * login reaches it) and its subscription never lapses.
 */
export async function ensureDemoAgency(db: Database): Promise<void> {
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
  await withTenant(db, tenantId, (tx) =>
    tx
      .update(subscriptions)
      .set({ status: 'active', currentPeriodEnd: null })
      .where(eq(subscriptions.tenantId, tenantId)),
  );
}
