import { sql } from 'drizzle-orm';
import type { Database, Transaction } from './client.js';
import { one } from './query-helpers.js';

/** The role tenant-scoped transactions run as; created without BYPASSRLS by the migrations. */
export const APP_ROLE = 'coverdesk_app';

/**
 * The role of a transaction that shows a member only their own book: a member of APP_ROLE, and the
 * only role the `own_book` policies apply to, so every other transaction is planned without them
 * (migration `own-book-role`).
 */
export const BOOK_ROLE = 'coverdesk_book';

/**
 * Scopes an open transaction to one agency: row-level security then shows and accepts only that
 * tenant's rows, whatever the query forgets, and the agency's time zone makes `current_date` its own
 * day (which policies are active, which instalments overdue). The statement's privileges are checked
 * before it runs, as the connecting role, so it may still read the agency's time zone while it
 * switches role. The settings end with the transaction.
 *
 * A request's statements run without parallel workers: they read one agency's indexes or kept
 * totals in a few milliseconds, and on a two-core server starting two workers took 50 ms to save 2
 * (the dashboard's overdue total), while ten requests at once already keep every core busy.
 */
export async function enterTenant(
  tx: Transaction,
  tenantId: string,
  { bookMember }: TenantOptions = {},
): Promise<void> {
  const { rows } = await tx.execute<{ book_member: string }>(
    sql`select set_config('app.tenant_id', ${tenantId}, true), set_config('role', ${APP_ROLE}, true),
      set_config('timezone', coalesce((select time_zone from tenants where id = ${tenantId}::uuid), 'UTC'), true),
      set_config('max_parallel_workers_per_gather', '0', true),
      ${
        bookMember
          ? sql`(select ${bookMember}::text from tenants where id = ${tenantId}::uuid and agents_see_own_book)`
          : sql`null`
      } as book_member`,
  );
  const member = rows[0]?.book_member;
  if (member) await seeBook(tx, member);
}

/**
 * Shows the transaction the member's own book, or with null the agency's whole book again. The
 * `own_book` row-level security policies (migrations `own-book`, `own-book-role`) apply to BOOK_ROLE
 * alone and keep the customers assigned to `app.book_member` and what hangs off those; the schema
 * own_book, first on the search path, holds views of the kept totals summed over that book alone
 * under the names of the agency's (migration `own-book-totals`), so every figure reads the member's
 * book through the same statements.
 */
async function seeBook(tx: Transaction, member: string | null): Promise<void> {
  await tx.execute(
    sql`select set_config('app.book_member', ${member ?? ''}, true),
      set_config('role', ${member ? BOOK_ROLE : APP_ROLE}, true),
      set_config('search_path', ${member ? 'own_book, public' : 'public'}, true)`,
  );
  if (member) bookMembers.set(tx, member);
  else bookMembers.delete(tx);
}

export interface TenantOptions {
  /**
   * An agent: when the agency shows agents only their own book (`tenants.agents_see_own_book`), the
   * transaction sees only their own book (`seeBook`). Whether it does is read in the statement that
   * enters the agency; only such an agent's transaction spends a second statement on it.
   */
  bookMember?: string | undefined;
}

const bookMembers = new WeakMap<Transaction, string>();

/** The member whose own book the transaction sees, or null when it sees the agency's whole book. */
export const ownBookMember = (tx: Transaction): string | null => bookMembers.get(tx) ?? null;

const tenantRole = (tx: Transaction) => (ownBookMember(tx) ? BOOK_ROLE : APP_ROLE);

/**
 * Runs `work` seeing the agency's whole book, then returns to the member's own: for what must be
 * unique across the agency (the next claim number), never to answer rows.
 */
export async function withWholeBook<T>(tx: Transaction, work: () => Promise<T>): Promise<T> {
  const member = ownBookMember(tx);
  if (!member) return work();
  await seeBook(tx, null);
  try {
    return await work();
  } finally {
    await seeBook(tx, member);
  }
}

/** The one way to touch tenant-owned tables: a transaction scoped to the tenant. */
export function withTenant<T>(
  db: Database,
  tenantId: string,
  work: (tx: Transaction) => Promise<T>,
  options?: TenantOptions,
): Promise<T> {
  return db.transaction(async (tx) => {
    await enterTenant(tx, tenantId, options);
    return work(tx);
  });
}

/** The agency's today, "2026-11-23": its own time zone, which the tenant transaction set. */
export async function agencyToday(tx: Transaction): Promise<string> {
  const { rows } = await tx.execute<{ today: string }>(sql`select current_date::text as today`);
  return one(rows).today;
}

/**
 * Runs `work` as the role the app connects as, inside a tenant transaction, then returns to the tenant
 * role: for the few statements the tenant role may not run (sending a platform job, refreshing the
 * planner's statistics), never for reading or writing tenant rows.
 */
export async function asConnectingRole<T>(tx: Transaction, work: () => Promise<T>): Promise<T> {
  // Nested calls (a plan limit counted while the team is changed) keep the role until the outermost ends.
  const depth = connectingDepth.get(tx) ?? 0;
  if (depth === 0) await tx.execute(sql`select set_config('role', 'none', true)`);
  connectingDepth.set(tx, depth + 1);
  try {
    return await work();
  } finally {
    connectingDepth.set(tx, depth);
    if (depth === 0) await tx.execute(sql`select set_config('role', ${tenantRole(tx)}, true)`);
  }
}

const connectingDepth = new WeakMap<Transaction, number>();

/**
 * Brings the planner's statistics of tables a bulk write has just filled up to date, inside the
 * write's own transaction (ANALYZE counts the transaction's own new rows), before the statements that
 * read what it wrote. Without them, on a database never analysed (every new install) or for an agency
 * the statistics have not met yet, the planner guesses that an agency holds a few rows and reads all
 * of them again for each row written: an import's kept totals grew with the square of its policies.
 * ANALYZE holds a lock on each table until the transaction ends that only another ANALYZE (or
 * VACUUM) waits for, so two agencies' large imports finish one after the other.
 */
export async function refreshStatistics(tx: Transaction, tables: readonly string[]): Promise<void> {
  const names = tables.map((table) => sql.identifier(table));
  await asConnectingRole(tx, () => tx.execute(sql`analyze ${sql.join(names, sql`, `)}`));
}
