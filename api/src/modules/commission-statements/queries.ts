import {
  type CommissionStatement,
  type CommissionStatementDetail,
  STATEMENT_LINES_PAGE_SIZE,
  type StatementLine,
  type StatementStatus,
  type statementDetailQuery,
} from '@coverdesk/contract';
import { and, count, desc, eq, gte, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Transaction } from '../../db/client.js';
import { one } from '../../db/query-helpers.js';
import { conflict, notFound } from '../../http/errors.js';
import { companies } from '../companies/tables.js';
import { insurerReceipts, policies } from '../policies/tables.js';
import { matchLines, saveLines } from './match.js';
import { missingPolicies } from './missing.js';
import { owedOn } from './owed.js';
import type { StatementFileLine } from './read-lines.js';
import { duplicateLines, refuseDuplicates, refuseUnresolved } from './review.js';
import { commissionStatements, statementLines, statementMappings } from './tables.js';

// A statement's lines matched to the agency's policies of its insurer, and each compared, to the
// cent, with what the insurer still owed on the policy when the line was reached.

export interface NewStatement {
  companyId: string;
  statementDate: string;
  totalAmount: string;
  fileName: string;
  fileSha256: string;
  /** Null for the demo's own. */
  uploadedBy: string | null;
}

/** The insurer's remembered column choices. */
export async function savedMapping(
  tx: Transaction,
  companyId: string,
): Promise<Record<string, string | null>> {
  const [row] = await tx
    .select({ columns: statementMappings.columns })
    .from(statementMappings)
    .where(eq(statementMappings.companyId, companyId));
  return row?.columns ?? {};
}

/** The statement's insurer, or 404 (another agency's is not there, under row-level security). */
export async function requireCompany(tx: Transaction, companyId: string) {
  const [company] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
  if (!company) throw notFound('No insurer of your agency with this id.');
  return company;
}

/**
 * Saves the statement, `processing` until its lines are read and matched, and the insurer's column
 * choices: 409 for a file already uploaded for the insurer. Answers the new statement's id.
 */
export async function insertStatement(
  tx: Transaction,
  tenantId: string,
  statement: NewStatement,
  mapping: Record<string, string | null>,
  status: 'processing' | 'review' = 'processing',
): Promise<string> {
  const [earlier] = await tx
    .select({ statementDate: commissionStatements.statementDate })
    .from(commissionStatements)
    .where(
      and(
        eq(commissionStatements.companyId, statement.companyId),
        eq(commissionStatements.fileSha256, statement.fileSha256),
      ),
    );
  if (earlier) {
    throw conflict({
      detail: `This file was already uploaded for this insurer, as the statement of ${earlier.statementDate}.`,
    });
  }
  const { id } = one(
    await tx
      .insert(commissionStatements)
      .values({ tenantId, ...statement, status })
      .returning({ id: commissionStatements.id }),
  );
  await tx
    .insert(statementMappings)
    .values({ tenantId, companyId: statement.companyId, columns: mapping })
    .onConflictDoUpdate({
      target: [statementMappings.tenantId, statementMappings.companyId],
      set: { columns: mapping },
    });
  return id;
}

/** Saves a statement of a few lines and matches them at once (the demo's own). */
export async function createStatement(
  tx: Transaction,
  tenantId: string,
  statement: NewStatement,
  lines: StatementFileLine[],
  mapping: Record<string, string | null>,
): Promise<string> {
  const id = await insertStatement(tx, tenantId, statement, mapping, 'review');
  await saveLines(tx, tenantId, id, lines);
  await matchLines(tx, {
    statementId: id,
    companyId: statement.companyId,
    statementDate: statement.statementDate,
    first: 0,
    last: Math.max(0, ...lines.map((line) => line.lineNumber)),
  });
  return id;
}

