import type { SearchFilter, SearchResult, SearchResultType } from '@coverdesk/contract';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { isoMoment, literalLimit, withGenericPlans } from '../../db/query-helpers.js';
import { reusableStatement, setFilters } from '../../db/reusable-statement.js';
import { type NumberSearch, numberFound, numberSearch } from '../../db/search-columns.js';
import { claims } from '../claims/tables.js';
import { companies } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import { leads } from '../leads/tables.js';
import { policyStatus, statusIs } from '../policies/status.js';
import { installments, policies } from '../policies/tables.js';

// The global search. Every kind of record is looked up on its own trigram index, over the stored
// search columns (db/search-columns.ts): names and emails, phone digits, policy and claim numbers
// stripped of punctuation, and what policies insure. Each kind's best matches are ranked and cut to
// the limit in SQL, and the kinds are merged in one statement: exact number or phone first, then
// prefixes, then typo-tolerant similarity.

/** How close a word must be to count (pg_trgm's `<%`): "cohn" finds "Cohen", "kohen" too. */
const WORD_SIMILARITY = '0.5';

/**
 * How many customers a search follows to their policies, and how many policies and claims (found
 * by number, by what a policy insures or through a customer) it follows further to instalments and
 * claims: enough for a
 * family name shared by a few dozen customers, bounded so a common word never reads a whole book.
 */
const FOLLOWED_CUSTOMERS = 20;
const FOLLOWED = 100;

/** What the text becomes for each kind of match. */
interface Terms {
  /** Lowercase, single-spaced. */
  text: string;
  /**
   * Letters and digits only, for policy and claim numbers; undefined when too short. `similar` when
   * the text has a digit: only then do numbers merely like it count, so a name never finds a number
   * by resemblance, only by the lists' own rule (`numberFound`: "HM MOT" and "MOT" find HM-MOT-1001).
   */
  number?: { value: string; similar: boolean; search: NumberSearch };
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
    number:
      number.length >= 3
        ? { value: number, similar: /\d/.test(number), search: numberSearch(number) as NumberSearch }
        : undefined,
    digits: /^[\d\s()+\-./]+$/.test(text) && digits.length >= 3 ? digits : undefined,
  };
}

/** LIKE patterns with the broker's own % and _ taken literally. */
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);
const startingWith = (value: string) => `${escapeLike(value)}%`;

/**
 * The text's forms as the statement takes them: placeholders, so the statement is built once for
 * each shape (which forms the text has) and the values go with each search (`termValues`).
 */
interface TermSlots {
  text: SQLWrapper;
  textPrefix: SQLWrapper;
  number?: {
    value: SQLWrapper;
    within: SQLWrapper;
    ending: SQLWrapper;
    part: SQLWrapper;
    similar: boolean;
  };
  digits?: { value: SQLWrapper; prefix: SQLWrapper };
}

const termSlots = (shape: NonNullable<Shape['terms']>): TermSlots => ({
  text: sql.placeholder('text'),
  textPrefix: sql.placeholder('text_prefix'),
  number: shape.number
    ? {
        value: sql.placeholder('number'),
        within: sql.placeholder('number_within'),
        ending: sql.placeholder('number_ending'),
        part: sql.placeholder('number_part'),
        similar: shape.number.similar,
      }
    : undefined,
  digits: shape.digits
    ? { value: sql.placeholder('digits'), prefix: sql.placeholder('digits_prefix') }
    : undefined,
});

const termValues = ({ text, number, digits }: Terms) => ({
  text,
  text_prefix: startingWith(text),
  ...(number
    ? {
        number: number.value,
        number_within: number.search.within,
        number_ending: number.search.ending,
        number_part: number.search.part,
      }
    : {}),
  ...(digits ? { digits, digits_prefix: startingWith(digits) } : {}),
});

/** An insurer's phone digits; insurers are few, so they are worked out as they are read. */
const insurerPhoneDigits = sql`regexp_replace(${companies.phone}, '[^0-9]', '', 'g')`;

/** How a record matches the text: the condition that finds it on an index, its tier and its score. */
interface Match {
  where: SQL;
  tier: SQL;
  score: SQL;
}

