import { sql } from 'drizzle-orm';
import type { Database, Transaction } from './client.js';

/**
 * Reads across every agency, for the platform admin's figures: a read-only transaction in which the
 * connecting role may see all tenant rows (the platform_read policy of the platform-read migration).
 * Never for a request of one agency: those go through `withTenant`.
 */
export function readAcrossAgencies<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return db.transaction(
    async (tx) => {
      await tx.execute(sql`select set_config('app.platform_read', 'on', true)`);
      return work(tx);
    },
    { accessMode: 'read only' },
  );
}