const statementColumns = {
  id: commissionStatements.id,
  company_id: commissionStatements.companyId,
  company_name: companies.name,
  statement_date: commissionStatements.statementDate,
  file_name: commissionStatements.fileName,
  status: commissionStatements.status,
  total_amount: commissionStatements.totalAmount,
  lines_total: sql<string>`(select coalesce(sum(paid_commission), 0)::numeric(14, 2)::text from statement_lines
    where statement_id = ${commissionStatements.id})`,
  line_count: sql<number>`(select count(*)::int from statement_lines where statement_id = ${commissionStatements.id})`,
  reading: sql<CommissionStatement['reading']>`(select json_build_object('line_total', r.line_total,
      'lines_done', r.lines_done, 'detail', r.detail)
    from statement_readings r where r.tenant_id = ${commissionStatements.tenantId}
      and r.statement_id = ${commissionStatements.id})`,
  created_at: commissionStatements.createdAt,
  accepted_at: commissionStatements.acceptedAt,
};

const toStatement = (row: {
  created_at: Date;
  accepted_at: Date | null;
}): Omit<CommissionStatement, 'created_at' | 'accepted_at'> & {
  created_at: string;
  accepted_at: string | null;
} =>
  ({
    ...row,
    created_at: row.created_at.toISOString(),
    accepted_at: row.accepted_at?.toISOString() ?? null,
  }) as CommissionStatement;

export async function listStatements(
  tx: Transaction,
  query: { company_id?: string | undefined; status?: string | undefined; page: number; page_size: number },
) {
  const where = and(
    query.company_id ? eq(commissionStatements.companyId, query.company_id) : undefined,
    query.status ? eq(commissionStatements.status, query.status as StatementStatus) : undefined,
  );
  const [total] = await tx.select({ count: count() }).from(commissionStatements).where(where);
  const rows = await tx
    .select(statementColumns)
    .from(commissionStatements)
    .innerJoin(companies, eq(companies.id, commissionStatements.companyId))
    .where(where)
    .orderBy(desc(commissionStatements.statementDate), desc(commissionStatements.createdAt))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  return { count: total?.count ?? 0, results: rows.map(toStatement) };
}

/** A statement whose lines a job is still reading, or could not read, has no lines to review yet. */
export function refuseUnread(statement: { status: StatementStatus }) {
  if (statement.status === 'processing') {
    throw conflict({ detail: 'This statement is still being read and matched: wait for it to finish.' });
  }
  if (statement.status === 'failed') {
    throw conflict({ detail: 'This statement could not be read: delete it and upload the file again.' });
  }
}

/** The statement, or 404; with `lock`, held against a concurrent accept or reopen. */
export async function requireStatement(tx: Transaction, id: string, { lock = false } = {}) {
  const query = tx
    .select(statementColumns)
    .from(commissionStatements)
    .innerJoin(companies, eq(companies.id, commissionStatements.companyId))
    .where(eq(commissionStatements.id, id));
  const [row] = lock ? await query.for('update', { of: commissionStatements }) : await query;
  if (!row) throw notFound('No commission statement of your agency with this id.');
  return toStatement(row);
}

/**
 * The statement's lines with what the insurer owed on each and its outcome. With `lineNumber`, that
 * line alone, reading only the lines on its policy, which what it was owed depends on.
 */
