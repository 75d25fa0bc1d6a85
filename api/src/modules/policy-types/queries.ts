import type { PolicyType, PolicyTypeInUse, policyTypeListQuery } from '@coverdesk/contract';
import { and, eq, ilike, or, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { containing, countRows, orderBy } from '../../db/query-helpers.js';
import { fieldError, notFound } from '../../http/errors.js';
import { inUseRegistry } from '../../http/in-use.js';
import { offsetOf } from '../../http/pagination.js';
import { policyTypes } from './tables.js';

type ListQuery = z.output<typeof policyTypeListQuery>;

export const POLICY_TYPE_NOT_FOUND = 'Policy type not found.';
const NAME_TAKEN = 'A policy type with this name already exists.';

export interface PolicyTypeValues {
  name: string;
  category: PolicyType['category'];
  description: string;
  is_active: boolean;
}

// Written out in full: drizzle leaves columns unqualified in a one-table select, where a bare "id"
// inside the subquery would mean the link's own id.
const companiesCount = sql<number>`(
  select count(*)::int from company_policy_types link where link.policy_type_id = policy_types.id
)`;

const columns = {
  id: policyTypes.id,
  name: policyTypes.name,
  category: policyTypes.category,
  description: policyTypes.description,
  is_active: policyTypes.isActive,
  companies_count: companiesCount,
  createdAt: policyTypes.createdAt,
  updatedAt: policyTypes.updatedAt,
};

type Row = { createdAt: Date; updatedAt: Date } & Omit<PolicyType, 'created_at' | 'updated_at'>;

const toPolicyType = ({ createdAt, updatedAt, ...row }: Row): PolicyType => ({
  ...row,
  created_at: createdAt.toISOString(),
  updated_at: updatedAt.toISOString(),
});

export async function listPolicyTypes(tx: Transaction, tenantId: string, query: ListQuery) {
  const where = and(
    eq(policyTypes.tenantId, tenantId),
    query.search
      ? or(
          ilike(policyTypes.name, containing(query.search)),
          ilike(policyTypes.description, containing(query.search)),
        )
      : undefined,
    query.category ? eq(policyTypes.category, query.category) : undefined,
    query.is_active === undefined ? undefined : eq(policyTypes.isActive, query.is_active),
  );
  const [total] = await tx.select({ count: countRows() }).from(policyTypes).where(where);
  const rows = await tx
    .select(columns)
    .from(policyTypes)
    .where(where)
    .orderBy(
      ...orderBy(
        query.ordering,
        {
          name: sql`lower(${policyTypes.name})`,
          category: policyTypes.category,
          created_at: policyTypes.createdAt,
        },
        policyTypes.id,
      ),
    )
    .limit(query.page_size)
    .offset(offsetOf(query));
  return { count: total?.count ?? 0, results: rows.map(toPolicyType) };
}

export async function findPolicyType(tx: Transaction, tenantId: string, id: string) {
  const [row] = await tx
    .select(columns)
    .from(policyTypes)
    .where(and(eq(policyTypes.tenantId, tenantId), eq(policyTypes.id, id)));
  return row && toPolicyType(row);
}

/** Adds the type; answers its id, which an import gives when it planned one. */
export async function createPolicyType(
  tx: Transaction,
  tenantId: string,
  values: PolicyTypeValues,
  id: string = uuidv7(),
) {
  await tx.insert(policyTypes).values({
    id,
    tenantId,
    name: values.name,
    category: values.category,
    description: values.description,
    isActive: values.is_active,
  });
  return id;
}

/** False when the agency has no such type. */
export async function updatePolicyType(
  tx: Transaction,
  tenantId: string,
  id: string,
  values: PolicyTypeValues,
) {
  const changed = await tx
    .update(policyTypes)
    .set({
      name: values.name,
      category: values.category,
      description: values.description,
      isActive: values.is_active,
      updatedAt: sql`now()`,
    })
    .where(and(eq(policyTypes.tenantId, tenantId), eq(policyTypes.id, id)))
    .returning({ id: policyTypes.id });
  return changed.length > 0;
}

/**
 * What still points at a type: the insurers that sell it and the policies of it, each added by its
 * module (modules/wiring.ts). A type in use is deactivated rather than deleted, so history keeps its
 * name.
 */
export const usesOfPolicyType = inUseRegistry<Pick<PolicyTypeInUse, 'companies' | 'policies_count'>>({
  companies: [],
  policies_count: 0,
});

export async function requirePolicyType(tx: Transaction, tenantId: string, id: string) {
  const found = await findPolicyType(tx, tenantId, id);
  if (!found) throw notFound(POLICY_TYPE_NOT_FOUND);
  return found;
}

/** A duplicate name is the broker's mistake to fix, not a server error. */
export const nameTaken = (error: unknown): never => {
  if (isUniqueViolation(error, 'policy_types_tenant_name_key')) throw fieldError('name', NAME_TAKEN);
  throw error;
};

export async function deletePolicyType(tx: Transaction, tenantId: string, id: string): Promise<boolean> {
  const deleted = await tx
    .delete(policyTypes)
    .where(and(eq(policyTypes.tenantId, tenantId), eq(policyTypes.id, id)))
    .returning({ id: policyTypes.id });
  return deleted.length > 0;
}

export async function hasPolicyTypes(tx: Transaction, tenantId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: policyTypes.id })
    .from(policyTypes)
    .where(eq(policyTypes.tenantId, tenantId))
    .limit(1);
  return row !== undefined;
}
