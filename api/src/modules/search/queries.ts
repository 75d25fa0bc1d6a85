import type { SearchFilter, SearchResult, SearchResultType } from '@coverdesk/contract';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { isoMoment, literalLimit } from '../../db/query-helpers.js';
import { claims } from '../claims/tables.js';
import { companies } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import { leads } from '../leads/tables.js';
import { policyStatus, statusIs } from '../policies/status.js';
import { installments, policies } from '../policies/tables.js';

// The global search. Every kind of record is looked up on its own trigram index, over the stored
// search columns (db/search-columns.ts): names and emails, phone digits, and policy and claim
// numbers stripped of punctuation. Each kind's best matches are ranked and cut to the limit in SQL,
// and the kinds are merged in one statement: exact number or phone first, then prefixes, then
// typo-tolerant similarity.

/** How close a word must be to count (pg_trgm's `<%`): "cohn" finds "Cohen", "kohen" too. */
const WORD_SIMILARITY = '0.5';

/**
 * How many customers a search follows to their policies, and how many policies and claims (found
 * by number or through a customer) it follows further to instalments and claims: enough for a
 * family name shared by a few dozen customers, bounded so a common word never reads a whole book.
 */
const FOLLOWED_CUSTOMERS = 20;
const FOLLOWED = 100;

/** What the text becomes for each kind of match. */
interface Terms {
  /** Lowercase, single-spaced. */
  text: string;
  /** Letters and digits only, for policy and claim numbers; undefined when too short or without a digit. */
  number?: string;
  /** The digits of something typed like a phone number ("054-123 4567"); undefined otherwise. */
  digits?: string;
}

/** The three tiers of a match; similarity orders each. */
const EXACT = sql.raw('3');
const PREFIX = sql.raw('2');
const SIMILAR = sql.raw('1');

export function searchTerms(q: string): Terms | undefined {
  const text = q.trim().toLowerCase().replace(/\s+/g, ' ');
  if (text === '') return undefined;
  const number = text.replace(/[^\p{L}\p{N}]/gu, '');
  const digits = text.replace(/\D/g, '');
  return {
    text,
    // Policy and claim numbers carry digits: a name is never looked up among them.
    number: number.length >= 3 && /\d/.test(number) ? number : undefined,
    digits: /^[\d\s()+\-./]+$/.test(text) && digits.length >= 3 ? digits : undefined,
  };
}

/** LIKE patterns with the broker's own % and _ taken literally. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);
const startingWith = (value: string) => `${escapeLike(value)}%`;
const endingWith = (value: string) => `%${escapeLike(value)}`;

/** An insurer's phone digits; insurers are few, so they are worked out as they are read. */
const insurerPhoneDigits = sql`regexp_replace(${companies.phone}, '[^0-9]', '', 'g')`;

/** A person (customer or lead) matched on name and email, or on phone digits: tier and score. */
function personMatch(table: typeof customers | typeof leads, terms: Terms) {
  // The stored search columns (db/search-columns.ts), each with its trigram index.
  const digits = table.phoneDigits;
  const prefix = startingWith(terms.text);
  const byPhone = terms.digits ? sql` or ${terms.digits} <% ${digits}` : sql``;
  const where = sql`(${terms.text} <% ${table.searchText}${byPhone})`;
  const tier = sql`case
    when lower(${table.displayName}) = ${terms.text} or ${table.email} = ${terms.text}
      ${terms.digits ? sql`or ${digits} = ${terms.digits}` : sql``} then ${EXACT}
    when lower(${table.displayName}) like ${prefix} or lower(${table.lastName}) like ${prefix}
      or ${table.email} like ${prefix}
      ${terms.digits ? sql`or ${digits} like ${startingWith(terms.digits)}` : sql``}
      then ${PREFIX}
    else ${SIMILAR} end`;
  const score = terms.digits
    ? sql`greatest(word_similarity(${terms.text}, ${table.searchText}), word_similarity(${terms.digits}, ${digits}))`
    : sql`word_similarity(${terms.text}, ${table.searchText})`;
  return { where, tier, score };
}