async function linesOf(tx: Transaction, id: string, date: string, lineNumber?: number) {
  const wanted =
    lineNumber === undefined
      ? sql``
      : sql`and (l.line_number = ${lineNumber} or l.policy_id = (select policy_id from statement_lines
          where statement_id = ${id}::uuid and line_number = ${lineNumber}))`;
  const { rows } = await tx.execute<StatementLine>(sql`
    with owed as (
      select * from (${owedOn(id, date)}) owed
      where owed.id in (select l.policy_id from statement_lines l where l.statement_id = ${id}::uuid ${wanted})
    ),
    reached as (
      select l.*, owed.policy_number, owed.customer_id, owed.customer_name, owed.cancelled,
        owed.owed - coalesce(sum(l.paid_commission) over (partition by l.policy_id order by l.line_number
          rows between unbounded preceding and 1 preceding), 0) as expected
      from statement_lines l left join owed on owed.id = l.policy_id
      where l.statement_id = ${id}::uuid ${wanted}
    )
    select line_number, raw_policy_number, insured_name, premium::text, transaction_date::text,
      transaction_type, policy_id, policy_number, customer_id, customer_name, match_method, confidence::text, confirmed,
      round(expected, 2)::text as expected_commission, paid_commission::text,
      round(paid_commission - expected, 2)::text as difference,
      case when policy_id is null then 'unmatched'
        when paid_commission < 0 and cancelled then 'chargeback'
        when round(paid_commission - expected, 2) = 0 then 'matched'
        when paid_commission < expected then 'short_paid'
        else 'over_paid' end as outcome,
      note, resolution, resolution_reason
    from reached ${lineNumber === undefined ? sql`` : sql`where line_number = ${lineNumber}`}
    order by line_number`);
  return rows;
}

type StatementDetailQuery = z.output<typeof statementDetailQuery>;

const unconfirmed = (line: StatementLine) => line.match_method === 'fuzzy' && !line.confirmed;
const unresolved = (line: StatementLine) => line.policy_id === null && line.resolution === null;
/** The filters that are no outcome of their own. */
const LINE_FILTERS: Partial<Record<string, (line: StatementLine) => boolean>> = { unconfirmed, unresolved };

/** One line of the statement as the statement's read shows it, or 404. */
export async function readLine(
  tx: Transaction,
  statement: { id: string; statement_date: string },
  lineNumber: number,
) {
  const [line] = await linesOf(tx, statement.id, statement.statement_date, lineNumber);
  if (!line) throw notFound('No line with this number on the statement.');
  return line;
}

/** The statement with every line's outcome, the counts, and the insurer's policies it left out. */
export async function readStatement(
  tx: Transaction,
  id: string,
  {
    lock = false,
    outcome,
    page = 1,
    page_size = STATEMENT_LINES_PAGE_SIZE,
  }: { lock?: boolean } & Partial<StatementDetailQuery> = {},
): Promise<CommissionStatementDetail> {
  const statement = await requireStatement(tx, id, { lock });
  const date = statement.statement_date;
  const counts = { matched: 0, short_paid: 0, over_paid: 0, chargeback: 0, unmatched: 0, missing: 0 };
  // Still being read, or its reading failed: its progress alone, without working out outcomes of
  // lines a job is still saving (the review screen polls this every second).
  if (statement.reading) {
    return {
      ...statement,
      counts,
      unconfirmed: 0,
      unresolved: 0,
      duplicates: [],
      lines_matching: 0,
      lines: [],
      missing: [],
    };
  }
  const lines = await linesOf(tx, id, date);
  const missing = await missingPolicies(tx, id, statement.company_id, date);
  counts.missing = missing.count;
  for (const line of lines) counts[line.outcome] += 1;
  const kept = !outcome ? lines : lines.filter(LINE_FILTERS[outcome] ?? ((line) => line.outcome === outcome));
  return {
    ...statement,
    counts,
    unconfirmed: lines.filter(unconfirmed).length,
    unresolved: lines.filter(unresolved).length,
    duplicates: await duplicateLines(tx, id),
    lines_matching: kept.length,
    lines: kept.slice((page - 1) * page_size, page * page_size),
    missing: missing.policies,
  };
}

/** A line matched by name and premium that the broker has not yet confirmed. */
const awaitingConfirmation = and(
  eq(statementLines.matchMethod, 'fuzzy'),
  eq(statementLines.confirmed, false),
);

