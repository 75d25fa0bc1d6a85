import type {
  AdminActivity,
  AdminTenantRow,
  AdminUser,
  adminTenantListQuery,
  UsageMetric,
} from '@coverdesk/contract';
import { USAGE_METRICS } from '@coverdesk/contract';
import { and, desc, eq, exists, ilike, not, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database, Executor, Transaction } from '../../db/client.js';
import { containing, countRows, literalLimit, orderBy } from '../../db/query-helpers.js';
import { offsetOf } from '../../http/pagination.js';
import { users } from '../accounts/tables.js';
import { auditLog } from '../audit/tables.js';
import { plans, subscriptions } from '../billing/tables.js';
import { customers } from '../customers/tables.js';
import { documents } from '../documents/tables.js';
import { leads } from '../leads/tables.js';
import { policies, policyBookTotals } from '../policies/tables.js';
import { agencyUsers, tenants } from '../tenants/tables.js';

type ListQuery = z.output<typeof adminTenantListQuery>;

/**
 * The subscription's status as of now, as `statusAt` in the billing module reads it: a trial or a
 * paid period that has run out is expired, whatever the row still says until the schedule settles it.
 */
const currentStatus = sql<AdminTenantRow['status']>`case
  when ${subscriptions.status} = 'trial' and coalesce(${subscriptions.trialEndsAt} <= now(), true) then 'expired'
  when ${subscriptions.status} in ('active', 'past_due') and ${subscriptions.currentPeriodEnd} <= now() then 'expired'
  when ${subscriptions.status} = 'cancelled' and ${subscriptions.cancelAtPeriodEnd}
    and ${subscriptions.currentPeriodEnd} <= now() then 'expired'
  else ${subscriptions.status} end`;

const userCount = sql<number>`(select count(*)::int from ${users} where ${users.tenantId} = ${tenants.id})`;
/** From the kept book totals, as the figures screens count: a few rows per agency, not every policy. */
const policyCount = sql<number>`(select coalesce(sum(${policyBookTotals.policies}), 0)::int from ${policyBookTotals}
  where ${policyBookTotals.tenantId} = ${tenants.id})`;
const customerCount = sql<number>`(select count(*)::int from ${customers} where ${customers.tenantId} = ${tenants.id})`;
const ownerEmail = sql<string | null>`(select ${users.email} from ${users}
  where ${users.tenantId} = ${tenants.id} and ${users.role} = 'owner' order by ${users.dateJoined} limit 1)`;
/** The latest sign-in of any of its people, or the latest line of its audit log. */
const lastActivity = sql<Date | null>`greatest(
  (select max(${users.lastLogin}) from ${users} where ${users.tenantId} = ${tenants.id}),
  (select max(${auditLog.occurredAt}) from ${auditLog} where ${auditLog.tenantId} = ${tenants.id}))`;

/**
 * The agencies the portal counts: all but the demo agency, whose records its visitors make up, unless
 * the demo is asked for. The agencies list filters with it and the dashboard counts with it, so the
 * dashboard's figure and the list it stands for agree.
 */
export const listedAgencies = ({ includeDemo }: { includeDemo: boolean }): SQL =>
  includeDemo ? sql`true` : not(tenants.isDemo);

function matching(query: ListQuery): SQL | undefined {
  const search = query.search
    ? or(
        ilike(tenants.name, containing(query.search)),
        exists(
          sql`(select 1 from ${users} where ${users.tenantId} = ${tenants.id}
            and ${users.email} ilike ${containing(query.search)})`,
        ),
      )
    : undefined;
  return and(
    listedAgencies({ includeDemo: query.include_demo }),
    search,
    query.plan ? eq(plans.name, query.plan) : undefined,
    query.status ? eq(currentStatus, query.status) : undefined,
  );
}

/**
 * Every agency on the platform, a page at a time; `db` reads across agencies (`readAcrossAgencies`).
 */
export async function listTenants(db: Executor, query: ListQuery) {
  const where = matching(query);
  const [total] = await db
    .select({ count: countRows() })
    .from(tenants)
    .leftJoin(subscriptions, eq(subscriptions.tenantId, tenants.id))
    .leftJoin(plans, eq(plans.id, subscriptions.planId))
    .where(where);
  const rows = await db
    .select({
      id: tenants.id,
      name: tenants.name,
      createdAt: tenants.createdAt,
      ownerEmail,
      plan: plans.name,
      planName: plans.displayName,
      status: currentStatus,
      trialEndsAt: subscriptions.trialEndsAt,
      currentPeriodEnd: subscriptions.currentPeriodEnd,
      userCount,
      policyCount,
      customerCount,
      lastActivity,
    })
    .from(tenants)
    .leftJoin(subscriptions, eq(subscriptions.tenantId, tenants.id))
    .leftJoin(plans, eq(plans.id, subscriptions.planId))
    .where(where)
    .orderBy(
      ...orderBy(
        query.ordering,
        {
          name: sql`lower(${tenants.name})`,
          created_at: tenants.createdAt,
          users: userCount,
          policies: policyCount,
        },
        tenants.id,
      ),
    )
    .limit(literalLimit(query.page_size))
    .offset(offsetOf(query));
  const results: AdminTenantRow[] = rows.map((row) => ({
    id: row.id,
    name: row.name,
    owner_email: row.ownerEmail,
    plan: row.plan,
    plan_name: row.planName,
    status: row.status,
    trial_ends_at: row.trialEndsAt?.toISOString() ?? null,
    current_period_end: row.currentPeriodEnd?.toISOString() ?? null,
    user_count: row.userCount,
    policy_count: row.policyCount,
    customer_count: row.customerCount,
    created_at: row.createdAt.toISOString(),
    last_activity_at: toIso(row.lastActivity),
  }));
  return { count: total?.count ?? 0, results };
}