/** A policy or claim matched on its number: exact, starting or ending with it, or like it. */
function numberMatch(normal: SQLWrapper, number: string) {
  return {
    where: sql`${number} <% ${normal}`,
    tier: sql`case when ${normal} = ${number} then ${EXACT}
      when ${normal} like ${startingWith(number)} or ${normal} like ${endingWith(number)} then ${PREFIX}
      else ${SIMILAR} end`,
    score: sql`word_similarity(${number}, ${normal})`,
  };
}

/** The conditions a filter sets on one kind of record; null when the kind cannot meet them. */
type Conditions = SQL[] | null;

const between = (column: SQLWrapper, filter: SearchFilter) => [
  ...(filter.date_from ? [sql`${column} >= ${filter.date_from}::date`] : []),
  ...(filter.date_to ? [sql`${column} <= ${filter.date_to}::date`] : []),
];

const amountWithin = (column: SQLWrapper, filter: SearchFilter) => [
  ...(filter.amount_min ? [sql`${column} >= ${filter.amount_min}::numeric`] : []),
  ...(filter.amount_max ? [sql`${column} <= ${filter.amount_max}::numeric`] : []),
];

const hasAmountFilter = (filter: SearchFilter) =>
  filter.amount_min !== undefined || filter.amount_max !== undefined;

/** The policy filters (insurer, status) on the `policies` row in scope. */
const policyConditions = (filter: SearchFilter): SQL[] => [
  ...(filter.company ? [sql`${policies.companyId} = ${filter.company}::uuid`] : []),
  ...(filter.status === 'all' ? [] : [statusIs[filter.status]]),
];

/** The agency's day a record was created on (the tenant transaction's time zone is the agency's). */
const createdOn = (column: SQLWrapper) => sql`(${column})::date`;

