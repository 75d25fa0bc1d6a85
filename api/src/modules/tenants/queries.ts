import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { tenants } from './tables.js';

/**
 * Whether an agency is the demo's: every visitor of "Try the demo" signs in to it, so what one of
 * them may change there, all of them see.
 */
export async function isDemoAgency(executor: Executor, tenantId: string): Promise<boolean> {
  const [agency] = await executor
    .select({ isDemo: tenants.isDemo })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return agency?.isDemo ?? false;
}