/** Confirms the statement's fuzzy matches at least `minConfidence` sure; answers how many. */
export async function confirmMatches(tx: Transaction, id: string, minConfidence: string) {
  const confirmed = await tx
    .update(statementLines)
    .set({ confirmed: true })
    .where(
      and(
        eq(statementLines.statementId, id),
        awaitingConfirmation,
        gte(statementLines.confidence, minConfidence),
      ),
    )
    .returning({ line: statementLines.lineNumber });
  return confirmed.length;
}

/**
 * Records what the insurer paid on each matched line, in one statement: refused (409) while the
 * typed total differs from the lines', a fuzzy match waits for the broker, an unmatched line is
 * unresolved, or (unless `acknowledgeDuplicates`) a line repeats an accepted statement's. `userId` is
 * who accepted it, null for the demo's own.
 */
export async function acceptStatement(
  tx: Transaction,
  tenantId: string,
  id: string,
  userId: string | null,
  { acknowledgeDuplicates = false } = {},
) {
  // The statement's own figures suffice: its outcomes, which a read works out, change nothing here.
  const statement = await requireStatement(tx, id, { lock: true });
  if (statement.status === 'accepted') throw conflict({ detail: 'This statement is already accepted.' });
  refuseUnread(statement);
  const [waiting] = await tx
    .select({ unconfirmed: count() })
    .from(statementLines)
    .where(and(eq(statementLines.statementId, id), awaitingConfirmation));
  const unconfirmed = waiting?.unconfirmed ?? 0;
  if (statement.total_amount !== statement.lines_total) {
    throw conflict({
      detail: `The statement's total is ${statement.total_amount} but its lines add up to ${statement.lines_total}. Correct the total before accepting.`,
    });
  }
  if (unconfirmed > 0) {
    throw conflict({
      detail: `${unconfirmed} ${unconfirmed === 1 ? 'line was' : 'lines were'} matched by name and premium: confirm or change ${unconfirmed === 1 ? 'it' : 'them'} before accepting.`,
    });
  }
  await refuseUnresolved(tx, id);
  if (!acknowledgeDuplicates) await refuseDuplicates(tx, id);
  await tx.execute(sql`
    insert into insurer_receipts (id, tenant_id, policy_id, statement_id, line_number, amount, received_on)
    select gen_random_uuid(), ${tenantId}::uuid, policy_id, statement_id, line_number, paid_commission,
      ${statement.statement_date}::date
    from statement_lines where statement_id = ${id}::uuid and policy_id is not null`);
  await tx
    .update(commissionStatements)
    .set({ status: 'accepted', acceptedAt: new Date(), acceptedBy: userId })
    .where(eq(commissionStatements.id, id));
}

/** Takes an accepted statement back to review, removing its receipts. */
export async function reopenStatement(tx: Transaction, id: string) {
  const statement = await requireStatement(tx, id, { lock: true });
  if (statement.status !== 'accepted')
    throw conflict({ detail: 'Only an accepted statement can be reopened.' });
  await tx.delete(insurerReceipts).where(eq(insurerReceipts.statementId, id));
  await tx
    .update(commissionStatements)
    .set({ status: 'review', acceptedAt: null, acceptedBy: null })
    .where(eq(commissionStatements.id, id));
}

/** A line, or 404. */
export async function requireLine(tx: Transaction, id: string, lineNumber: number) {
  const [line] = await tx
    .select()
    .from(statementLines)
    .where(and(eq(statementLines.statementId, id), eq(statementLines.lineNumber, lineNumber)));
  if (!line) throw notFound('No line with this number on the statement.');
  return line;
}

/** The insurer's policy a broker matches a line to, or 404. */
export async function requireInsurerPolicy(tx: Transaction, companyId: string, policyId: string) {
  const [policy] = await tx
    .select({ id: policies.id })
    .from(policies)
    .where(and(eq(policies.id, policyId), eq(policies.companyId, companyId)));
  if (!policy) throw notFound("No policy of this statement's insurer with this id.");
  return policy;
}
