import type { Company, companyBody, companyListQuery } from '@coverdesk/contract';
import { and, eq, exists, ilike, or, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { Transaction } from '../../db/client.js';
import { containing, countRows, orderBy } from '../../db/query-helpers.js';
import { notFound } from '../../http/errors.js';
import { inUseRegistry } from '../../http/in-use.js';
import { offsetOf } from '../../http/pagination.js';
import { listRates, replaceRates, upsertRates } from './rates.js';
import { companies, companyPolicyTypes } from './tables.js';

type ListQuery = z.output<typeof companyListQuery>;

/** An insurer as the company form writes it, rates included. */
export type CompanyValues = z.output<typeof companyBody>;

const columns = {
  id: companies.id,
  name: companies.name,
  contact_person: companies.contactPerson,
  email: companies.email,
  phone: companies.phone,
  website: companies.website,
  address: companies.address,
  notes: companies.notes,
  commission_type: companies.commissionType,
  commission_payment_method: companies.commissionPaymentMethod,
  createdAt: companies.createdAt,
  updatedAt: companies.updatedAt,
};

type Row = { createdAt: Date; updatedAt: Date } & Omit<Company, 'policy_types' | 'created_at' | 'updated_at'>;

/** The rows with the types each insurer sells, fetched for all of them in one query. */
async function withRates(tx: Transaction, tenantId: string, rows: Row[]): Promise<Company[]> {
  const ids = rows.map((row) => row.id);
  const rates = await listRates(tx, tenantId, ids);
  return rows.map(({ createdAt, updatedAt, ...row }) => ({
    ...row,
    policy_types: rates.get(row.id) ?? [],
    created_at: createdAt.toISOString(),
    updated_at: updatedAt.toISOString(),
  }));
}

const sells = (tx: Transaction, policyTypeId: string) =>
  exists(
    tx
      .select({ one: sql`1` })
      .from(companyPolicyTypes)
      .where(
        and(
          eq(companyPolicyTypes.companyId, companies.id),
          eq(companyPolicyTypes.policyTypeId, policyTypeId),
        ),
      ),
  );

export async function listCompanies(tx: Transaction, tenantId: string, query: ListQuery) {
  const where = and(
    eq(companies.tenantId, tenantId),
    query.search
      ? or(
          ilike(companies.name, containing(query.search)),
          ilike(companies.contactPerson, containing(query.search)),
          ilike(companies.email, containing(query.search)),
        )
      : undefined,
    query.policy_type_id ? sells(tx, query.policy_type_id) : undefined,
    query.commission_payment_method
      ? eq(companies.commissionPaymentMethod, query.commission_payment_method)
      : undefined,
  );
  const [total] = await tx.select({ count: countRows() }).from(companies).where(where);
  const rows = await tx
    .select(columns)
    .from(companies)
    .where(where)
    .orderBy(
      ...orderBy(
        query.ordering,
        { name: sql`lower(${companies.name})`, created_at: companies.createdAt },
        companies.id,
      ),
    )
    .limit(query.page_size)
    .offset(offsetOf(query));
  return { count: total?.count ?? 0, results: await withRates(tx, tenantId, rows) };
}

export async function findCompany(tx: Transaction, tenantId: string, id: string) {
  const rows = await tx
    .select(columns)
    .from(companies)
    .where(and(eq(companies.tenantId, tenantId), eq(companies.id, id)));
  const [found] = await withRates(tx, tenantId, rows);
  return found;
}

/** Whether the agency has an insurer with this id. */
export async function companyExists(tx: Transaction, tenantId: string, id: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: companies.id })
    .from(companies)
    .where(and(eq(companies.tenantId, tenantId), eq(companies.id, id)));
  return row !== undefined;
}

export async function requireCompanyExists(tx: Transaction, tenantId: string, id: string): Promise<void> {
  if (!(await companyExists(tx, tenantId, id))) throw notFound('Company not found.');
}

/** What keeps an insurer from being deleted: its policies, counted by them (modules/wiring.ts). */
export const usesOfCompany = inUseRegistry({ policies: 0 });

const fieldsOf = (values: CompanyValues) => ({
  name: values.name,
  contactPerson: values.contact_person,
  email: values.email,
  phone: values.phone,
  website: values.website,
  address: values.address,
  notes: values.notes,
  commissionType: values.commission_type,
  commissionPaymentMethod: values.commission_payment_method,
});

/** Adds the insurer and the rates it pays; answers its id, which an import gives when it planned one. */
export async function createCompany(
  tx: Transaction,
  tenantId: string,
  values: CompanyValues,
  id: string = uuidv7(),
) {
  await tx.insert(companies).values({ id, tenantId, ...fieldsOf(values) });
  await upsertRates(tx, tenantId, id, values.policy_types);
  return id;
}

/** Replaces the insurer and its rates with `values`; false when the agency has no such insurer. */
export async function updateCompany(tx: Transaction, tenantId: string, id: string, values: CompanyValues) {
  const changed = await tx
    .update(companies)
    .set({ ...fieldsOf(values), updatedAt: sql`now()` })
    .where(and(eq(companies.tenantId, tenantId), eq(companies.id, id)))
    .returning({ id: companies.id });
  if (changed.length === 0) return false;
  await replaceRates(tx, tenantId, id, values.policy_types);
  return true;
}

/** The policies an insurer underwrote, which keep it from being deleted. */
/** Its rates go with it through the foreign key's cascade. */
export async function deleteCompany(tx: Transaction, tenantId: string, id: string): Promise<boolean> {
  const deleted = await tx
    .delete(companies)
    .where(and(eq(companies.tenantId, tenantId), eq(companies.id, id)))
    .returning({ id: companies.id });
  return deleted.length > 0;
}

export async function hasCompanies(tx: Transaction, tenantId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.tenantId, tenantId))
    .limit(1);
  return row !== undefined;
}