/** A moment from a raw SQL expression, which node-postgres may hand back as a Date or as text. */
const toIso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export async function findTenant(executor: Executor, tenantId: string) {
  const [tenant] = await executor.select().from(tenants).where(eq(tenants.id, tenantId));
  return tenant;
}

/** The columns of a person as the admin sees them, with their agency's name. */
export const adminUserColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  tenantId: users.tenantId,
  agencyName: tenants.name,
  isAdmin: users.isAdmin,
  role: users.role,
  isDemoUser: users.isDemoUser,
  disabledAt: users.disabledAt,
  dateJoined: users.dateJoined,
  lastLogin: users.lastLogin,
  mfaEnabledAt: users.mfaEnabledAt,
};

export const selectAdminUsers = (executor: Executor) =>
  executor.select(adminUserColumns).from(users).innerJoin(tenants, eq(tenants.id, users.tenantId));

type AdminUserRow = Awaited<ReturnType<typeof selectAdminUsers>>[number];

export function toAdminUser(row: AdminUserRow): AdminUser {
  return {
    id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    tenant_id: row.tenantId,
    agency_name: row.agencyName,
    is_admin: row.isAdmin,
    is_owner: row.role === 'owner',
    role: row.role,
    is_demo_user: row.isDemoUser,
    disabled_at: row.disabledAt?.toISOString() ?? null,
    date_joined: row.dateJoined.toISOString(),
    last_login: row.lastLogin?.toISOString() ?? null,
    mfa_enabled: row.mfaEnabledAt !== null,
  };
}

/** The agency's people, its owner first. */
export async function listTenantUsers(db: Database, tenantId: string): Promise<AdminUser[]> {
  const rows = await selectAdminUsers(db)
    .where(eq(users.tenantId, tenantId))
    .orderBy(sql`${users.role} = 'owner' desc`, users.dateJoined);
  return rows.map(toAdminUser);
}

/** The agency's latest audit log lines. `tx` must be scoped to the tenant. */
export async function recentActivity(
  tx: Transaction,
  tenantId: string,
  limit = 20,
): Promise<AdminActivity[]> {
  const rows = await tx
    .select()
    .from(auditLog)
    .where(eq(auditLog.tenantId, tenantId))
    .orderBy(desc(auditLog.occurredAt), desc(auditLog.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    occurred_at: row.occurredAt.toISOString(),
    action: row.action,
    entity: row.entity,
    entity_id: row.entityId,
    actor_email: row.actorEmail,
    reason: row.reason,
  }));
}

const CREATED_AT: Record<UsageMetric, SQL> = {
  policies: sql`${policies.createdAt}`,
  customers: sql`${customers.createdAt}`,
  leads: sql`${leads.createdAt}`,
  users: sql`${agencyUsers.dateJoined}`,
  storage_mb: sql`${documents.createdAt}`,
};
const TABLES = { policies, customers, leads, users: agencyUsers, storage_mb: documents } as const;
/** What a month added: rows, or the megabytes of the documents uploaded (rounded up). */
const ADDED: Record<UsageMetric, SQL> = {
  policies: sql`count(*)::int`,
  customers: sql`count(*)::int`,
  leads: sql`count(*)::int`,
  users: sql`count(*)::int`,
  storage_mb: sql`ceil(coalesce(sum(${documents.size}), 0) / 1048576.0)::int`,
};

/** The first moments of the last twelve months, oldest first, in the agency's time zone. */
const MONTHS = sql`generate_series(date_trunc('month', now()) - interval '11 months', date_trunc('month', now()), interval '1 month')`;

/**
 * How many of each limited resource the agency added in each of the last twelve months. One index
 * range read per resource (tenant, created). `tx` must be scoped to the tenant.
 */
export async function monthlyAdditions(
  tx: Transaction,
  tenantId: string,
): Promise<Record<UsageMetric, { month: string; added: number }[]>> {
  const additions = {} as Record<UsageMetric, { month: string; added: number }[]>;
  for (const metric of USAGE_METRICS) {
    const table = TABLES[metric];
    const { rows } = await tx.execute<{ month: string; added: number }>(sql`
        select to_char(month, 'YYYY-MM') as month, (
          select ${ADDED[metric]} from ${table}
          where ${table.tenantId} = ${tenantId}
            and ${CREATED_AT[metric]} >= month and ${CREATED_AT[metric]} < month + interval '1 month'
        ) as added
        from ${MONTHS} as month order by month`);
    additions[metric] = rows;
  }
  return additions;
}