function customerConditions(tenantId: string, filter: SearchFilter): Conditions {
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

const leadConditions = (filter: SearchFilter): Conditions =>
  filter.company || filter.status !== 'all'
    ? null
    : [...between(createdOn(leads.createdAt), filter), ...amountWithin(leads.estimatedPremium, filter)];

const companyConditions = (filter: SearchFilter): Conditions =>
  filter.status !== 'all' || hasAmountFilter(filter)
    ? null
    : [
        ...between(createdOn(companies.createdAt), filter),
        ...(filter.company ? [sql`${companies.id} = ${filter.company}::uuid`] : []),
      ];

const policyFilter = (filter: SearchFilter): SQL[] => [
  ...between(policies.startDate, filter),
  ...amountWithin(policies.totalPremium, filter),
  ...policyConditions(filter),
];
const paymentFilter = (filter: SearchFilter): SQL[] => [
  ...between(installments.dueDate, filter),
  ...amountWithin(installments.amountDue, filter),
  ...policyConditions(filter),
];
const claimFilter = (filter: SearchFilter): SQL[] => [
  ...between(claims.reportedDate, filter),
  ...amountWithin(claims.amountClaimed, filter),
  ...policyConditions(filter),
];

const and = (conditions: SQL[]) =>
  conditions.length === 0 ? sql`` : sql` and ${sql.join(conditions, sql` and `)}`;

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
const KIND_ORDER: Record<SearchResultType, number> = {
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
function ranked(type: SearchResultType, id: SQLWrapper, show: Shown, tier: SQL, score: SQL) {
  return sql`${sql.raw(`'${type}'`)} as type, ${id} as id, ${tier} as tier, ${score}::real as score,
    ${sql.raw(String(KIND_ORDER[type]))} as kind_order, (${show.recent})::timestamptz as recent`;
}

/**
 * The results of one kind among the ranked ones, written out as the answer shows them. The ids stay
 * uuids until here: under row-level security a join through a cast (not LEAKPROOF) could not use
 * the primary key, and read the whole book instead.
 */
function displayed(
  tenantId: string,
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
  sql`concat_ws(${separator}, ${sql.join(
    parts.map((part) => sql`nullif(${part}, '')`),
    sql`, `,
  )})`;

const customerShown: Shown = {
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

const policyShown: Shown = {
  title: sql`${policies.policyNumber}`,
  subtitle: joinedWith(' · ', sql`${customers.displayName}`, sql`${companies.name}`, termOf),
  status: policyStatus,
  amount: sql`${policies.totalPremium}::text`,
  phone: sql`${customers.phone}`,
  createdAt: policies.createdAt,
  url: sql`'/policies/' || ${policies.id}`,
  recent: sql`${policies.startDate}`,
};

const paymentShown: Shown = {
  title: sql`'Instalment ' || ${installments.sequence} || ' of ' || ${policies.totalInstallments} || ' · ' || ${policies.policyNumber}`,
  subtitle: joinedWith(' · ', sql`${customers.displayName}`, sql`'Due ' || ${installments.dueDate}::text`),
  status: sql`${installments.status}`,
  amount: sql`${installments.amountDue}::text`,
  phone: sql`${customers.phone}`,
  createdAt: installments.createdAt,
  url: sql`'/payments/policy/' || ${installments.policyId}`,
  recent: sql`${installments.dueDate}`,
};

const claimShown: Shown = {
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

const leadShown: Shown = {
  title: sql`${leads.displayName}`,
  subtitle: joinedWith(' · ', sql`${leads.email}`, sql`${leads.phone}`),
  status: sql`${leads.status}`,
  amount: sql`${leads.estimatedPremium}::text`,
  phone: sql`${leads.phone}`,
  createdAt: leads.createdAt,
  url: sql`'/leads/' || ${leads.id}`,
  recent: leads.createdAt,
};

const companyShown: Shown = {
  title: sql`${companies.name}`,
  subtitle: joinedWith(' · ', sql`${companies.contactPerson}`, sql`${companies.email}`),
  status: sql`null::text`,
  amount: sql`null::text`,
  phone: sql`${companies.phone}`,
  createdAt: companies.createdAt,
  url: sql`'/companies/' || ${companies.id} || '/edit'`,
  recent: companies.createdAt,
};

const ORDER = sql`tier desc, score desc, kind_order, recent desc, id`;

/** A policy's customer and insurer, for the rows that show them. */
const policyParties = (tenantId: string) => sql`
  join ${customers} on ${customers.tenantId} = ${tenantId}::uuid and ${customers.id} = ${policies.customerId}
  join ${companies} on ${companies.tenantId} = ${tenantId}::uuid and ${companies.id} = ${policies.companyId}`;

/**
 * Records reached from the matches of the kind they hang on (`parent`, a statement part named
 * above), and those whose own number matches; each once, with its best rank.
 */
function reachedOrNumbered(
  tenantId: string,
  table: typeof policies | typeof claims,
  parent: string,
  parentId: SQLWrapper,
  number: ReturnType<typeof numberMatch> | undefined,
): SQL {
  const byNumber = number
    ? sql`union all (
        select ${table.id}, ${number.tier}, ${number.score}::real
        from ${table}
        where ${table.tenantId} = ${tenantId}::uuid and ${number.where}
        order by 2 desc, 3 desc
        limit ${sql.raw(String(FOLLOWED))})`
    : sql``;
  return sql`
    select * from (
      select distinct on (id) id, tier, score from (
        select ${table.id} as id, m.tier, m.score
        from ${sql.raw(parent)} m
        join ${table} on ${table.tenantId} = ${tenantId}::uuid and ${parentId} = m.id
        ${byNumber}
      ) found
      order by id, tier desc, score desc
    ) best
    order by tier desc, score desc
    limit ${sql.raw(String(FOLLOWED))}`;
}

/**
 * The matched records of each kind followed to the records that hang on them: customers to their
 * policies, policies (by customer or by number) to their instalments and claims. Each carries the
 * tier and score of the match that found it.
 */
function followedMatches(tenantId: string, terms: Terms, limit: number): SQL {
  const person = personMatch(customers, terms);
  const number = terms.number ? numberMatch(policies.numberKey, terms.number) : undefined;
  const claimNumber = terms.number ? numberMatch(claims.numberKey, terms.number) : undefined;
  return sql`
    matched_customers as (
      select ${customers.id} as id, ${person.tier} as tier, ${person.score}::real as score
      from ${customers}
      where ${customers.tenantId} = ${tenantId}::uuid and ${person.where}
      order by tier desc, score desc, ${customers.createdAt} desc
      limit ${sql.raw(String(Math.max(FOLLOWED_CUSTOMERS, limit)))}
    ),
    matched_policies as (${reachedOrNumbered(tenantId, policies, 'matched_customers', policies.customerId, number)}),
    matched_claims as (${reachedOrNumbered(tenantId, claims, 'matched_policies', claims.policyId, claimNumber)})`;
}

/** One kind's best rows: its candidates, its filter, its order, cut to the limit. */
const best = (select: SQL, limit: number) => sql`(${select} order by ${ORDER} limit ${literalLimit(limit)})`;

/** Each kind's statement part, given the text searched for (or none: filters alone). */
function kindStatements(
  tenantId: string,
  terms: Terms | undefined,
  filter: SearchFilter,
  limit: number,
): Record<SearchResultType, SQL | null> {
  const none = sql`0`;
  const rank = (found: string) =>
    terms
      ? { tier: sql.raw(`${found}.tier`), score: sql.raw(`${found}.score`) }
      : { tier: none, score: none };
  const via = (found: string, id: SQLWrapper) =>
    terms ? sql`join ${sql.raw(found)} on ${sql.raw(found)}.id = ${id}` : sql``;

  const customerFilter = customerConditions(tenantId, filter);
  const customer = personMatch(customers, terms ?? { text: '' });
  // Without a filter of their own, the customers shown are the best matches already found to be followed.
  const matched = terms && customerFilter?.length === 0 ? rank('matched_customers') : undefined;
  const customerStatement =
    customerFilter &&
    best(
      matched
        ? sql`select ${ranked('customer', customers.id, customerShown, matched.tier, matched.score)}
            from ${customers} ${via('matched_customers', customers.id)}
            where ${customers.tenantId} = ${tenantId}::uuid`
        : sql`select ${ranked('customer', customers.id, customerShown, terms ? customer.tier : none, terms ? customer.score : none)}
            from ${customers}
            where ${customers.tenantId} = ${tenantId}::uuid ${terms ? sql`and ${customer.where}` : sql``} ${and(customerFilter)}`,
      limit,
    );

  const policy = rank('matched_policies');
  const policyStatement = best(
    sql`select ${ranked('policy', policies.id, policyShown, policy.tier, policy.score)}
      from ${policies} ${via('matched_policies', policies.id)}
      where ${policies.tenantId} = ${tenantId}::uuid ${and(policyFilter(filter))}`,
    limit,
  );

  const payment = rank('matched_policies');
  const paymentStatement = best(
    sql`select ${ranked('payment', installments.id, paymentShown, payment.tier, payment.score)}
      from ${installments}
      ${via('matched_policies', installments.policyId)}
      join ${policies} on ${policies.tenantId} = ${tenantId}::uuid and ${policies.id} = ${installments.policyId}
      where ${installments.tenantId} = ${tenantId}::uuid ${and(paymentFilter(filter))}`,
    limit,
  );

  const claim = rank('matched_claims');
  const claimStatement = best(
    sql`select ${ranked('claim', claims.id, claimShown, claim.tier, claim.score)}
      from ${claims} ${via('matched_claims', claims.id)}
      join ${policies} on ${policies.tenantId} = ${tenantId}::uuid and ${policies.id} = ${claims.policyId}
      where ${claims.tenantId} = ${tenantId}::uuid ${and(claimFilter(filter))}`,
    limit,
  );

  const leadFilter = leadConditions(filter);
  const lead = personMatch(leads, terms ?? { text: '' });
  const leadStatement =
    leadFilter &&
    best(
      sql`select ${ranked('lead', leads.id, leadShown, terms ? lead.tier : none, terms ? lead.score : none)}
        from ${leads}
        where ${leads.tenantId} = ${tenantId}::uuid ${terms ? sql`and ${lead.where}` : sql``} ${and(leadFilter)}`,
      limit,
    );

  // An agency has a handful of insurers: their names are compared one by one, no index needed.
  const companyFilter = companyConditions(filter);
  const companyText = sql`lower(${companies.name} || ' ' || ${companies.contactPerson} || ' ' || ${companies.email})`;
  const companyPhone = insurerPhoneDigits;
  const companyTier = terms
    ? sql`case when lower(${companies.name}) = ${terms.text}
        ${terms.digits ? sql`or (${companies.phone} <> '' and ${companyPhone} = ${terms.digits})` : sql``} then ${EXACT}
        when lower(${companies.name}) like ${startingWith(terms.text)} then ${PREFIX} else ${SIMILAR} end`
    : none;
  const companyMatch = terms
    ? sql`and (${terms.text} <% ${companyText}
        ${terms.digits ? sql`or (${companies.phone} <> '' and ${terms.digits} <% ${companyPhone})` : sql``})`
    : sql``;
  const companyStatement =
    companyFilter &&
    best(
      sql`select ${ranked('company', companies.id, companyShown, companyTier, terms ? sql`word_similarity(${terms.text}, ${companyText})` : none)}
        from ${companies}
        where ${companies.tenantId} = ${tenantId}::uuid ${companyMatch} ${and(companyFilter)}`,
      limit,
    );

  return {
    customer: customerStatement,
    policy: policyStatement,
    payment: paymentStatement,
    company: companyStatement,
    lead: leadStatement,
    claim: claimStatement,
  };
}

/** A policy and its parties, for what hangs on a policy. */
const onPolicy = (tenantId: string, policyId: SQLWrapper) =>
  sql`join ${policies} on ${policies.tenantId} = ${tenantId}::uuid and ${policies.id} = ${policyId} ${policyParties(tenantId)}`;

function display(tenantId: string, kind: SearchResultType): SQL {
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

/**
 * The best `limit` matches among the kinds asked for, in one statement: each kind found on its own
 * indexes and cut to the limit, then all merged by rank, and only the results kept are written out
 * with their names, parties and figures. Without text, the filters alone choose and the newest come
 * first.
 */
export async function searchRecords(
  tx: Transaction,
  tenantId: string,
  filter: SearchFilter,
  kinds: readonly SearchResultType[],
): Promise<SearchResult[]> {
  const terms = searchTerms(filter.q);
  const statements = kindStatements(tenantId, terms, filter, filter.limit);
  const parts = kinds.map((kind) => statements[kind]).filter((part): part is SQL => part !== null);
  if (parts.length === 0) return [];
  if (terms) {
    await tx.execute(sql`select set_config('pg_trgm.word_similarity_threshold', ${WORD_SIMILARITY}, true)`);
  }
  const shownKinds = kinds.filter((kind) => statements[kind] !== null);
  const { rows } = await tx.execute<
    SearchResult & { tier: number; score: number; kind_order: number; recent: string }
  >(sql`
    with ${terms ? sql`${followedMatches(tenantId, terms, filter.limit)},` : sql``}
    ranked as (
      select * from (${sql.join(parts, sql` union all `)}) found
      order by ${ORDER}
      limit ${literalLimit(filter.limit)}
    )
    ${sql.join(
      shownKinds.map((kind) => display(tenantId, kind)),
      sql` union all `,
    )}
    order by ${ORDER}`);
  return rows.map(({ tier: _tier, score: _score, kind_order: _kind, recent: _recent, ...result }) => result);
}
