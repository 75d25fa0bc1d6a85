// What the search text becomes, and how each kind of record matches it: the condition that finds it
// on its trigram index, its tier (exact, prefix, similar) and its score.
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { type NumberSearch, numberFound, numberSearch } from '../../db/search-columns.js';
import { companies } from '../companies/tables.js';
import type { customers } from '../customers/tables.js';
import type { leads } from '../leads/tables.js';
import { policies } from '../policies/tables.js';
import type { Shape } from './queries.js';

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
export const EXACT = sql.raw('3');
export const PREFIX = sql.raw('2');
export const SIMILAR = sql.raw('1');

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
export interface TermSlots {
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

export const termSlots = (shape: NonNullable<Shape['terms']>): TermSlots => ({
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

export const termValues = ({ text, number, digits }: Terms) => ({
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
export const insurerPhoneDigits = sql`regexp_replace(${companies.phone}, '[^0-9]', '', 'g')`;

/** How a record matches the text: the condition that finds it on an index, its tier and its score. */
export interface Match {
  where: SQL;
  tier: SQL;
  score: SQL;
}

/** A person (customer or lead) matched on name and email, or on phone digits: tier and score. */
export function personMatch(table: typeof customers | typeof leads, terms: TermSlots): Match {
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
export function numberMatch(
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
export function insuredItemMatch(terms: TermSlots): Match {
  const item = policies.insuredItemKey;
  return {
    where: sql`${terms.text} <% ${item}`,
    tier: sql`case when ${item} = ${terms.text} then ${EXACT}
      when ${item} like ${terms.textPrefix} then ${PREFIX} else ${SIMILAR} end`,
    score: sql`word_similarity(${terms.text}, ${item})`,
  };
}
