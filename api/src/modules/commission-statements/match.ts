import { FUZZY_NAME_SIMILARITY, FUZZY_PREMIUM_TOLERANCE } from '@coverdesk/contract';
import { sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import type { StatementFileLine } from './read-lines.js';
import { statementLines } from './tables.js';

// A statement's lines saved and matched to the agency's policies of its insurer, a batch at a time:
// the job (runner.ts) calls these once per batch, each in a short transaction of its own, so that
// the work a batch costs, and the time it holds a connection, do not grow with the statement.

/** Lines written per statement: 8 values each, well under PostgreSQL's 65,535 parameters. */
const LINES_PER_INSERT = 2_000;

/** Saves lines of a statement; lines already saved (a batch run again after a crash) are kept. */
export async function saveLines(
  tx: Transaction,
  tenantId: string,
  statementId: string,
  lines: StatementFileLine[],
): Promise<void> {
  for (let start = 0; start < lines.length; start += LINES_PER_INSERT) {
    await tx
      .insert(statementLines)
      .values(
        lines.slice(start, start + LINES_PER_INSERT).map((line) => ({ tenantId, statementId, ...line })),
      )
      .onConflictDoNothing();
  }
}

/** The lines a batch matches: the statement's, from one line number to another. */
export interface LineRange {
  statementId: string;
  companyId: string;
  statementDate: string;
  first: number;
  last: number;
}

/**
 * Each line's policy of the insurer: by its number first, without case or punctuation ("ab 1003"
 * is "AB-1003"; of several terms under one number, the latest started by the line's date or the
 * statement's); then, for a line still without one, by the insured's name (trigram similarity) with
 * the premium within 1%, as a fuzzy match for the broker to confirm.
 */
export async function matchLines(tx: Transaction, range: LineRange): Promise<void> {
  const { statementId, companyId, statementDate } = range;
  // The batch's lines are found by the primary key's range. Each looks its policy up on its own (a
  // subquery, not a join of the lines with themselves): the planner knows nothing yet of lines
  // inserted a moment ago, and a join it thinks is of one line would go through every line for each.
  // Each condition compares stored keys with LEAKPROOF operators (db/search-columns.ts), so under
  // row-level security the policy and the customer are looked up in their indexes: a line costs
  // the same however long its statement is.
  const ofBatch = sql`l.statement_id = ${statementId}::uuid and l.line_number between ${range.first} and ${range.last}`;
  const markFound = (method: 'exact' | 'fuzzy') => sql`
    update statement_lines l set match_method = ${method}, confirmed = ${method === 'exact'},
      confidence = ${method === 'exact' ? sql`1` : sql`l.confidence`}
    where ${ofBatch} and l.policy_id is not null and l.match_method is null`;
  await tx.execute(sql`
    update statement_lines l set policy_id = (
      select p.id from policies p
      where p.tenant_id = l.tenant_id and p.company_id = ${companyId}::uuid and p.number_key = l.number_key
      order by p.start_date <= coalesce(l.transaction_date, ${statementDate}::date) desc, p.start_date desc
      limit 1)
    where ${ofBatch} and l.number_key <> '' and l.match_method is null`);
  await tx.execute(markFound('exact'));
  // The customers whose name holds the line's words about as well (`<%`, the index's operator, at
  // the same threshold) are the candidates; the name's whole similarity then decides.
  await tx.execute(
    sql`select set_config('pg_trgm.word_similarity_threshold', ${String(FUZZY_NAME_SIMILARITY)}, true)`,
  );
  await tx.execute(sql`
    update statement_lines l set (policy_id, confidence) = (
      select p.id, round(similarity(c.name_key, l.name_key)::numeric, 2) as score
      from customers c
      join policies p on p.tenant_id = c.tenant_id and p.customer_id = c.id and p.company_id = ${companyId}::uuid
      where c.tenant_id = l.tenant_id and l.name_key <% c.name_key
        and p.total_premium between l.premium - abs(l.premium) * ${FUZZY_PREMIUM_TOLERANCE}
          and l.premium + abs(l.premium) * ${FUZZY_PREMIUM_TOLERANCE}
        and similarity(c.name_key, l.name_key) >= ${FUZZY_NAME_SIMILARITY}
      order by score desc, p.start_date desc
      limit 1)
    where ${ofBatch} and l.policy_id is null and l.name_key <> '' and l.premium is not null`);
  await tx.execute(markFound('fuzzy'));
}
