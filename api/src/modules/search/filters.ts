// The search's filters (dates, insurer, status, amounts) as the conditions each kind of record takes.
import type { SearchFilter } from '@coverdesk/contract';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { claims } from '../claims/tables.js';
import { companies } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import { leads } from '../leads/tables.js';
import { statusIs } from '../policies/status.js';
import { installments, policies } from '../policies/tables.js';
import type { Shape } from './queries.js';

/** The conditions a filter sets on one kind of record; null when the kind cannot meet them. */
type Conditions = SQL[] | null;

export const FILTER_FIELDS = ['date_from', 'date_to', 'company', 'amount_min', 'amount_max'] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

/** A filter as the statement takes it: each value set is a placeholder of the field's name. */
export type Filter = Partial<Record<FilterField, SQLWrapper>> & Pick<SearchFilter, 'status' | 'limit'>;

export const filterSlots = (shape: Pick<Shape, 'set' | 'status' | 'limit'>): Filter => ({
  ...Object.fromEntries(
    FILTER_FIELDS.filter((field) => shape.set[field]).map((field) => [field, sql.placeholder(field)]),
  ),
  status: shape.status,
  limit: shape.limit,
});

const between = (column: SQLWrapper, filter: Filter) => [
  ...(filter.date_from ? [sql`${column} >= ${filter.date_from}::date`] : []),
  ...(filter.date_to ? [sql`${column} <= ${filter.date_to}::date`] : []),
];

const amountWithin = (column: SQLWrapper, filter: Filter) => [
  ...(filter.amount_min ? [sql`${column} >= ${filter.amount_min}::numeric`] : []),
  ...(filter.amount_max ? [sql`${column} <= ${filter.amount_max}::numeric`] : []),
];

const hasAmountFilter = (filter: Filter) =>
  filter.amount_min !== undefined || filter.amount_max !== undefined;

/** The policy filters (insurer, status) on the `policies` row in scope. */
export const policyConditions = (filter: Filter): SQL[] => [
  ...(filter.company ? [sql`${policies.companyId} = ${filter.company}::uuid`] : []),
  ...(filter.status === 'all' ? [] : [statusIs[filter.status]]),
];

/** The agency's day a record was created on (the tenant transaction's time zone is the agency's). */
const createdOn = (column: SQLWrapper) => sql`(${column})::date`;

export function customerConditions(tenantId: SQLWrapper, filter: Filter): Conditions {
  if (hasAmountFilter(filter)) return null;
  const holding = policyConditions(filter);
  return [
    ...between(createdOn(customers.createdAt), filter),
    ...(holding.length === 0
      ? []
      : [
          sql`exists (select 1 from ${policies} where ${policies.tenantId} = ${tenantId}::uuid
            and ${policies.customerId} = ${customers.id} and ${sql.join(holding, sql` and `)})`,
        ]),
  ];
}

export const leadConditions = (filter: Filter): Conditions =>
  filter.company || filter.status !== 'all'
    ? null
    : [...between(createdOn(leads.createdAt), filter), ...amountWithin(leads.estimatedPremium, filter)];

export const companyConditions = (filter: Filter): Conditions =>
  filter.status !== 'all' || hasAmountFilter(filter)
    ? null
    : [
        ...between(createdOn(companies.createdAt), filter),
        ...(filter.company ? [sql`${companies.id} = ${filter.company}::uuid`] : []),
      ];

export const policyFilter = (filter: Filter): SQL[] => [
  ...between(policies.startDate, filter),
  ...amountWithin(policies.totalPremium, filter),
  ...policyConditions(filter),
];
export const paymentFilter = (filter: Filter): SQL[] => [
  ...between(installments.dueDate, filter),
  ...amountWithin(installments.amountDue, filter),
  ...policyConditions(filter),
];
export const claimFilter = (filter: Filter): SQL[] => [
  ...between(claims.reportedDate, filter),
  ...amountWithin(claims.amountClaimed, filter),
  ...policyConditions(filter),
];

export const and = (conditions: SQL[]) =>
  conditions.length === 0 ? sql`` : sql` and ${sql.join(conditions, sql` and `)}`;
