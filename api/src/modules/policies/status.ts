import { POLICY_STATUSES, type PolicyStatus } from '@coverdesk/contract';
import { type Placeholder, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type POLICY_STANDINGS, policies, policyBookTotals, policyTypeTotals } from './tables.js';

// The one definition of a policy's status. Cancellation and renewal are facts recorded on the row
// and win (its standing); an open policy is pending, active or expired by today's date against its
// term. A renewal wins over a cancellation date: a renewal starting before its term's end ends that
// term by one (writes.ts), and the term still reads as renewed (policy_standing, migration 0078). Every status is a plain condition on the row's own columns, so the open-policy indexes can
// answer a status filter and a list reads only the policies that match.

type Standing = (typeof POLICY_STANDINGS)[number];

/** A status's condition for each status, and which active terms still wait for their renewal. */
export type StatusConditions = Record<PolicyStatus, SQL> & { awaitingRenewal: SQL };

function statusConditions(
  standing: Record<Standing, SQL>,
  start: SQLWrapper,
  end: SQLWrapper,
  today: SQLWrapper = sql`current_date`,
): StatusConditions {
  const covering = sql`${start} <= ${today} and ${end} >= ${today}`;
  return {
    cancelled: standing.cancelled,
    // A term renewed early covers to its end like any other: it is in force (active) until then, and
    // renewed once its term is over, so the dashboard counts it as the commission report does.
    renewed: sql`${standing.renewed} and not (${covering})`,
    pending: sql`${standing.open} and ${start} > ${today}`,
    active: sql`(${standing.open} or ${standing.renewed}) and ${covering}`,
    expired: sql`${standing.open} and ${end} < ${today}`,
    awaitingRenewal: sql`${standing.open} and ${covering}`,
  };
}

/** Neither cancelled nor renewed. The words match the open-policy indexes' own. */
export const isOpen = sql`${policies.cancelledAt} is null and ${policies.renewedToId} is null`;

/**
 * For policy rows: the term the renewal `renewalId` ended early, its cancellation date being the
 * renewal's start (writes.ts, renewPolicy).
 */
export const endedEarlyBy = (tenantId: string, renewalId: string) =>
  sql`${policies.tenantId} = ${tenantId} and ${policies.renewedToId} = ${renewalId}
    and ${policies.cancelledAt} = (select renewal.start_date from policies renewal
      where renewal.tenant_id = ${tenantId} and renewal.id = ${renewalId})`;

/** For policy rows, as they stand on `day`; reminders ask it of the day they are written for. */
export const statusOn = (day: SQLWrapper) =>
  statusConditions(
    {
      cancelled: sql`${policies.cancelledAt} is not null and ${policies.renewedToId} is null`,
      renewed: sql`${policies.renewedToId} is not null`,
      open: isOpen,
    },
    policies.startDate,
    policies.endDate,
    day,
  );

/** For policy rows, today. */
export const statusIs = statusOn(sql`current_date`);

/** For the groups of a table kept by a trigger that works out the same standing in SQL. */
const keptStatusIs = (table: { standing: AnyPgColumn; startDate: AnyPgColumn; endDate: AnyPgColumn }) =>
  // The standings are written as literals: a statement built once per shape holds no values of its own.
  statusConditions(
    {
      cancelled: sql`${table.standing} = 'cancelled'`,
      renewed: sql`${table.standing} = 'renewed'`,
      open: sql`${table.standing} = 'open'`,
    },
    table.startDate,
    table.endDate,
  );

/** For the groups of policy_book_totals. */
export const bookStatusIs = keptStatusIs(policyBookTotals);

/** For the groups of policy_type_totals. */
export const typeTotalsStatusIs = keptStatusIs(policyTypeTotals);

/** The conditions are exclusive and cover every policy, so they read as one value. */
export const policyStatus = sql<PolicyStatus>`case ${sql.join(
  POLICY_STATUSES.map((status) => sql`when ${statusIs[status]} then ${sql.raw(`'${status}'`)}`),
  sql` `,
)} end`;

/** Active, not renewed yet, and ending within `days` from today: a renewal still to agree. */
export const expiringWithin = (
  days: number | Placeholder,
  conditions: StatusConditions = statusIs,
  end: SQLWrapper = policies.endDate,
) => sql`${conditions.awaitingRenewal} and ${end} <= current_date + ${days}::int`;
