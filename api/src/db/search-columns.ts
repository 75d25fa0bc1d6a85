import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { type ExtraConfigColumn, index, text } from 'drizzle-orm/pg-core';

// Columns the global search looks up (api/src/modules/search/queries.ts), kept by PostgreSQL from
// the row itself. They are stored rather than indexed as expressions because, under row-level
// security, a condition can use an index only when every function in it is LEAKPROOF: `lower(...)`
// or `regexp_replace(...)` around a column would keep the trigram index out of reach, while
// `'text' <% name_key` needs only pg_trgm's operator (declared LEAKPROOF in migration
// 0036_search-trigrams).

/**
 * The name in lower case, for typo-tolerant word similarity. Apart from the email (`emailKey`): in
 * one text every row shared the trigrams of "com" and "example", so a surname starting with "co"
 * brought most of the book as candidates to check one by one.
 */
export const nameKey = (displayName: SQL) =>
  text('name_key').notNull().generatedAlwaysAs(sql`lower(${displayName})`);

/** The email in lower case. */
export const emailKey = () => text('email_key').notNull().generatedAlwaysAs(sql`lower(email)`);

/** A phone's digits alone, so "054-123 4567" and "0541234567" are the same number. */
export const phoneDigits = () =>
  text('phone_digits').notNull().generatedAlwaysAs(sql`regexp_replace(phone, '[^0-9]', '', 'g')`);

/**
 * A policy or claim number without punctuation or case: "P-1042" and "p 1042" alike; also a policy
 * number as an insurer's statement writes it, to find the policy by.
 */
export const numberKey = (column: 'policy_number' | 'claim_number' | 'raw_policy_number') =>
  text('number_key')
    .notNull()
    .generatedAlwaysAs(sql.raw(`lower(regexp_replace(${column}, '[^[:alnum:]]', '', 'g'))`));

/** What a policy insures (a vehicle, an address) in lower case, for typo-tolerant word similarity. */
export const insuredItemKey = () =>
  text('insured_item_key').notNull().generatedAlwaysAs(sql`lower(insured_item)`);

/**
 * A GIN trigram index, which `<%` looks candidates up in, holding the agency too (btree_gin, migration
 * 0042_search-agency-trigrams): a search reads only its own agency's candidates, however many other
 * agencies share a name or a run of digits, and one plan fits every agency, small or large.
 */
export const trigramIndex = (name: string, tenantId: ExtraConfigColumn, column: ExtraConfigColumn) =>
  index(name).using('gin', tenantId, column.op('gin_trgm_ops'));

/**
 * What a policy or claim number is searched by: the typed text without punctuation or case (as
 * `numberKey` stores the number), and the patterns `numberFound` takes.
 */
export interface NumberSearch {
  key: string;
  /** LIKE: the key anywhere in the number's key, which the trigram index looks up. */
  within: string;
  /** LIKE: the number's key ends with the key ("1001", "001"). */
  ending: string;
  /** Regex on the number as written: the key, punctuation allowed between its characters, from the start or after a separator. */
  part: string;
}

/** The text as a number search; undefined when it has no letter or digit. */
export function numberSearch(text: string): NumberSearch | undefined {
  const key = text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  if (key === '') return undefined;
  const like = key.replace(/[\\%_]/g, (char) => `\\${char}`);
  return {
    key,
    within: `%${like}%`,
    ending: `%${like}`,
    // Letters and digits only, so nothing in the key means anything to the regex.
    part: `(^|[^[:alnum:]])${[...key].join('[^[:alnum:]]*')}`,
  };
}

/**
 * The one rule by which the global search and the policy and claim lists find a number: by any
 * prefix, written with any separators ("HM-MOT", "HM MOT", "hmmot"), by any part after a separator
 * and what follows it ("MOT", "MOT-1001", "1001"), or by its ending. `number` is the column as
 * written, `key` its `numberKey`; the patterns are `numberSearch`'s, as values or placeholders.
 */
export const numberFound = (
  number: SQLWrapper,
  key: SQLWrapper,
  search: { within: SQLWrapper | string; ending: SQLWrapper | string; part: SQLWrapper | string },
) =>
  sql`(${key} like ${search.within} and (lower(${number}) ~ ${search.part} or ${key} like ${search.ending}))`;
