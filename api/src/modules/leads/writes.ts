import type { LeadValues } from '@coverdesk/contract';
import { and, eq, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { Transaction } from '../../db/client.js';
import { leads } from './tables.js';

const toColumns = (values: LeadValues) => ({
  firstName: values.first_name,
  lastName: values.last_name,
  businessName: values.business_name,
  email: values.email,
  phone: values.phone,
  source: values.source,
  policyTypeId: values.policy_type_id,
  estimatedPremium: values.estimated_premium,
  status: values.status,
  // A reason belongs to a lost lead only; reopened, the lead drops it.
  lostReason: values.status === 'lost' ? values.lost_reason : '',
  nextFollowUpAt: values.next_follow_up_at ? new Date(values.next_follow_up_at) : null,
  // Left out, the assignee stays as it is (a new lead: see `createLeads`).
  ...(values.assigned_user_id === undefined ? {} : { assignedUserId: values.assigned_user_id }),
  notes: values.notes,
});

/** Rows per statement when adding many, within PostgreSQL's 65,535 parameters. */
const ROWS_PER_INSERT = 2000;

/**
 * Adds leads with the ids given: one from a form, thousands from an import. A lead whose values name
 * no assignee goes to the member the transaction acts for (the one adding it, the importing member).
 */
export async function createLeads(
  tx: Transaction,
  tenantId: string,
  rows: { id: string; values: LeadValues }[],
) {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    await tx.insert(leads).values(
      rows.slice(start, start + ROWS_PER_INSERT).map(({ id, values }) => ({
        id,
        tenantId,
        // Naming no one, a new lead goes to the member the transaction acts for (`actAs`).
        assignedUserId: sql<string | null>`nullif(current_setting('app.user_id', true), '')::uuid`,
        ...toColumns(values),
      })),
    );
  }
}

export async function createLead(tx: Transaction, tenantId: string, values: LeadValues) {
  const id = uuidv7();
  await createLeads(tx, tenantId, [{ id, values }]);
  return id;
}

/** False when the agency has no such lead. */
export async function updateLead(tx: Transaction, tenantId: string, id: string, values: LeadValues) {
  const changed = await tx
    .update(leads)
    .set({ ...toColumns(values), updatedAt: sql`now()` })
    .where(and(eq(leads.tenantId, tenantId), eq(leads.id, id)))
    .returning({ id: leads.id });
  return changed.length > 0;
}

/** Links a lead to the customer it became, and marks it won (the trigger records the change). */
export async function markConverted(tx: Transaction, tenantId: string, id: string, customerId: string) {
  await tx
    .update(leads)
    .set({ customerId, status: 'won', lostReason: '', updatedAt: sql`now()` })
    .where(and(eq(leads.tenantId, tenantId), eq(leads.id, id)));
}

export async function deleteLead(tx: Transaction, tenantId: string, id: string): Promise<boolean> {
  const deleted = await tx
    .delete(leads)
    .where(and(eq(leads.tenantId, tenantId), eq(leads.id, id)))
    .returning({ id: leads.id });
  return deleted.length > 0;
}
