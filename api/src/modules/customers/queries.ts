import type {
  Customer,
  CustomerDuplicate,
  CustomerValues,
  customerDuplicateQuery,
  customerListQuery,
} from '@coverdesk/contract';
import {
  CONTACT_CHANNEL_LABELS,
  CUSTOMER_STATUS_LABELS,
  CUSTOMER_TYPE_LABELS,
  DUPLICATE_FIELDS,
} from '@coverdesk/contract';
import { type AnyColumn, and, arrayContains, asc, eq, ilike, like, ne, or, type SQL, sql } from 'drizzle-orm';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { Transaction } from '../../db/client.js';
import { exportRows } from '../../db/cursor.js';
import { containing, countRows, orderBy } from '../../db/query-helpers.js';
import { inUseRegistry } from '../../http/in-use.js';
import { offsetOf } from '../../http/pagination.js';
import { agencyDay, type FileRow, fileLayout } from '../../http/table-file.js';
import { assigneeName } from '../team/assignees.js';
import { customers } from './tables.js';

type ListQuery = z.output<typeof customerListQuery>;
type DuplicateQuery = z.output<typeof customerDuplicateQuery>;
type Filters = Omit<ListQuery, 'page' | 'page_size'>;

const columns = {
  id: customers.id,
  customer_type: customers.customerType,
  first_name: customers.firstName,
  last_name: customers.lastName,
  business_name: customers.businessName,
  display_name: customers.displayName,
  email: customers.email,
  phone: customers.phone,
  date_of_birth: customers.dateOfBirth,
  national_id: customers.nationalId,
  address_line: customers.addressLine,
  city: customers.city,
  postal_code: customers.postalCode,
  country: customers.country,
  preferred_contact: customers.preferredContact,
  notes: customers.notes,
  tags: customers.tags,
  status: customers.status,
  assigned_to: customers.assignedTo,
  assigned_to_name: assigneeName(customers.assignedTo),
  createdAt: customers.createdAt,
  updatedAt: customers.updatedAt,
};

type Row = { createdAt: Date; updatedAt: Date } & Omit<Customer, 'created_at' | 'updated_at'>;

const toCustomer = ({ createdAt, updatedAt, ...row }: Row): Customer => ({
  ...row,
  created_at: createdAt.toISOString(),
  updated_at: updatedAt.toISOString(),
});

const toColumns = (values: CustomerValues) => ({
  customerType: values.customer_type,
  firstName: values.first_name,
  lastName: values.last_name,
  businessName: values.business_name,
  email: values.email,
  phone: values.phone,
  dateOfBirth: values.date_of_birth,
  nationalId: values.national_id,
  addressLine: values.address_line,
  city: values.city,
  postalCode: values.postal_code,
  country: values.country,
  preferredContact: values.preferred_contact,
  notes: values.notes,
  tags: values.tags,
  status: values.status,
  // Left out, the assignee stays as it is.
  ...(values.assigned_to === undefined ? {} : { assignedTo: values.assigned_to }),
});

/** Phone numbers are typed with spaces, dashes and brackets in every style; compare the digits. */
/** What keeps a customer from being deleted: their policies, counted by them (modules/wiring.ts). */
export const usesOfCustomer = inUseRegistry({ policies: 0 });

export const digitsOnly = (text: string) => text.replace(/\D/g, '');
export const digitsOf = (column: AnyColumn) => sql`regexp_replace(${column}, '[^0-9]+', '', 'g')`;

/** National ids are written with and without separators, in either case. */
const normalizedNationalId = (text: string) => text.replace(/[\s-]+/g, '').toUpperCase();
const normalizedNationalIdOf = (column: AnyColumn) =>
  sql`upper(regexp_replace(${column}, '[[:space:]-]+', '', 'g'))`;

/** Enough digits that a phone search by digits is not a match on almost everyone. */
const MIN_SEARCH_DIGITS = 3;

function matchesSearch(term: string): SQL | undefined {
  const pattern = containing(term);
  const digits = digitsOnly(term);
  return or(
    ilike(customers.displayName, pattern),
    ilike(customers.firstName, pattern),
    ilike(customers.lastName, pattern),
    ilike(customers.businessName, pattern),
    ilike(customers.email, pattern),
    ilike(customers.phone, pattern),
    ilike(customers.nationalId, pattern),
    digits.length >= MIN_SEARCH_DIGITS ? like(digitsOf(customers.phone), containing(digits)) : undefined,
  );
}

/** The list's search and filters, which its export shares. */
function matching(tenantId: string, query: Filters) {
  return and(
    eq(customers.tenantId, tenantId),
    query.search ? matchesSearch(query.search) : undefined,
    query.status ? eq(customers.status, query.status) : undefined,
    query.customer_type ? eq(customers.customerType, query.customer_type) : undefined,
    query.tag ? arrayContains(customers.tags, [query.tag]) : undefined,
    query.assigned_to ? eq(customers.assignedTo, query.assigned_to) : undefined,
  );
}

