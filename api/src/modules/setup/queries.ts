import { eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { companies } from '../companies/tables.js';

export async function hasCompanies(tx: Transaction, tenantId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.tenantId, tenantId))
    .limit(1);
  return row !== undefined;
}
