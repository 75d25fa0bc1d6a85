import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverUrl } from '../../test/database.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { BoundedCache } from './bounded-cache.js';
import { MAX_PREPARED_PER_CONNECTION } from './prepared-statements.js';
import { reusableStatement } from './reusable-statement.js';

const SUMS = { name: 'test-sums', description: 'Sums and differences' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('statements built once per shape', () => {
  it('builds each shape once and runs it with every call’s own values', async () => {
    const shapes: string[] = [];
    const statement = reusableStatement<'sum' | 'difference', { result: number }>(SUMS, (shape) => {
      shapes.push(shape);
      const operator = shape === 'sum' ? sql`+` : sql`-`;
      return sql`select (${sql.placeholder('a')}::int ${operator} ${sql.placeholder('b')}::int) as result`;
    });
    expect(await statement(t.database.db, 'sum', { a: 2, b: 3 })).toEqual([{ result: 5 }]);
    expect(await statement(t.database.db, 'sum', { a: 10, b: 20 })).toEqual([{ result: 30 }]);
    expect(await statement(t.database.db, 'difference', { a: 10, b: 20 })).toEqual([{ result: -10 }]);
    expect(shapes).toEqual(['sum', 'difference']);
  });

  it('refuses a statement that would keep a value of one call for the next', async () => {
    const statement = reusableStatement<string, unknown>(
      { name: 'test-kept-value', description: 'A statement keeping a value of its own' },
      () => sql`select ${'a value written into the statement'}::text`,
    );
    await expect(statement(t.database.db, 'first', {})).rejects.toThrow(/placeholder/);
  });

  it('forgets the oldest entries past its limit', () => {
    const cache = new BoundedCache<number, string>(2);
    const made: number[] = [];
    const get = (key: number) =>
      cache.get(key, () => {
        made.push(key);
        return `value ${key}`;
      });
    expect([get(1), get(2), get(1), get(3), get(1)]).toEqual([
      'value 1',
      'value 2',
      'value 1',
      'value 3',
      'value 1',
    ]);
    // 1 was the oldest when 3 came in, so it was made again.
    expect(made).toEqual([1, 2, 3, 1]);
    expect({ hits: cache.hits, misses: cache.misses, size: cache.size }).toEqual({
      hits: 1,
      misses: 4,
      size: 2,
    });
    cache.clear();
    expect({ hits: cache.hits, misses: cache.misses, size: cache.size }).toEqual({
      hits: 0,
      misses: 0,
      size: 0,
    });
  });

  it.skipIf(serverUrl === undefined)(
    'keeps a bounded number of statements prepared on a PostgreSQL connection',
    async () => {
      const client = await t.database.pool.connect();
      try {
        for (let n = 0; n < MAX_PREPARED_PER_CONNECTION + 20; n++) {
          const { rows } = await client.query({ text: `select $1::int + ${n} as total`, values: [1] });
          expect(rows).toEqual([{ total: n + 1 }]);
        }
        const prepared = await client.query('select count(*)::int as count from pg_prepared_statements');
        expect(prepared.rows[0].count).toBeLessThanOrEqual(MAX_PREPARED_PER_CONNECTION);
        expect(prepared.rows[0].count).toBeGreaterThan(MAX_PREPARED_PER_CONNECTION - 20);
      } finally {
        client.release();
      }
    },
  );
});
