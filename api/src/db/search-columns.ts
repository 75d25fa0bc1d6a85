import { type SQL, sql } from 'drizzle-orm';
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

/** A policy or claim number without punctuation or case: "P-1042" and "p 1042" alike. */
export const numberKey = (column: 'policy_number' | 'claim_number') =>
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
