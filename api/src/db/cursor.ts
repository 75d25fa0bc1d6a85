import { type SQLWrapper, sql } from 'drizzle-orm';
import type { Transaction } from './client.js';

/**
 * The rows of a cursor the transaction declared, fetched `batchRows` at a time until it runs out:
 * an export of any size holds one batch in memory and reads one consistent view. The cursor ends
 * with its transaction.
 */
export async function* fetchInBatches<Row>(
  tx: Transaction,
  cursor: string,
  batchRows: number,
): AsyncGenerator<Row[]> {
  if (!/^[a-z_]+$/.test(cursor)) throw new Error(`not a cursor name: ${cursor}`);
  if (!Number.isSafeInteger(batchRows) || batchRows < 1) throw new Error(`not a batch size: ${batchRows}`);
  const fetch = sql`fetch forward ${sql.raw(String(batchRows))} from ${sql.raw(cursor)}`;
  for (;;) {
    const fetched = await tx.execute<Record<string, unknown>>(fetch);
    if (fetched.rows.length > 0) yield fetched.rows as Row[];
    if (fetched.rows.length < batchRows) return;
  }
}

/** Rows per fetch of a list's export: what one batch holds in memory. */
export const EXPORT_BATCH_ROWS = 500;

/** `declare <cursor> no scroll cursor for <query>`: `query` selects one JSON column, `row`. */
export const declareCursor = (cursor: string, query: SQLWrapper) =>
  sql`declare ${sql.raw(cursor)} no scroll cursor for ${query}`;

/**
 * A list's export, in the list's order, a batch at a time. `query` is the select of `row`s, or a
 * function that declares the cursor itself (as a reusable statement does). One per transaction.
 */
export async function* exportRows<Row>(
  tx: Transaction,
  cursor: string,
  query: SQLWrapper | (() => Promise<unknown>),
  batchRows = EXPORT_BATCH_ROWS,
): AsyncGenerator<Row[]> {
  if (typeof query === 'function') await query();
  else await tx.execute(declareCursor(cursor, query));
  for await (const batch of fetchInBatches<{ row: Row }>(tx, cursor, batchRows)) {
    yield batch.map(({ row }) => row);
  }
}
