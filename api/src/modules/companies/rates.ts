import type { CompanyPolicyType } from '@coverdesk/contract';
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { one } from '../../db/query-helpers.js';
import { policyTypes } from '../policy-types/tables.js';
import { companies, companyPolicyTypes } from './tables.js';

/** One type an insurer sells and the commission it pays, as written. */
export interface RateInput {
  policy_type_id: string;
  custom_name: string;
  commission_percentage: string;
}

/** The types each of these insurers sells, by insurer id, in type-name order. */
export async function listRates(
  tx: Transaction,
  tenantId: string,
  companyIds: string[],
): Promise<Map<string, CompanyPolicyType[]>> {
  const byCompany = new Map<string, CompanyPolicyType[]>(companyIds.map((id) => [id, []]));
  if (companyIds.length === 0) return byCompany;
  const rows = await tx
    .select({
      id: companyPolicyTypes.id,
      company_id: companyPolicyTypes.companyId,
      policy_type_id: companyPolicyTypes.policyTypeId,
      name: policyTypes.name,
      category: policyTypes.category,
      custom_name: companyPolicyTypes.customName,
      commission_percentage: companyPolicyTypes.commissionPercentage,
      is_active: policyTypes.isActive,
    })
    .from(companyPolicyTypes)
    .innerJoin(policyTypes, eq(policyTypes.id, companyPolicyTypes.policyTypeId))
    .where(and(eq(companyPolicyTypes.tenantId, tenantId), inArray(companyPolicyTypes.companyId, companyIds)))
    .orderBy(asc(sql`lower(${policyTypes.name})`));
  for (const row of rows) byCompany.get(row.company_id)?.push(row);
  return byCompany;
}

/** Adds or updates the rates an insurer pays on these types; answers the link ids in the same order. */
export async function upsertRates(
  tx: Transaction,
  tenantId: string,
  companyId: string,
  rates: RateInput[],
): Promise<string[]> {
  if (rates.length === 0) return [];
  const rows = await tx
    .insert(companyPolicyTypes)
    .values(
      rates.map((rate) => ({
        tenantId,
        companyId,
        policyTypeId: rate.policy_type_id,
        customName: rate.custom_name,
        commissionPercentage: rate.commission_percentage,
      })),
    )
    .onConflictDoUpdate({
      target: [companyPolicyTypes.companyId, companyPolicyTypes.policyTypeId],
      set: {
        customName: sql`excluded.custom_name`,
        commissionPercentage: sql`excluded.commission_percentage`,
      },
    })
    .returning({ id: companyPolicyTypes.id, policyTypeId: companyPolicyTypes.policyTypeId });
  const idByType = new Map(rows.map((row) => [row.policyTypeId, row.id]));
  return rates.map((rate) => idByType.get(rate.policy_type_id) ?? '');
}

/**
 * The spec's link call: the insurer sells this type, with what the call names changed and the rest
 * kept (a new link starts unnamed at 0%). Answers the link's id.
 */
export async function linkRate(
  tx: Transaction,
  tenantId: string,
  companyId: string,
  link: Partial<RateInput> & Pick<RateInput, 'policy_type_id'>,
): Promise<string> {
  const rows = await tx
    .insert(companyPolicyTypes)
    .values({
      tenantId,
      companyId,
      policyTypeId: link.policy_type_id,
      customName: link.custom_name ?? '',
      commissionPercentage: link.commission_percentage ?? '0',
    })
    .onConflictDoUpdate({
      target: [companyPolicyTypes.companyId, companyPolicyTypes.policyTypeId],
      set: {
        customName: link.custom_name ?? sql`${companyPolicyTypes.customName}`,
        commissionPercentage: link.commission_percentage ?? sql`${companyPolicyTypes.commissionPercentage}`,
      },
    })
    .returning({ id: companyPolicyTypes.id });
  return one(rows).id;
}

/** Makes an insurer's list of types exactly `rates`: new ones added, changed ones updated, others removed. */
export async function replaceRates(tx: Transaction, tenantId: string, companyId: string, rates: RateInput[]) {
  const kept = rates.map((rate) => rate.policy_type_id);
  await tx
    .delete(companyPolicyTypes)
    .where(
      and(
        eq(companyPolicyTypes.tenantId, tenantId),
        eq(companyPolicyTypes.companyId, companyId),
        kept.length > 0 ? notInArray(companyPolicyTypes.policyTypeId, kept) : undefined,
      ),
    );
  await upsertRates(tx, tenantId, companyId, rates);
}

/** The ids among `ids` that are not policy types of this agency. */
export async function unknownPolicyTypeIds(
  tx: Transaction,
  tenantId: string,
  ids: string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await tx
    .select({ id: policyTypes.id })
    .from(policyTypes)
    .where(and(eq(policyTypes.tenantId, tenantId), inArray(policyTypes.id, ids)));
  const known = new Set(found.map((row) => row.id));
  return ids.filter((id) => !known.has(id));
}

/** The insurers that sell a policy type, by name: what keeps the type from being deleted. */
export async function sellersOf(tx: Transaction, tenantId: string, policyTypeId: string) {
  return tx
    .select({ id: companies.id, name: companies.name })
    .from(companyPolicyTypes)
    .innerJoin(companies, eq(companies.id, companyPolicyTypes.companyId))
    .where(and(eq(companyPolicyTypes.tenantId, tenantId), eq(companyPolicyTypes.policyTypeId, policyTypeId)))
    .orderBy(asc(sql`lower(${companies.name})`));
}
