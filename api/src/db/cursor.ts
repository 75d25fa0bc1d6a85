import { sql } from 'drizzle-orm';
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
