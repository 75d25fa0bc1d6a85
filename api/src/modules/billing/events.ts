import type { BillingEvent, PageQuery } from '@coverdesk/contract';
import { count, desc, eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { offsetOf } from '../../http/pagination.js';
import { billingEvents } from './tables.js';

/** The agency's billing history, newest first. `tx` must be scoped to the tenant. */
export async function listBillingEvents(
  tx: Transaction,
  tenantId: string,
  query: Pick<PageQuery, 'page' | 'page_size'>,
): Promise<{ count: number; results: BillingEvent[] }> {
  const [total] = await tx
    .select({ count: count() })
    .from(billingEvents)
    .where(eq(billingEvents.tenantId, tenantId));
  const rows = await tx
    .select()
    .from(billingEvents)
    .where(eq(billingEvents.tenantId, tenantId))
    .orderBy(desc(billingEvents.occurredAt), desc(billingEvents.id))
    .limit(query.page_size)
    .offset(offsetOf(query));
  return {
    count: total?.count ?? 0,
    results: rows.map((row) => ({
      id: row.id,
      type: row.type,
      from_status: row.fromStatus,
      to_status: row.toStatus,
      plan_name: row.planName,
      billing_cycle: row.billingCycle,
      amount: row.amount,
      provider: row.provider,
      provider_event_id: row.providerEventId,
      actor: row.actorName,
      note: row.note,
      occurred_at: row.occurredAt.toISOString(),
    })),
  };
}
