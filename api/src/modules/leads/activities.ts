import type { LeadActivity, leadActivityBody } from '@coverdesk/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Transaction } from '../../db/client.js';
import { one } from '../../db/query-helpers.js';
import { agencyUsers } from '../tenants/tables.js';
import { fullName } from './queries.js';
import { leadActivities } from './tables.js';

export async function listActivities(
  tx: Transaction,
  tenantId: string,
  leadId: string,
): Promise<LeadActivity[]> {
  const rows = await tx
    .select({
      id: leadActivities.id,
      lead_id: leadActivities.leadId,
      activity_type: leadActivities.activityType,
      summary: leadActivities.summary,
      from_status: leadActivities.fromStatus,
      to_status: leadActivities.toStatus,
      user_id: leadActivities.userId,
      user_name: sql<string>`coalesce(${fullName(agencyUsers)}, '')`,
      occurredAt: leadActivities.occurredAt,
    })
    .from(leadActivities)
    .leftJoin(agencyUsers, eq(agencyUsers.id, leadActivities.userId))
    .where(and(eq(leadActivities.tenantId, tenantId), eq(leadActivities.leadId, leadId)))
    .orderBy(desc(leadActivities.occurredAt), desc(leadActivities.id));
  return rows.map(({ occurredAt, ...row }) => ({ ...row, occurred_at: occurredAt.toISOString() }));
}

export async function addActivity(
  tx: Transaction,
  tenantId: string,
  leadId: string,
  userId: string,
  values: z.output<typeof leadActivityBody>,
): Promise<string> {
  const rows = await tx
    .insert(leadActivities)
    .values({
      tenantId,
      leadId,
      userId,
      activityType: values.activity_type,
      summary: values.summary,
      occurredAt: values.occurred_at ? new Date(values.occurred_at) : sql`now()`,
    })
    .returning({ id: leadActivities.id });
  return one(rows).id;
}
