import { EXPIRY_WINDOWS } from '@coverdesk/contract';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { expiringWithin } from '../policies/status.js';
import { policies } from '../policies/tables.js';

/**
 * The demo agency's decision on one policy: of those ending within 90 days, the last to end is marked
 * as not renewing, with the reason, so its page shows the mark and the list leaves it out. The
 * lapsed ones stay on the list: on many days the demo has only one or two. Runs after the policies
 * are seeded; reseeding them clears it.
 */
export async function seedDemoAlerts(tx: Transaction, { tenantId }: { tenantId: string }): Promise<void> {
  const [latest] = await tx
    .select({ id: policies.id })
    .from(policies)
    .where(
      and(
        eq(policies.tenantId, tenantId),
        expiringWithin(Math.max(...EXPIRY_WINDOWS)),
        isNull(policies.notRenewingAt),
      ),
    )
    .orderBy(desc(policies.endDate), policies.policyNumber)
    .limit(1);
  if (!latest) return;
  await tx
    .update(policies)
    .set({
      notRenewingReason: 'Customer is moving abroad and will insure there.',
      notRenewingAt: sql`now() - interval '1 day'`,
    })
    .where(and(eq(policies.tenantId, tenantId), eq(policies.id, latest.id)));
}
