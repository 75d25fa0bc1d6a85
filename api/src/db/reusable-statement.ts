import { is, Placeholder, type Query, type SQLWrapper } from 'drizzle-orm';
import { PgDialect, QueryBuilder } from 'drizzle-orm/pg-core';
import { namedCache } from './bounded-cache.js';
import type { Executor } from './client.js';

const dialect = new PgDialect();

/** Builds the statements: they are written once, outside any transaction, and only their text is kept. */
export const statementBuilder = new QueryBuilder();

/**
 * A statement built once per shape and run with each request's values, for the queries every page
 * view runs: building a large query with drizzle cost the server more time than PostgreSQL took to
 * run it. The shape is everything that changes the statement's text (which filters are set, the
 * sort, the page size) and nothing else; it is also the cache key, written out as JSON, so the key
 * cannot leave out anything `build` reads. `build` takes every value through
 * `sql.placeholder(name)`; a built statement holding a value of its own would replay it for other
 * requests, so it is refused. Each call site's statements are a cache of their own, named for the
 * admin's cache screen: `cache` names it and says what it holds.
 */
export function reusableStatement<Shape, Row>(
  cache: { name: string; description: string },
  build: (shape: Shape) => SQLWrapper,
) {
  const built = namedCache<string, Query>(cache.name, cache.description, 500);
  return async (executor: Executor, shape: Shape, values: Record<string, unknown>): Promise<Row[]> => {
    const query = built.get(JSON.stringify(shape), () => {
      const written = dialect.sqlToQuery(build(shape).getSQL());
      if (!written.params.every((param) => is(param, Placeholder))) {
        throw new Error('a reusable statement takes every value through a placeholder');
      }
      return written;
    });
    const result = await executor._.session.prepareQuery(query, undefined, undefined, false).execute(values);
    return (result as { rows: Row[] }).rows;
  };
}

/**
 * The filters a request sets, and which of them are set, read from one object: an empty one, like
 * `?search=`, filters nothing and counts as absent. A statement's shape takes `set` and its values
 * take `filters`, so the statement a shape finds in the cache always has the values it expects.
 */
export function setFilters<Query extends object, Field extends keyof Query & string>(
  query: Query,
  fields: readonly Field[],
): { filters: Partial<Pick<Query, Field>>; set: Record<Field, boolean> } {
  const filters = Object.fromEntries(
    fields.flatMap((field) => {
      const given = query[field];
      return given === undefined || given === '' ? [] : [[field, given]];
    }),
  ) as Partial<Pick<Query, Field>>;
  const set = Object.fromEntries(fields.map((field) => [field, field in filters])) as Record<Field, boolean>;
  return { filters, set };
}
