import type { LeadMatch } from '@coverdesk/contract';
import { and, asc, eq, ne, or, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { digitsOf, digitsOnly, findDuplicateCustomers } from '../customers/queries.js';
import { leads } from './tables.js';

/** A phone shorter than this is an area code or a typo in progress, not someone's number. */
const MIN_MATCH_PHONE_DIGITS = 6;
const MAX_MATCHES = 5;

/**
 * Customers, then other leads, with the same email (without case) or phone (by its digits) as the
 * one given: the customers' own duplicate check, and the same rules over the leads.
 */
export async function findLeadMatches(
  tx: Transaction,
  tenantId: string,
  query: { email?: string; phone?: string; exclude_id?: string },
): Promise<LeadMatch[]> {
  const email = query.email?.trim().toLowerCase() ?? '';
  const phone = digitsOnly(query.phone ?? '');
  const customers = await findDuplicateCustomers(tx, tenantId, { email, phone: query.phone });
  const checks = [
    email ? { field: 'email' as const, condition: eq(leads.email, email) } : undefined,
    phone.length >= MIN_MATCH_PHONE_DIGITS
      ? { field: 'phone' as const, condition: sql`${digitsOf(leads.phone)} = ${phone}` }
      : undefined,
  ].filter((check) => check !== undefined);
  const fromCustomers: LeadMatch[] = customers.map((customer) => ({
    kind: 'customer',
    id: customer.id,
    display_name: customer.display_name,
    email: customer.email,
    phone: customer.phone,
    matched_on: customer.matched_on.filter((field) => field !== 'national_id'),
  }));
  if (checks.length === 0) return fromCustomers;
  const rows = await tx
    .select({
      id: leads.id,
      display_name: leads.displayName,
      email: leads.email,
      phone: leads.phone,
      matched: sql<boolean[]>`array[${sql.join(
        checks.map((check) => check.condition),
        sql`, `,
      )}]`,
    })
    .from(leads)
    .where(
      and(
        eq(leads.tenantId, tenantId),
        query.exclude_id ? ne(leads.id, query.exclude_id) : undefined,
        or(...checks.map((check) => check.condition)),
      ),
    )
    .orderBy(asc(sql`lower(${leads.displayName})`), asc(leads.id))
    .limit(MAX_MATCHES);
  return [
    ...fromCustomers,
    ...rows.map(({ matched, ...row }) => ({
      kind: 'lead' as const,
      ...row,
      matched_on: checks.filter((_, index) => matched[index]).map((check) => check.field),
    })),
  ];
}
