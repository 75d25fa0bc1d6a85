// Each kind's best candidates, found by matching the text or by following the matches of the kind
// they hang on, as the parts of the search statement.
import type { SearchResultType } from '@coverdesk/contract';
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { literalLimit } from '../../db/query-helpers.js';
import { claims } from '../claims/tables.js';
import { companies } from '../companies/tables.js';
import { customers } from '../customers/tables.js';
import { leads } from '../leads/tables.js';
import { installments, policies } from '../policies/tables.js';
import {
  and,
  claimFilter,
  companyConditions,
  customerConditions,
  type Filter,
  leadConditions,
  paymentFilter,
  policyConditions,
  policyFilter,
} from './filters.js';
import {
  claimShown,
  companyShown,
  customerShown,
  KIND_ORDER,
  KINDS_IN_ORDER,
  leadShown,
  ORDER,
  paymentShown,
  policyShown,
  ranked,
} from './results.js';
import {
  EXACT,
  insuredItemMatch,
  insurerPhoneDigits,
  type Match,
  numberMatch,
  PREFIX,
  personMatch,
  SIMILAR,
  type TermSlots,
} from './text-match.js';

/**
 * How many customers a search follows to their policies, and how many policies and claims (found
 * by number, by what a policy insures or through a customer) it follows further to instalments and
 * claims: enough for a
 * family name shared by a few dozen customers, bounded so a common word never reads a whole book.
 */
const FOLLOWED_CUSTOMERS = 20;
const FOLLOWED = 100;

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
export function kindStatements(
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
