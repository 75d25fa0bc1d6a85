// How each kind of record is ranked among the others and written out as a result.
import type { SearchResultType } from '@coverdesk/contract';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { isoMoment } from '../../db/query-helpers.js';
import { claims } from '../claims/tables.js';
import { companies } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import { leads } from '../leads/tables.js';
import { policyStatus } from '../policies/status.js';
import { installments, policies } from '../policies/tables.js';

/** The columns every kind answers, in the order of the merged result. */
interface Shown {
  title: SQL;
  subtitle: SQL;
  status: SQL;
  amount: SQL;
  phone: SQL;
  createdAt: SQLWrapper;
  url: SQL;
  /** What orders a kind's rows of equal rank, newest first; also the order of a search by filters alone. */
  recent: SQLWrapper;
}

const ICONS: Record<SearchResultType, string> = {
  customer: 'user',
  policy: 'file-text',
  payment: 'cash',
  company: 'building',
  lead: 'target',
  claim: 'alert-triangle',
};

/**
 * Among equally good matches, the record matched comes before what hangs on it: a customer, then
 * their policies and claims, then the instalments.
 */
export const KIND_ORDER: Record<SearchResultType, number> = {
  customer: 1,
  company: 2,
  lead: 3,
  policy: 4,
  claim: 5,
  payment: 6,
};

/**
 * A candidate as the ranking takes it: its kind, id and rank, and nothing to show yet, so only the
 * results that make the cut are ever written out.
 */
export function ranked(type: SearchResultType, id: SQLWrapper, recent: SQLWrapper, tier: SQL, score: SQL) {
  return sql`${sql.raw(`'${type}'`)} as type, ${id} as id, ${tier} as tier, ${score}::real as score,
    ${sql.raw(String(KIND_ORDER[type]))} as kind_order, (${recent})::timestamptz as recent`;
}

/**
 * The results of one kind among the ranked ones, written out as the answer shows them. The ids stay
 * uuids until here: under row-level security a join through a cast (not LEAKPROOF) could not use
 * the primary key, and read the whole book instead.
 */
function displayed(
  tenantId: SQLWrapper,
  type: SearchResultType,
  table:
    | typeof customers
    | typeof policies
    | typeof installments
    | typeof claims
    | typeof leads
    | typeof companies,
  joins: SQL,
  show: Shown,
) {
  return sql`select r.id::text as id, ${show.title} as title, ${show.subtitle} as subtitle, r.type,
    ${show.status} as status, ${show.amount} as amount, nullif(${show.phone}, '') as phone,
    ${isoMoment(show.createdAt)} as created_at, ${show.url} as url, ${sql.raw(`'${ICONS[type]}'`)} as icon,
    r.tier, r.score, r.kind_order, r.recent
    from ranked r
    join ${table} on ${table.tenantId} = ${tenantId}::uuid and ${table.id} = r.id
    ${joins}
    where r.type = ${sql.raw(`'${type}'`)}`;
}

const joinedWith = (separator: string, ...parts: SQL[]) =>
  sql`concat_ws(${sql.raw(`'${separator}'`)}, ${sql.join(
    parts.map((part) => sql`nullif(${part}, '')`),
    sql`, `,
  )})`;

export const customerShown: Shown = {
  title: sql`${customers.displayName}`,
  subtitle: joinedWith(' · ', sql`${customers.email}`, sql`${customers.phone}`, sql`${customers.city}`),
  status: sql`${customers.status}`,
  amount: sql`null::text`,
  phone: sql`${customers.phone}`,
  createdAt: customers.createdAt,
  url: sql`'/customers/' || ${customers.id}`,
  recent: customers.createdAt,
};

const termOf = sql`${policies.startDate}::text || ' – ' || ${policies.endDate}::text`;

export const policyShown: Shown = {
  title: sql`${policies.policyNumber}`,
  // What it insures too, so a policy found by "corolla" shows why.
  subtitle: joinedWith(
    ' · ',
    sql`${customers.displayName}`,
    sql`${companies.name}`,
    sql`${policies.insuredItem}`,
    termOf,
  ),
  status: policyStatus,
  amount: sql`${policies.totalPremium}::text`,
  phone: sql`${customers.phone}`,
  createdAt: policies.createdAt,
  url: sql`'/policies/' || ${policies.id}`,
  recent: sql`${policies.startDate}`,
};