const ordered = (ordering: Filters['ordering']) =>
  orderBy(
    ordering,
    {
      name: sql`lower(${customers.displayName})`,
      created_at: customers.createdAt,
      city: customers.city,
    },
    customers.id,
  );

export async function listCustomers(tx: Transaction, tenantId: string, query: ListQuery) {
  const where = matching(tenantId, query);
  const [total] = await tx.select({ count: countRows() }).from(customers).where(where);
  const rows = await tx
    .select(columns)
    .from(customers)
    .where(where)
    .orderBy(...ordered(query.ordering))
    .limit(query.page_size)
    .offset(offsetOf(query));
  return { count: total?.count ?? 0, results: rows.map(toCustomer) };
}

/** A customer as a line of the exported list: what moving to another system needs. */
export const customerFile = fileLayout([
  { field: 'name', heading: 'Name', value: customers.displayName },
  { field: 'customer_type', heading: 'Type', labels: CUSTOMER_TYPE_LABELS, value: customers.customerType },
  { field: 'first_name', heading: 'First name', value: customers.firstName },
  { field: 'last_name', heading: 'Last name', value: customers.lastName },
  { field: 'business_name', heading: 'Business name', value: customers.businessName },
  { field: 'email', heading: 'Email', value: customers.email },
  { field: 'phone', heading: 'Phone', value: customers.phone },
  { field: 'date_of_birth', heading: 'Date of birth', kind: 'date', value: customers.dateOfBirth },
  { field: 'national_id', heading: 'National ID', value: customers.nationalId },
  { field: 'address_line', heading: 'Address', value: customers.addressLine },
  { field: 'city', heading: 'City', value: customers.city },
  { field: 'postal_code', heading: 'Postal code', value: customers.postalCode },
  { field: 'country', heading: 'Country', value: customers.country },
  {
    field: 'preferred_contact',
    heading: 'Preferred contact',
    labels: CONTACT_CHANNEL_LABELS,
    value: customers.preferredContact,
  },
  { field: 'tags', heading: 'Tags', value: sql`array_to_string(${customers.tags}, ', ')` },
  { field: 'status', heading: 'Status', labels: CUSTOMER_STATUS_LABELS, value: customers.status },
  { field: 'notes', heading: 'Notes', value: customers.notes },
  { field: 'created_at', heading: 'Added', kind: 'date', value: agencyDay(customers.createdAt) },
]);

/** Every customer the list's search and filters match, in its order, a batch at a time. */
export const exportCustomers = (tx: Transaction, tenantId: string, query: Filters) =>
  exportRows<FileRow>(
    tx,
    'customers_export',
    tx
      .select({ row: customerFile.row.as('row') })
      .from(customers)
      .where(matching(tenantId, query))
      .orderBy(...ordered(query.ordering)),
  );

/** With `lock`, holds the row until the transaction ends, so a read-modify-write loses no change. */
export async function findCustomer(tx: Transaction, tenantId: string, id: string, { lock = false } = {}) {
  const query = tx
    .select(columns)
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), eq(customers.id, id)))
    .$dynamic();
  const [row] = await (lock ? query.for('update') : query);
  return row && toCustomer(row);
}

export async function countCustomers(tx: Transaction, tenantId: string): Promise<number> {
  const [row] = await tx
    .select({ count: countRows() })
    .from(customers)
    .where(eq(customers.tenantId, tenantId));
  return row?.count ?? 0;
}

/** Rows per statement when adding many: column arrays, so any number fits in its parameters. */
const ROWS_PER_INSERT = 10_000;

/**
 * Adds customers with the ids given: one from a form, thousands from an import. A customer whose
 * values name no assignee goes to the member the transaction acts for (`app.user_id`: the importing
 * member, the one converting a lead), if any.
 */
