import { type AnyColumn, asc, Column, desc, is, SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { PgNumeric, PgTimestamp } from 'drizzle-orm/pg-core';
import type { Transaction } from './client.js';

/** `%term%` for ILIKE, with the user's own % and _ taken literally. */
export const containing = (term: string) => `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * ORDER BY for an `?ordering=` value ("name" or "-name"), with the id as tie-breaker so pages
 * never repeat or skip a row.
 */
export function orderBy<Field extends string>(
  ordering: Field | `-${Field}`,
  columns: Record<Field, AnyColumn | SQL>,
  tieBreaker: AnyColumn,
): SQL[] {
  const descending = ordering.startsWith('-');
  const column = columns[(descending ? ordering.slice(1) : ordering) as Field];
  const direction = descending ? desc : asc;
  return [direction(column), direction(tieBreaker)];
}

/**
 * LIMIT written into the statement rather than passed as a value. PostgreSQL keeps one plan for a
 * prepared statement only when that plan is as cheap as planning for the values; a LIMIT it cannot
 * see looks costlier, so every list page was planned anew, and planning under row-level security
 * takes longer than the run. Page sizes are small validated integers, so the statements stay few.
 */
export const literalLimit = (rows: number): number => {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new Error(`not a row count: ${rows}`);
  // drizzle types LIMIT as a number or a placeholder but writes any SQL it is given as is.
  return sql.raw(String(rows)) as unknown as number;
};

/** `count(*)` as a JavaScript number. */
export const countRows = () => sql<number>`count(*)::int`;

/** The single row an INSERT ... RETURNING or a lookup by key must produce. */
export function one<Row>(rows: Row[]): Row {
  const [row] = rows;
  if (row === undefined) throw new Error('expected one row, got none');
  return row;
}

/** Named fields of a JSON object the database writes: columns, expressions, or objects of them. */
export interface JsonFields {
  [key: string]: AnyColumn | SQL | JsonFields;
}

/**
 * `json_build_object` over the fields, reading as the API writes them through node-postgres:
 * numerics (money, rates) as exact strings, times as UTC ISO strings with milliseconds.
 */
export function jsonObject(fields: JsonFields): SQL {
  const pairs = Object.entries(fields).map(([key, value]) => {
    if (!/^[a-z_]+$/.test(key)) throw new Error(`not a field name: ${key}`);
    return sql`${sql.raw(`'${key}'`)}, ${jsonValue(value)}`;
  });
  return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
}

/** A moment as the API writes it: a UTC ISO string with milliseconds, whatever the session's time zone. */
export const isoMoment = (value: SQLWrapper) =>
  sql<string>`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

function jsonValue(value: AnyColumn | SQL | JsonFields): SQL | AnyColumn {
  if (is(value, PgNumeric)) return sql`${value}::text`;
  if (is(value, PgTimestamp)) return isoMoment(value);
  if (is(value, Column) || is(value, SQL)) return value;
  return jsonObject(value);
}

/**
 * Runs `work` with PostgreSQL reusing one plan for each prepared statement whatever its values, then
 * puts the setting back. For a statement whose every part reads an index on keys it is given, so one
 * plan fits all values, yet whose planning costs more than its run: PostgreSQL's own choice keeps
 * planning such a statement anew when the plan it would keep looks costlier on paper. `settings`
 * (other settings `work` needs, to the end of the transaction) go in the same round trip.
 */
export async function withGenericPlans<T>(
  tx: Transaction,
  work: () => Promise<T>,
  settings: Record<string, string> = {},
): Promise<T> {
  const others = Object.entries(settings).map(([name, value]) => sql`, set_config(${name}, ${value}, true)`);
  // Read before it is set: a select list is evaluated in order.
  const { rows } = await tx.execute<{ mode: string }>(
    sql`select current_setting('plan_cache_mode') as mode, set_config('plan_cache_mode', 'force_generic_plan', true)${sql.join(others)}`,
  );
  try {
    return await work();
  } finally {
    await tx.execute(sql`select set_config('plan_cache_mode', ${one(rows).mode}, true)`);
  }
}

/**
 * Holds a named lock until the transaction ends: whoever takes the same name next waits for it, so
 * work that must not interleave (numbering an agency's claims, changing its team) takes turns.
 */
export async function lockUntilCommit(tx: Transaction, name: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${name}::text, 0))`);
}