/** A person (customer or lead) matched on name and email, or on phone digits: tier and score. */
function personMatch(table: typeof customers | typeof leads, terms: TermSlots): Match {
  // The stored search columns (db/search-columns.ts), each with its trigram index.
  const digits = table.phoneDigits;
  const prefix = terms.textPrefix;
  const byPhone = terms.digits ? sql` or ${terms.digits.value} <% ${digits}` : sql``;
  const where = sql`(${terms.text} <% ${table.nameKey} or ${terms.text} <% ${table.emailKey}${byPhone})`;
  const tier = sql`case
    when lower(${table.displayName}) = ${terms.text} or ${table.email} = ${terms.text}
      ${terms.digits ? sql`or ${digits} = ${terms.digits.value}` : sql``} then ${EXACT}
    when lower(${table.displayName}) like ${prefix} or lower(${table.lastName}) like ${prefix}
      or ${table.email} like ${prefix}
      ${terms.digits ? sql`or ${digits} like ${terms.digits.prefix}` : sql``}
      then ${PREFIX}
    else ${SIMILAR} end`;
  const score = sql`greatest(word_similarity(${terms.text}, ${table.nameKey}), word_similarity(${terms.text}, ${table.emailKey})
    ${terms.digits ? sql`, word_similarity(${terms.digits.value}, ${digits})` : sql``})`;
  return { where, tier, score };
}

/**
 * A policy or claim matched on its number: exact, found by the lists' own rule (`numberFound`: any
 * prefix, any part after a separator, the ending), or, for a text with a digit, like it.
 */
function numberMatch(
  written: SQLWrapper,
  normal: SQLWrapper,
  number: NonNullable<TermSlots['number']>,
): Match {
  const found = numberFound(written, normal, number);
  return {
    where: number.similar ? sql`(${number.value} <% ${normal} or ${found})` : found,
    tier: sql`case when ${normal} = ${number.value} then ${EXACT} when ${found} then ${PREFIX}
      else ${SIMILAR} end`,
    score: sql`word_similarity(${number.value}, ${normal})`,
  };
}

/**
 * A policy matched on what it insures, word by word and typo-tolerant as names are: "corola" finds
 * the policy on a 2019 Toyota Corolla, "herzl" the one on a flat in Herzl Street.
 */
function insuredItemMatch(terms: TermSlots): Match {
  const item = policies.insuredItemKey;
  return {
    where: sql`${terms.text} <% ${item}`,
    tier: sql`case when ${item} = ${terms.text} then ${EXACT}
      when ${item} like ${terms.textPrefix} then ${PREFIX} else ${SIMILAR} end`,
    score: sql`word_similarity(${terms.text}, ${item})`,
  };
}

/** The conditions a filter sets on one kind of record; null when the kind cannot meet them. */
type Conditions = SQL[] | null;

const FILTER_FIELDS = ['date_from', 'date_to', 'company', 'amount_min', 'amount_max'] as const;
type FilterField = (typeof FILTER_FIELDS)[number];

/** A filter as the statement takes it: each value set is a placeholder of the field's name. */
type Filter = Partial<Record<FilterField, SQLWrapper>> & Pick<SearchFilter, 'status' | 'limit'>;