export const paymentShown: Shown = {
  title: sql`'Instalment ' || ${installments.sequence} || ' of ' || ${policies.totalInstallments} || ' · ' || ${policies.policyNumber}`,
  subtitle: joinedWith(' · ', sql`${customers.displayName}`, sql`'Due ' || ${installments.dueDate}::text`),
  status: sql`${installments.status}`,
  amount: sql`${installments.amountDue}::text`,
  phone: sql`${customers.phone}`,
  createdAt: installments.createdAt,
  url: sql`'/payments/policy/' || ${installments.policyId}`,
  recent: sql`${installments.dueDate}`,
};

export const claimShown: Shown = {
  title: sql`${claims.claimNumber}`,
  subtitle: joinedWith(
    ' · ',
    sql`${customers.displayName}`,
    sql`${policies.policyNumber}`,
    sql`${companies.name}`,
  ),
  status: sql`${claims.status}`,
  amount: sql`${claims.amountClaimed}::text`,
  phone: sql`${customers.phone}`,
  createdAt: claims.createdAt,
  url: sql`'/claims/' || ${claims.id}`,
  recent: sql`${claims.reportedDate}`,
};

export const leadShown: Shown = {
  title: sql`${leads.displayName}`,
  subtitle: joinedWith(' · ', sql`${leads.email}`, sql`${leads.phone}`),
  status: sql`${leads.status}`,
  amount: sql`${leads.estimatedPremium}::text`,
  phone: sql`${leads.phone}`,
  createdAt: leads.createdAt,
  url: sql`'/leads/' || ${leads.id}`,
  recent: leads.createdAt,
};

export const companyShown: Shown = {
  title: sql`${companies.name}`,
  subtitle: joinedWith(' · ', sql`${companies.contactPerson}`, sql`${companies.email}`),
  status: sql`null::text`,
  amount: sql`null::text`,
  phone: sql`${companies.phone}`,
  createdAt: companies.createdAt,
  url: sql`'/companies/' || ${companies.id} || '/edit'`,
  recent: companies.createdAt,
};

export const ORDER = sql`tier desc, score desc, kind_order, recent desc, id`;

/** A policy's customer and insurer, for the rows that show them. */
const policyParties = (tenantId: SQLWrapper) => sql`
  join ${customers} on ${customers.tenantId} = ${tenantId}::uuid and ${customers.id} = ${policies.customerId}
  join ${companies} on ${companies.tenantId} = ${tenantId}::uuid and ${companies.id} = ${policies.companyId}`;

/** The kinds in the order equally ranked records come in. */
export const KINDS_IN_ORDER = (Object.keys(KIND_ORDER) as SearchResultType[]).sort(
  (a, b) => KIND_ORDER[a] - KIND_ORDER[b],
);

/** A policy and its parties, for what hangs on a policy. */
const onPolicy = (tenantId: SQLWrapper, policyId: SQLWrapper) =>
  sql`join ${policies} on ${policies.tenantId} = ${tenantId}::uuid and ${policies.id} = ${policyId} ${policyParties(tenantId)}`;

export function display(tenantId: SQLWrapper, kind: SearchResultType): SQL {
  switch (kind) {
    case 'customer':
      return displayed(tenantId, kind, customers, sql``, customerShown);
    case 'policy':
      return displayed(tenantId, kind, policies, policyParties(tenantId), policyShown);
    case 'payment':
      return displayed(tenantId, kind, installments, onPolicy(tenantId, installments.policyId), paymentShown);
    case 'claim':
      return displayed(tenantId, kind, claims, onPolicy(tenantId, claims.policyId), claimShown);
    case 'lead':
      return displayed(tenantId, kind, leads, sql``, leadShown);
    case 'company':
      return displayed(tenantId, kind, companies, sql``, companyShown);
  }
}
