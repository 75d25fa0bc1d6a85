import type { SearchFilter, SearchResult, SearchResultType } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { literalLimit, withGenericPlans } from '../../db/query-helpers.js';
import { reusableStatement, setFilters } from '../../db/reusable-statement.js';
import { kindStatements } from './candidates.js';
import {
  companyConditions,
  customerConditions,
  FILTER_FIELDS,
  type Filter,
  type FilterField,
  filterSlots,
  leadConditions,
} from './filters.js';
import { display, KINDS_IN_ORDER, ORDER } from './results.js';
import { searchTerms, termSlots, termValues } from './text-match.js';

// The global search. Every kind of record is looked up on its own trigram index, over the stored
// search columns (db/search-columns.ts): names and emails, phone digits, policy and claim numbers
// stripped of punctuation, and what policies insure. Each kind's best matches are ranked and cut to
// the limit in SQL, and the kinds are merged in one statement: exact number or phone first, then
// prefixes, then typo-tolerant similarity.
// What the text matches lives in text-match.ts, the filters in filters.ts, each kind's candidates in
// candidates.ts, and how results are ranked and written out in results.ts.

/** How close a word must be to count (pg_trgm's `<%`): "cohn" finds "Cohen", "kohen" too. */
const WORD_SIMILARITY = '0.5';

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
export interface Shape {
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