const filterSlots = (shape: Pick<Shape, 'set' | 'status' | 'limit'>): Filter => ({
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
const policyConditions = (filter: Filter): SQL[] => [
  ...(filter.company ? [sql`${policies.companyId} = ${filter.company}::uuid`] : []),
  ...(filter.status === 'all' ? [] : [statusIs[filter.status]]),
];

/** The agency's day a record was created on (the tenant transaction's time zone is the agency's). */
const createdOn = (column: SQLWrapper) => sql`(${column})::date`;

function customerConditions(tenantId: SQLWrapper, filter: Filter): Conditions {
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

const leadConditions = (filter: Filter): Conditions =>
  filter.company || filter.status !== 'all'
    ? null
    : [...between(createdOn(leads.createdAt), filter), ...amountWithin(leads.estimatedPremium, filter)];

const companyConditions = (filter: Filter): Conditions =>
  filter.status !== 'all' || hasAmountFilter(filter)
    ? null
    : [
        ...between(createdOn(companies.createdAt), filter),
        ...(filter.company ? [sql`${companies.id} = ${filter.company}::uuid`] : []),
      ];

const policyFilter = (filter: Filter): SQL[] => [
  ...between(policies.startDate, filter),
  ...amountWithin(policies.totalPremium, filter),
  ...policyConditions(filter),
];
const paymentFilter = (filter: Filter): SQL[] => [
  ...between(installments.dueDate, filter),
  ...amountWithin(installments.amountDue, filter),
  ...policyConditions(filter),
];
const claimFilter = (filter: Filter): SQL[] => [
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
function ranked(type: SearchResultType, id: SQLWrapper, recent: SQLWrapper, tier: SQL, score: SQL) {
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
const policyParties = (tenantId: SQLWrapper) => sql`
  join ${customers} on ${customers.tenantId} = ${tenantId}::uuid and ${customers.id} = ${policies.customerId}
  join ${companies} on ${companies.tenantId} = ${tenantId}::uuid and ${companies.id} = ${policies.companyId}`;

/**
 * Records reached from the matches of the kind they hang on (`parent`, a statement part named
 * above), and those matching the text themselves (`own`: their number, what a policy insures), the
 * best of each match apart so each starts from its own index; each record once, with its best rank
 * and the date that orders it among equals (`recent`), and only while no kind shown before theirs
 * already fills the answer (`reach`).
 */
function reachedOrMatched(
  tenantId: SQLWrapper,
  table: typeof policies | typeof claims,
  recent: SQLWrapper,
  parent: string,
  parentId: SQLWrapper,
  own: Match[],
  reach: (found: string) => SQL,
): SQL {
  const matched = own.map(
    (match) => sql`union all
      select * from (
        select ${table.id} as id, ${match.tier} as tier, ${match.score}::real as score, ${recent} as recent
        from ${table}
        where ${table.tenantId} = ${tenantId}::uuid and ${match.where}
        order by 2 desc, 3 desc, 4 desc
        limit ${sql.raw(String(FOLLOWED))}
      ) own
      where ${reach('own')}`,
  );
  return sql`
    select * from (
      select distinct on (id) id, tier, score, recent from (
        select ${table.id} as id, m.tier, m.score, ${recent} as recent
        from ${sql.raw(parent)} m
        join ${table} on ${table.tenantId} = ${tenantId}::uuid and ${parentId} = m.id
        where ${reach('m')}
        ${sql.join(matched, sql` `)}
      ) found
      order by id, tier desc, score desc
    ) best
    order by tier desc, score desc, recent desc
    limit ${sql.raw(String(FOLLOWED))}`;
}

/**
 * The customers best matching the text, with their rank and date: the first to be shown and the
 * ones followed to their policies, those policies (with those found by number or by what they
 * insure) to their instalments and claims, each record carrying the rank of the match that found it.
 */
function matchedCustomers(tenantId: SQLWrapper, terms: TermSlots, limit: number): SQL {
  const person = personMatch(customers, terms);
  return sql`
    select ${customers.id} as id, ${person.tier} as tier, ${person.score}::real as score,
      ${customerShown.recent} as recent
    from ${customers}
    where ${customers.tenantId} = ${tenantId}::uuid and ${person.where}
    order by tier desc, score desc, recent desc
    limit ${sql.raw(String(Math.max(FOLLOWED_CUSTOMERS, limit)))}`;
}

/** One kind's best rows: its candidates, its filter, its order, cut to the limit. */
const best = (select: SQL, limit: number) => sql`${select} order by ${ORDER} limit ${literalLimit(limit)}`;

/** The kinds in the order equally ranked records come in. */
const KINDS_IN_ORDER = (Object.keys(KIND_ORDER) as SearchResultType[]).sort(
  (a, b) => KIND_ORDER[a] - KIND_ORDER[b],
);

/**
 * Whether a record found by following (`found`, with its tier and score) can still be among the
 * results: not once a kind that comes before its own holds `limit` results ranked at least as well,
 * since those all come first. `cut_<kind>` holds the rank of a kind's last result when it has
 * `limit` of them, and nothing otherwise, so following stops where it can no longer change the
 * answer (a surname shared by a hundred customers follows none of them to their instalments).
 */
const withinReach =
  (before: readonly SearchResultType[]) =>
  (found: string): SQL =>
    before.length === 0
      ? sql`true`
      : sql.raw(
          before
            .map(
              (kind) =>
                `not exists (select 1 from cut_${kind} c where (c.tier, c.score) >= (${found}.tier, ${found}.score))`,
            )
            .join(' and '),
        );

/**
 * The statement's parts before the merge, in the order they read each other: the matches followed,
 * each kind's best rows (`shown_<kind>`) and the rank of its last one (`cut_<kind>`). Without text,
 * the kinds' rows are chosen by the filters alone.
 */
function kindStatements(
  tenantId: SQLWrapper,
  terms: TermSlots | undefined,
  filter: Filter,
  shown: readonly SearchResultType[],
): SQL[] {
  const limit = filter.limit;
  const none = sql`0`;
  const rank = (found: string) =>
    terms
      ? { tier: sql.raw(`${found}.tier`), score: sql.raw(`${found}.score`) }
      : { tier: none, score: none };
  const via = (found: string, id: SQLWrapper) =>
    terms ? sql`join ${sql.raw(found)} on ${sql.raw(found)}.id = ${id}` : sql``;

  const customerFilter = customerConditions(tenantId, filter);
  const leadFilter = leadConditions(filter);
  const companyFilter = companyConditions(filter);
  const reach = (kind: SearchResultType) =>
    withinReach(shown.filter((other) => KIND_ORDER[other] < KIND_ORDER[kind]));
  // The policy filters bind what hangs on a policy only when there are any: otherwise no join.
  const holding = policyConditions(filter);
  const onFilteredPolicy = (policyId: SQLWrapper) =>
    holding.length === 0
      ? sql``
      : sql`join ${policies} on ${policies.tenantId} = ${tenantId}::uuid and ${policies.id} = ${policyId}`;

  const customer = terms && personMatch(customers, terms);
  // Records found by matching or following carry their rank and date: without a filter, nothing more to read.
  const foundAlone = (kind: SearchResultType, found: string) =>
    sql`select ${ranked(kind, sql.raw(`${found}.id`), sql.raw(`${found}.recent`), sql.raw(`${found}.tier`), sql.raw(`${found}.score`))}
      from ${sql.raw(found)}`;
  const customerStatement = best(
    // Without a filter of their own, the customers shown are the best matches already found to be followed.
    terms && customerFilter?.length === 0
      ? foundAlone('customer', 'matched_customers')
      : sql`select ${ranked('customer', customers.id, customerShown.recent, customer ? customer.tier : none, customer ? customer.score : none)}
          from ${customers}
          where ${customers.tenantId} = ${tenantId}::uuid ${customer ? sql`and ${customer.where}` : sql``} ${and(customerFilter ?? [])}`,
    limit,
  );

  const policy = rank('matched_policies');
  const policyWhere = policyFilter(filter);
  const policyStatement = best(
    terms && policyWhere.length === 0
      ? foundAlone('policy', 'matched_policies')
      : sql`select ${ranked('policy', policies.id, policyShown.recent, policy.tier, policy.score)}
          from ${policies} ${via('matched_policies', policies.id)}
          where ${policies.tenantId} = ${tenantId}::uuid ${and(policyWhere)}`,
    limit,
  );

  const payment = rank('payable_policies');
  const paymentStatement = best(
    sql`select ${ranked('payment', installments.id, paymentShown.recent, payment.tier, payment.score)}
      from ${installments}
      ${via('payable_policies', installments.policyId)}
      ${onFilteredPolicy(installments.policyId)}
      where ${installments.tenantId} = ${tenantId}::uuid ${and(paymentFilter(filter))}`,
    limit,
  );

  const claim = rank('matched_claims');
  const claimWhere = claimFilter(filter);
  const claimStatement = best(
    terms && claimWhere.length === 0
      ? foundAlone('claim', 'matched_claims')
      : sql`select ${ranked('claim', claims.id, claimShown.recent, claim.tier, claim.score)}
          from ${claims} ${via('matched_claims', claims.id)}
          ${onFilteredPolicy(claims.policyId)}
          where ${claims.tenantId} = ${tenantId}::uuid ${and(claimWhere)}`,
    limit,
  );

  const lead = terms && personMatch(leads, terms);
  const leadStatement = best(
    sql`select ${ranked('lead', leads.id, leadShown.recent, lead ? lead.tier : none, lead ? lead.score : none)}
      from ${leads}
      where ${leads.tenantId} = ${tenantId}::uuid ${lead ? sql`and ${lead.where}` : sql``} ${and(leadFilter ?? [])}`,
    limit,
  );

  // An agency has a handful of insurers: their names are compared one by one, no index needed.
  const companyText = sql`lower(${companies.name} || ' ' || ${companies.contactPerson} || ' ' || ${companies.email})`;
  const companyPhone = insurerPhoneDigits;
  const companyTier = terms
    ? sql`case when lower(${companies.name}) = ${terms.text}
        ${terms.digits ? sql`or (${companies.phone} <> '' and ${companyPhone} = ${terms.digits.value})` : sql``} then ${EXACT}
        when lower(${companies.name}) like ${terms.textPrefix} then ${PREFIX} else ${SIMILAR} end`
    : none;
  const companyMatch = terms
    ? sql`and (${terms.text} <% ${companyText}
        ${terms.digits ? sql`or (${companies.phone} <> '' and ${terms.digits.value} <% ${companyPhone})` : sql``})`
    : sql``;
  const companyStatement = best(
    sql`select ${ranked('company', companies.id, companyShown.recent, companyTier, terms ? sql`word_similarity(${terms.text}, ${companyText})` : none)}
      from ${companies}
      where ${companies.tenantId} = ${tenantId}::uuid ${companyMatch} ${and(companyFilter ?? [])}`,
    limit,
  );

  const statements: Record<SearchResultType, SQL> = {
    customer: customerStatement,
    policy: policyStatement,
    payment: paymentStatement,
    company: companyStatement,
    lead: leadStatement,
    claim: claimStatement,
  };
  const part = (name: string, statement: SQL, materialized?: 'materialized') =>
    sql`${sql.raw(name)} as ${sql.raw(materialized ?? '')} (${statement})`;
  const shownPart = (kind: SearchResultType) =>
    shown.includes(kind)
      ? [
          part(`shown_${kind}`, statements[kind]),
          part(
            `cut_${kind}`,
            sql`select tier, score from ${sql.raw(`shown_${kind}`)} order by tier desc, score desc
              offset ${sql.raw(String(limit - 1))} limit 1`,
          ),
        ]
      : [];
  const number = terms?.number;
  return KINDS_IN_ORDER.flatMap((kind) => {
    if (!terms) return shown.includes(kind) ? [part(`shown_${kind}`, statements[kind])] : [];
    // What a kind's rows are found through comes just before them.
    const found =
      kind === 'customer'
        ? [part('matched_customers', matchedCustomers(tenantId, terms, limit))]
        : kind === 'policy'
          ? [
              part(
                'matched_policies',
                reachedOrMatched(
                  tenantId,
                  policies,
                  policyShown.recent,
                  'matched_customers',
                  policies.customerId,
                  [
                    ...(number ? [numberMatch(policies.policyNumber, policies.numberKey, number)] : []),
                    insuredItemMatch(terms),
                  ],
                  reach('policy'),
                ),
              ),
            ]
          : kind === 'claim'
            ? [
                part(
                  'matched_claims',
                  reachedOrMatched(
                    tenantId,
                    claims,
                    claimShown.recent,
                    'matched_policies',
                    claims.policyId,
                    number ? [numberMatch(claims.claimNumber, claims.numberKey, number)] : [],
                    reach('claim'),
                  ),
                ),
              ]
            : kind === 'payment'
              ? [
                  // Apart, so the policies out of reach are dropped before their instalments are read.
                  part(
                    'payable_policies',
                    sql`select * from matched_policies m where ${reach('payment')('m')}`,
                    'materialized',
                  ),
                ]
              : [];
    return [...found, ...shownPart(kind)];
  });
}

/** A policy and its parties, for what hangs on a policy. */
const onPolicy = (tenantId: SQLWrapper, policyId: SQLWrapper) =>
  sql`join ${policies} on ${policies.tenantId} = ${tenantId}::uuid and ${policies.id} = ${policyId} ${policyParties(tenantId)}`;

function display(tenantId: SQLWrapper, kind: SearchResultType): SQL {
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

/** The kinds asked for that the filter leaves possible, in the order equally ranked records come in. */
function shownKinds(filter: Filter, kinds: readonly SearchResultType[]): SearchResultType[] {
  const tenantId = sql.placeholder('tenant');
  const possible: Record<SearchResultType, boolean> = {
    customer: customerConditions(tenantId, filter) !== null,
    company: companyConditions(filter) !== null,
    lead: leadConditions(filter) !== null,
    policy: true,
    claim: true,
    payment: true,
  };
  return KINDS_IN_ORDER.filter((kind) => kinds.includes(kind) && possible[kind]);
}

/** What the statement's text depends on; every value goes in through a placeholder. */
interface Shape {
  shown: SearchResultType[];
  /** Which forms the text has, and whether numbers merely like it count; null for a search by filters alone. */
  terms: { number: { similar: boolean } | null; digits: boolean } | null;
  set: Record<FilterField, boolean>;
  status: SearchFilter['status'];
  limit: number;
}

type Row = SearchResult & { tier: number; score: number; kind_order: number; recent: string };

/**
 * The best `limit` matches among the kinds asked for, in one statement: each kind found on its own
 * indexes and cut to the limit, then all merged by rank, and only the results kept are written out
 * with their names, parties and figures. Without text, the filters alone choose and the newest come
 * first. Built once per shape: building it took the server longer than PostgreSQL took to run it.
 */
const SEARCH = {
  name: 'search',
  description: 'The global search statement, written once per set of record kinds and filters.',
};
const searchStatement = reusableStatement<Shape, Row>(SEARCH, (shape) => {
  const tenantId = sql.placeholder('tenant');
  const filter = filterSlots(shape);
  const parts = kindStatements(
    tenantId,
    shape.terms ? termSlots(shape.terms) : undefined,
    filter,
    shape.shown,
  );
  return sql`
    with ${sql.join(parts, sql`, `)},
    ranked as (
      ${sql.join(
        shape.shown.map((kind) => sql.raw(`select * from shown_${kind}`)),
        sql` union all `,
      )}
      order by ${ORDER}
      limit ${literalLimit(shape.limit)}
    )
    ${sql.join(
      shape.shown.map((kind) => display(tenantId, kind)),
      sql` union all `,
    )}
    order by ${ORDER}`;
});

/** The agency's records that best match a search, as the header box and the spotlight show them. */
export async function searchRecords(
  tx: Transaction,
  tenantId: string,
  query: SearchFilter,
  kinds: readonly SearchResultType[],
): Promise<SearchResult[]> {
  const terms = searchTerms(query.q);
  const { filters, set } = setFilters(query, FILTER_FIELDS);
  const shape: Shape = {
    shown: shownKinds(filterSlots({ set, status: query.status, limit: query.limit }), kinds),
    terms: terms
      ? {
          number: terms.number ? { similar: terms.number.similar } : null,
          digits: terms.digits !== undefined,
        }
      : null,
    set,
    status: query.status,
    limit: query.limit,
  };
  if (shape.shown.length === 0) return [];
  const values = { tenant: tenantId, ...filters, ...(terms ? termValues(terms) : {}) };
  const rows = terms
    ? // A text search starts every part from an index on the agency and the text, or from the matches
      // already found, so one plan serves every text and agency; planning the statement anew for each
      // search cost several times what running it did.
      await withGenericPlans(tx, () => searchStatement(tx, shape, values), {
        'pg_trgm.word_similarity_threshold': WORD_SIMILARITY,
      })
    : await searchStatement(tx, shape, values);
  return rows.map(({ tier: _tier, score: _score, kind_order: _kind, recent: _recent, ...result }) => result);
}
