import {
  EXPIRY_WINDOWS,
  type ExpiringCounts,
  type ExpiringPolicy,
  type ExpiryWindow,
  type expiringExportQuery,
  type expiringListQuery,
  LAPSED_WITHIN_DAYS,
} from '@coverdesk/contract';
import { and, eq, ilike, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Transaction } from '../../db/client.js';
import { exportRows } from '../../db/cursor.js';
import { containing, countRows, jsonObject, one, orderBy } from '../../db/query-helpers.js';
import { offsetOf } from '../../http/pagination.js';
import { companies } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import { expiringWithin, policyStatus, statusIs } from '../policies/status.js';
import { policies } from '../policies/tables.js';
import { policyTypes } from '../policy-types/tables.js';

type ListQuery = z.output<typeof expiringListQuery>;
type ExportQuery = Omit<z.output<typeof expiringExportQuery>, 'format'>;
type Filters = Pick<ListQuery, 'search' | 'company_id' | 'assigned_to'>;

// The policies module's own status rules pick the policies, so this list counts what the policy
// list's `expiring_within_days` filter and the policy stats count, less the terms the agency has
// marked as not renewing.

/** Expired (neither renewed nor cancelled) within the last LAPSED_WITHIN_DAYS days. */
const lapsed = sql`${statusIs.expired} and ${policies.endDate} >= current_date - ${sql.raw(String(LAPSED_WITHIN_DAYS))}`;

/** Active and ending within the window, or lapsed lately when the broker asks for those too. */
const dueIn = (query: Pick<ListQuery, 'within_days' | 'include_lapsed'>) =>
  query.include_lapsed
    ? sql`((${expiringWithin(query.within_days)}) or (${lapsed}))`
    : expiringWithin(query.within_days);

/** The agency's terms not marked as not renewing, narrowed by the filters; `customers` joined. */
function matching(tenantId: string, filters: Filters, due: SQL) {
  const search = filters.search ? containing(filters.search) : undefined;
  return and(
    eq(policies.tenantId, tenantId),
    isNull(policies.notRenewingAt),
    due,
    filters.company_id ? eq(policies.companyId, filters.company_id) : undefined,
    filters.assigned_to ? eq(policies.assignedTo, filters.assigned_to) : undefined,
    search ? or(ilike(policies.policyNumber, search), ilike(customers.displayName, search)) : undefined,
  );
}

/** A row as the API sends it and the CSV writes it, written by the database. */
const row = jsonObject({
  id: policies.id,
  policy_number: policies.policyNumber,
  customer_id: policies.customerId,
  customer_name: customers.displayName,
  customer_email: customers.email,
  customer_phone: customers.phone,
  company_id: policies.companyId,
  company_name: companies.name,
  policy_type_name: policyTypes.name,
  total_premium: policies.totalPremium,
  end_date: policies.endDate,
  // Dates subtract to whole days; `current_date` is the agency's day (withTenant's time zone).
  days_left: sql`${policies.endDate} - current_date`,
  status: policyStatus,
});

/** The matching rows in the requested order, each as `{ row }`. */
function selectRows(tx: Transaction, tenantId: string, query: ExportQuery) {
  return (
    tx
      // Named, so that the export's cursor reads the same rows by name.
      .select({ row: sql<ExpiringPolicy>`${row}`.as('row') })
      .from(policies)
      .innerJoin(customers, eq(customers.id, policies.customerId))
      .innerJoin(companies, eq(companies.id, policies.companyId))
      .innerJoin(policyTypes, eq(policyTypes.id, policies.policyTypeId))
      .where(matching(tenantId, query, dueIn(query)))
      .orderBy(
        ...orderBy(
          query.ordering,
          { end_date: policies.endDate, total_premium: policies.totalPremium },
          policies.id,
        ),
      )
      .$dynamic()
  );
}

/** One page of the policies to renew, with how many match. */
export async function listExpiringPolicies(tx: Transaction, tenantId: string, query: ListQuery) {
  const [counted] = await tx
    .select({ count: countRows() })
    .from(policies)
    .innerJoin(customers, eq(customers.id, policies.customerId))
    .where(matching(tenantId, query, dueIn(query)));
  const rows = await selectRows(tx, tenantId, query).limit(query.page_size).offset(offsetOf(query));
  return { count: counted?.count ?? 0, results: rows.map((found) => found.row) };
}

/** How many policies each window holds and how many lapsed, counted in one pass. */
export async function countExpiringPolicies(
  tx: Transaction,
  tenantId: string,
  filters: Filters,
): Promise<ExpiringCounts> {
  const within = (days: ExpiryWindow) => sql<number>`(count(*) filter (where ${expiringWithin(days)}))::int`;
  const widest = Math.max(...EXPIRY_WINDOWS) as ExpiryWindow;
  const counts = await tx
    .select({
      within_30: within(30),
      within_60: within(60),
      within_90: within(90),
      lapsed: sql<number>`(count(*) filter (where ${lapsed}))::int`,
    })
    .from(policies)
    .innerJoin(customers, eq(customers.id, policies.customerId))
    .where(matching(tenantId, filters, dueIn({ within_days: widest, include_lapsed: true })));
  return one(counts);
}

/** Every matching row in order, read through a cursor in batches. One export per transaction. */
export const exportExpiringPolicies = (tx: Transaction, tenantId: string, query: ExportQuery) =>
  exportRows<ExpiringPolicy>(tx, 'expiring_export', selectRows(tx, tenantId, query));
