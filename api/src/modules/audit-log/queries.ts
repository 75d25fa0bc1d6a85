import type { AdminAuditEntry, AdminAuditListQuery, AuditEntry, AuditListQuery } from '@coverdesk/contract';
import { and, asc, desc, eq, ilike, type SQL, sql } from 'drizzle-orm';
import type { Database, Executor, Transaction } from '../../db/client.js';
import { containing, countRows } from '../../db/query-helpers.js';
import { offsetOf } from '../../http/pagination.js';
import { auditLog } from '../audit/tables.js';
import { agencyUsers, tenants } from '../tenants/tables.js';

const columns = {
  id: auditLog.id,
  occurredAt: auditLog.occurredAt,
  user_id: auditLog.userId,
  actor_email: auditLog.actorEmail,
  action: auditLog.action,
  entity: auditLog.entity,
  entity_id: auditLog.entityId,
  changes: auditLog.changes,
  reason: auditLog.reason,
  ip_address: auditLog.ipAddress,
  user_agent: auditLog.userAgent,
  request_id: auditLog.requestId,
};

const toEntry = <Row extends { occurredAt: Date }>({ occurredAt, ...row }: Row) => ({
  ...row,
  occurred_at: occurredAt.toISOString(),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The filters both logs share. Days are whole days in the session's time zone: the agency's own in
 * a tenant transaction, UTC for the platform.
 */
function matchingFilters(query: Omit<AuditListQuery, 'user' | 'page' | 'page_size'>): SQL | undefined {
  return and(
    query.action ? eq(auditLog.action, query.action) : undefined,
    query.entity ? eq(auditLog.entity, query.entity) : undefined,
    query.date_from ? sql`${auditLog.occurredAt} >= ${query.date_from}::date` : undefined,
    query.date_to ? sql`${auditLog.occurredAt} < ${query.date_to}::date + 1` : undefined,
  );
}

/** Newest first; the id (time-ordered) settles rows of the same moment. */
const newestFirst = [desc(auditLog.occurredAt), desc(auditLog.id)];

/** One agency's log, inside its tenant transaction (row-level security keeps every other agency out). */
export async function listAgencyAudit(
  tx: Transaction,
  tenantId: string,
  query: AuditListQuery,
): Promise<{ count: number; results: AuditEntry[] }> {
  const where = and(
    eq(auditLog.tenantId, tenantId),
    matchingFilters(query),
    query.user ? eq(auditLog.userId, query.user) : undefined,
  );
  const [total] = await tx.select({ count: countRows() }).from(auditLog).where(where);
  // Where someone outside the agency acted on it (platform staff), the owner reads what was done, by
  // whom and why, but not the address and browser it was done from.
  const ownPeopleOnly = (value: typeof auditLog.ipAddress | typeof auditLog.userAgent) =>
    sql<string | null>`case when ${agencyUsers.id} is not null then ${value} end`;
  const rows = await tx
    .select({
      ...columns,
      ip_address: ownPeopleOnly(auditLog.ipAddress),
      user_agent: ownPeopleOnly(auditLog.userAgent),
    })
    .from(auditLog)
    .leftJoin(agencyUsers, eq(agencyUsers.id, auditLog.userId))
    .where(where)
    .orderBy(...newestFirst)
    .limit(query.page_size)
    .offset(offsetOf(query));
  return { count: total?.count ?? 0, results: rows.map(toEntry) };
}

/** The agency's users, for the owner's filter by who acted. */
export async function listAgencyUsers(tx: Transaction) {
  const rows = await tx
    .select({
      id: agencyUsers.id,
      email: agencyUsers.email,
      firstName: agencyUsers.firstName,
      lastName: agencyUsers.lastName,
    })
    .from(agencyUsers)
    .orderBy(asc(agencyUsers.email));
  return rows.map(({ id, email, firstName, lastName }) => ({
    id,
    email,
    name: `${firstName} ${lastName}`.trim() || email,
  }));
}

/** A user by id, or anyone whose email (as they acted with it) contains the text. */
const matchingUser = (user: string) =>
  UUID.test(user) ? eq(auditLog.userId, user) : ilike(auditLog.actorEmail, containing(user));

/** The whole platform's log, with each row's agency named; `db` reads across agencies. */
export async function listPlatformAudit(
  db: Executor,
  query: AdminAuditListQuery,
): Promise<{ count: number; results: AdminAuditEntry[] }> {
  const where = and(
    matchingFilters(query),
    query.tenant ? eq(auditLog.tenantId, query.tenant) : undefined,
    query.user ? matchingUser(query.user) : undefined,
  );
  const [total] = await db.select({ count: countRows() }).from(auditLog).where(where);
  const rows = await db
    .select({ ...columns, tenant_id: auditLog.tenantId, tenant_name: tenants.name })
    .from(auditLog)
    .leftJoin(tenants, eq(tenants.id, auditLog.tenantId))
    .where(where)
    .orderBy(...newestFirst)
    .limit(query.page_size)
    .offset(offsetOf(query));
  return { count: total?.count ?? 0, results: rows.map(toEntry) };
}

const AGENCY_CHOICES = 20;

/** Agencies by name, for the admin's filter by agency: the first few that match. */
export async function findAgencies(db: Database, search: string | undefined) {
  return db
    .select({ id: tenants.id, name: tenants.name })
    .from(tenants)
    .where(search ? ilike(tenants.name, containing(search)) : undefined)
    .orderBy(asc(tenants.name), asc(tenants.id))
    .limit(AGENCY_CHOICES);
}
