import { type AnyColumn, asc, desc, type SQL, sql } from 'drizzle-orm';

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

/** `count(*)` as a JavaScript number. */
export const countRows = () => sql<number>`count(*)::int`;

/** The single row an INSERT ... RETURNING or a lookup by key must produce. */
export function one<Row>(rows: Row[]): Row {
  const [row] = rows;
  if (row === undefined) throw new Error('expected one row, got none');
  return row;
}