export async function createCustomers(
  tx: Transaction,
  tenantId: string,
  rows: { id: string; values: CustomerValues }[],
) {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const batch = rows.slice(start, start + ROWS_PER_INSERT);
    const pick = <T>(of: (values: CustomerValues) => T) => sql.param(batch.map(({ values }) => of(values)));
    // Tags are arrays themselves, which unnest would flatten: they travel as JSON text.
    await tx.execute(sql`
      insert into customers (id, tenant_id, customer_type, first_name, last_name, business_name, email,
        phone, date_of_birth, national_id, address_line, city, postal_code, country, preferred_contact,
        notes, tags, status, assigned_to)
      select c.id, ${tenantId}::uuid, c.customer_type, c.first_name, c.last_name, c.business_name,
        c.email, c.phone, c.date_of_birth, c.national_id, c.address_line, c.city, c.postal_code,
        c.country, c.preferred_contact, c.notes,
        array(select jsonb_array_elements_text(c.tags)), c.status,
        coalesce(c.assigned_to, nullif(current_setting('app.user_id', true), '')::uuid)
      from unnest(${sql.param(batch.map(({ id }) => id))}::uuid[], ${pick((v) => v.customer_type)}::text[],
        ${pick((v) => v.first_name)}::text[], ${pick((v) => v.last_name)}::text[],
        ${pick((v) => v.business_name)}::text[], ${pick((v) => v.email)}::text[],
        ${pick((v) => v.phone)}::text[], ${pick((v) => v.date_of_birth)}::date[],
        ${pick((v) => v.national_id)}::text[], ${pick((v) => v.address_line)}::text[],
        ${pick((v) => v.city)}::text[], ${pick((v) => v.postal_code)}::text[],
        ${pick((v) => v.country)}::text[], ${pick((v) => v.preferred_contact)}::text[],
        ${pick((v) => v.notes)}::text[], ${pick((v) => JSON.stringify(v.tags))}::jsonb[],
        ${pick((v) => v.status)}::text[], ${pick((v) => v.assigned_to ?? null)}::uuid[])
        as c(id, customer_type, first_name, last_name, business_name, email, phone, date_of_birth,
          national_id, address_line, city, postal_code, country, preferred_contact, notes, tags, status,
          assigned_to)`);
  }
}

export async function createCustomer(tx: Transaction, tenantId: string, values: CustomerValues) {
  const id = uuidv7();
  await createCustomers(tx, tenantId, [{ id, values }]);
  return id;
}

/** False when the agency has no such customer. */
export async function updateCustomer(tx: Transaction, tenantId: string, id: string, values: CustomerValues) {
  const changed = await tx
    .update(customers)
    .set({ ...toColumns(values), updatedAt: sql`now()` })
    .where(and(eq(customers.tenantId, tenantId), eq(customers.id, id)))
    .returning({ id: customers.id });
  return changed.length > 0;
}

/** The customer's policies, which keep a customer from being deleted. */
export async function deleteCustomer(tx: Transaction, tenantId: string, id: string): Promise<boolean> {
  const deleted = await tx
    .delete(customers)
    .where(and(eq(customers.tenantId, tenantId), eq(customers.id, id)))
    .returning({ id: customers.id });
  return deleted.length > 0;
}

/** A phone shorter than this is an area code or a typo in progress, not someone's number. */
const MIN_DUPLICATE_PHONE_DIGITS = 6;

/**
 * What two customer records are compared on to call them the same person: the email, the phone's
 * digits and the national id, each normalised; "" where a value cannot identify anyone.
 */
export function duplicateKeys(values: { email?: string; phone?: string; national_id?: string }) {
  const phone = digitsOnly(values.phone ?? '');
  return {
    email: values.email?.toLowerCase() ?? '',
    phone: phone.length >= MIN_DUPLICATE_PHONE_DIGITS ? phone : '',
    national_id: normalizedNationalId(values.national_id ?? ''),
  };
}

/** Enough to warn and link to the existing record while the broker types. */
const MAX_DUPLICATES = 5;

/**
 * Existing customers that share an email, phone or national id with the one being entered, each with
 * the fields it matched on. Blank values match nothing.
 */
export async function findDuplicateCustomers(
  tx: Transaction,
  tenantId: string,
  query: DuplicateQuery,
): Promise<CustomerDuplicate[]> {
  const { email, phone, national_id: nationalId } = duplicateKeys(query);
  const conditions: Record<(typeof DUPLICATE_FIELDS)[number], SQL | undefined> = {
    // Emails are stored lowercased, so the index on (tenant, email) serves this.
    email: email ? eq(customers.email, email) : undefined,
    phone: phone ? sql`${digitsOf(customers.phone)} = ${phone}` : undefined,
    national_id: nationalId
      ? sql`${normalizedNationalIdOf(customers.nationalId)} = ${nationalId}`
      : undefined,
  };
  const checks = DUPLICATE_FIELDS.flatMap((field) => {
    const condition = conditions[field];
    return condition ? [{ field, condition }] : [];
  });
  if (checks.length === 0) return [];

  const rows = await tx
    .select({
      id: customers.id,
      display_name: customers.displayName,
      email: customers.email,
      phone: customers.phone,
      national_id: customers.nationalId,
      matched: sql<boolean[]>`array[${sql.join(
        checks.map((check) => check.condition),
        sql`, `,
      )}]`,
    })
    .from(customers)
    .where(
      and(
        eq(customers.tenantId, tenantId),
        query.exclude_id ? ne(customers.id, query.exclude_id) : undefined,
        or(...checks.map((check) => check.condition)),
      ),
    )
    .orderBy(asc(sql`lower(${customers.displayName})`), asc(customers.id))
    .limit(MAX_DUPLICATES);
  return rows.map(({ matched, ...row }) => ({
    ...row,
    matched_on: checks.filter((_, index) => matched[index]).map((check) => check.field),
  }));
}
