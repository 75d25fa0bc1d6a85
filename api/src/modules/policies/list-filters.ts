import type { policyListQuery } from '@coverdesk/contract';
import { and, eq, gte, ilike, lte, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { containing, countRows, orderBy } from '../../db/query-helpers.js';
import { statementBuilder as qb, setFilters } from '../../db/reusable-statement.js';
import { numberFound, numberSearch } from '../../db/search-columns.js';
import { customers } from '../customers/tables.js';
import { bookStatusIs, expiringWithin, type StatusConditions, statusIs } from './status.js';
import { policies, policyBookTotals } from './tables.js';

export type ListQuery = z.output<typeof policyListQuery>;
export type Filters = Omit<ListQuery, 'page' | 'page_size'>;

/** A policy's insurer, term and status: on the policy rows, or on the book totals' groups. */
interface Terms {
  companyId: AnyPgColumn;
  startDate: AnyPgColumn;
  endDate: AnyPgColumn;
  status: StatusConditions;
}
const policyTerms: Terms = { ...pick(policies), status: statusIs };
const bookTerms: Terms = { ...pick(policyBookTotals), status: bookStatusIs };

function pick(table: typeof policies | typeof policyBookTotals) {
  return { companyId: table.companyId, startDate: table.startDate, endDate: table.endDate };
}

/** The list's filters that are values, each passed to the statement through a placeholder of its name. */
const LIST_VALUES = [
  'search',
  'company_id',
  'policy_type_id',
  'customer_id',
  'assigned_to',
  'start_date_from',
  'start_date_to',
  'end_date_from',
  'end_date_to',
  'expiring_within_days',
] as const;
type ListValue = (typeof LIST_VALUES)[number];

/**
 * What writes the list's statement, and nothing else: the status, the sort, the page size, whether
 * rows are skipped, and which filters are set. It is the cached statement's key, and the statement
 * is built from it alone, so a cached statement always fits the request that finds it.
 */
export interface ListShape {
  status: ListQuery['status'];
  ordering: ListQuery['ordering'];
  page_size: number;
  skips: boolean;
  filters: Record<ListValue, boolean>;
}

/** What the list's filters and sort write, which the export shares: the shape without the page. */
export type FilterShape = Omit<ListShape, 'page_size' | 'skips'>;

const value = sql.placeholder;

/** The list filters that only ask about insurer, term and status. */
const termFilters = (shape: FilterShape, terms: Terms) => [
  shape.status ? terms.status[shape.status] : undefined,
  shape.filters.company_id ? eq(terms.companyId, value('company_id')) : undefined,
  shape.filters.start_date_from ? gte(terms.startDate, value('start_date_from')) : undefined,
  shape.filters.start_date_to ? lte(terms.startDate, value('start_date_to')) : undefined,
  shape.filters.end_date_from ? gte(terms.endDate, value('end_date_from')) : undefined,
  shape.filters.end_date_to ? lte(terms.endDate, value('end_date_to')) : undefined,
  shape.filters.expiring_within_days
    ? expiringWithin(value('expiring_within_days'), terms.status, terms.endDate)
    : undefined,
];

/**
 * How many policies match, as a subquery of the page's own statement. The book totals answer
 * unless the filters ask about something they do not group by (a member kept to their own book
 * reads their own share of them, migration 0080), so a large agency's page sums a few thousand
 * groups instead of counting every matching policy.
 */
export function matchingCount(shape: ListShape, where: SQL | undefined) {
  const { filters } = shape;
  if (filters.search || filters.policy_type_id || filters.customer_id || filters.assigned_to) {
    // The customer is joined only when the search needs the name.
    const counted = qb.select({ count: countRows() }).from(policies);
    return (
      filters.search ? counted.innerJoin(customers, eq(customers.id, policies.customerId)) : counted
    ).where(where);
  }
  return qb
    .select({ count: sql<number>`coalesce(sum(${policyBookTotals.policies}), 0)::int` })
    .from(policyBookTotals)
    .where(and(eq(policyBookTotals.tenantId, value('tenant_id')), ...termFilters(shape, bookTerms)));
}

/** The list's search and filters, which its export shares; reads `customers` when searching. */
export function matching(shape: FilterShape) {
  const { filters } = shape;
  return and(
    eq(policies.tenantId, value('tenant_id')),
    filters.search
      ? or(
          numberFound(policies.policyNumber, policies.numberKey, {
            within: value('number_within'),
            ending: value('number_ending'),
            part: value('number_part'),
          }),
          ilike(customers.displayName, value('search')),
        )
      : undefined,
    filters.policy_type_id ? eq(policies.policyTypeId, value('policy_type_id')) : undefined,
    filters.customer_id ? eq(policies.customerId, value('customer_id')) : undefined,
    filters.assigned_to ? eq(policies.assignedTo, value('assigned_to')) : undefined,
    ...termFilters(shape, policyTerms),
  );
}

/** The list's sort, which its export shares. */
export const ordered = (ordering: ListShape['ordering']) =>
  orderBy(
    ordering,
    {
      start_date: policies.startDate,
      end_date: policies.endDate,
      policy_number: sql`lower(${policies.policyNumber})`,
      total_premium: policies.totalPremium,
      created_at: policies.createdAt,
    },
    policies.id,
  );

/**
 * A search's patterns for the policy number, by the global search's rule (`numberFound`). A search
 * with no letter or digit matches no number, only names.
 */
function numberValues(search: string | undefined) {
  if (search === undefined) return {};
  const number = numberSearch(search);
  return number
    ? { number_within: number.within, number_ending: number.ending, number_part: number.part }
    : { number_within: '', number_ending: '', number_part: '[^\\s\\S]' };
}

/** The list's filters as a statement's shape and values: empty ones filter nothing. */
export function filtersOf(
  tenantId: string,
  query: Filters,
): { shape: FilterShape; values: Record<string, unknown> } {
  const { filters, set } = setFilters(query, LIST_VALUES);
  const values = {
    ...filters,
    search: filters.search === undefined ? undefined : containing(filters.search),
    ...numberValues(filters.search),
    tenant_id: tenantId,
  };
  return { shape: { status: query.status, ordering: query.ordering, filters: set }, values };
}
