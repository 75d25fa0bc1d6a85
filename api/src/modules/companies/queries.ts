import { and, eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { companies } from './tables.js';

/** Whether the agency has an insurer with this id. */
export async function companyExists(tx: Transaction, tenantId: string, id: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: companies.id })
    .from(companies)
    .where(and(eq(companies.tenantId, tenantId), eq(companies.id, id)));
  return row !== undefined;
}
