import type { commissionExportQuery } from '@coverdesk/contract';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Executor, Transaction } from '../../db/client.js';
import { one } from '../../db/query-helpers.js';
import { companies } from '../companies/tables.js';
import { policyTypes } from '../policy-types/tables.js';
import { tenants } from '../tenants/tables.js';

// What the PDF's first lines say about the report: whose it is, when it was made, what it covers.

type ExportQuery = z.output<typeof commissionExportQuery>;

/**
 * The agency's name, currency and time now on its own clock. Tenants are not readable inside a
 * tenant transaction, so this runs before it, on a connection of its own.
 */
export async function findAgency(executor: Executor, tenantId: string) {
  const rows = await executor
    .select({ name: tenants.name, currency: tenants.currency, timeZone: tenants.timeZone })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  const { name, currency, timeZone } = one(rows);
  const now = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
    new Date(),
  );
  return { name, currency, now };
}

const day = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const readable = (date: string) => day.format(new Date(`${date}T00:00:00Z`));

export function describePeriod({ start_date, end_date }: Pick<ExportQuery, 'start_date' | 'end_date'>) {
  if (start_date && end_date) return `${readable(start_date)} – ${readable(end_date)}`;
  if (start_date) return `From ${readable(start_date)}`;
  if (end_date) return `Until ${readable(end_date)}`;
  return 'All dates';
}

/** Each filter set, as "Insurer: Harel"; an id the agency does not have reads as unknown. */
export async function describeFilters(tx: Transaction, tenantId: string, query: ExportQuery) {
  const filters: string[] = [];
  if (query.company_id) {
    const [company] = await tx
      .select({ name: companies.name })
      .from(companies)
      .where(and(eq(companies.tenantId, tenantId), eq(companies.id, query.company_id)));
    filters.push(`Insurer: ${company?.name ?? 'unknown'}`);
  }
  if (query.policy_type_id) {
    const [type] = await tx
      .select({ name: policyTypes.name })
      .from(policyTypes)
      .where(and(eq(policyTypes.tenantId, tenantId), eq(policyTypes.id, query.policy_type_id)));
    filters.push(`Policy type: ${type?.name ?? 'unknown'}`);
  }
  if (query.payment_status) filters.push(`Payment status: ${query.payment_status}`);
  if (query.search) filters.push(`Search: "${query.search}"`);
  return filters;
}
