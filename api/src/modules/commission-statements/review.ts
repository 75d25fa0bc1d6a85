import type { StatementDuplicate, StatementLineResolution } from '@coverdesk/contract';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.js';
import { conflict } from '../../http/errors.js';
import { commissionStatements, statementLines } from './tables.js';

// Reviewing a statement before it is accepted: its typed total corrected, its unmatched lines
// resolved, and its lines that repeat an accepted statement's shown before they are paid twice.

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The statement's lines with the policy, amount and transaction date of a line of an accepted
 * statement of the agency, whatever its file: the insurer may have sent the same payment again. A
 * line without a transaction date repeats nothing, as a regular payment of the same amount would.
 * Each line once, with the earliest accepted line it repeats.
 */
export async function duplicateLines(tx: Transaction, id: string) {
  const { rows } = await tx.execute<StatementDuplicate>(sql`
    select distinct on (l.line_number) l.line_number, l.policy_id, p.policy_number,
      l.paid_commission::text, l.transaction_date::text,
      s.id as accepted_statement_id, s.statement_date::text as accepted_statement_date,
      s.file_name as accepted_file_name, a.line_number as accepted_line_number
    from statement_lines l
    join statement_lines a on a.tenant_id = l.tenant_id and a.policy_id = l.policy_id
      and a.paid_commission = l.paid_commission and a.transaction_date = l.transaction_date
      and a.statement_id <> l.statement_id
    join commission_statements s on s.tenant_id = a.tenant_id and s.id = a.statement_id and s.status = 'accepted'
    join policies p on p.tenant_id = l.tenant_id and p.id = l.policy_id
    where l.statement_id = ${id}::uuid
    order by l.line_number, s.statement_date, s.created_at, a.line_number`);
  return rows;
}

/** 409 naming the duplicated lines, unless the broker said to accept them anyway. */
export async function refuseDuplicates(tx: Transaction, id: string) {
  const duplicates = await duplicateLines(tx, id);
  if (duplicates.length === 0) return;
  throw conflict({
    code: 'duplicate_lines',
    detail: `${plural(duplicates.length, 'line repeats', 'lines repeat')} a line of an accepted statement (same policy, amount and transaction date): check ${duplicates.length === 1 ? 'it' : 'them'}, then accept anyway if the insurer paid ${duplicates.length === 1 ? 'it' : 'them'} again.`,
    duplicates,
  });
}

/** A line with no policy that the broker has neither marked as not ours nor written off. */
const unresolvedLine = and(isNull(statementLines.policyId), isNull(statementLines.resolution));

/** 409 naming how many unmatched lines still wait for the broker. */
export async function refuseUnresolved(tx: Transaction, id: string) {
  const [row] = await tx
    .select({ unresolved: count() })
    .from(statementLines)
    .where(and(eq(statementLines.statementId, id), unresolvedLine));
  const unresolved = row?.unresolved ?? 0;
  if (unresolved > 0) {
    throw conflict({
      detail: `${plural(unresolved, 'unmatched line is', 'unmatched lines are')} unresolved: match each to a policy, mark it not ours, or write it off with the reason before accepting.`,
    });
  }
}

/** The statement's typed total, corrected in review; answers what it was. */
export async function correctTotal(tx: Transaction, id: string, totalAmount: string) {
  const [before] = await tx
    .select({ totalAmount: commissionStatements.totalAmount })
    .from(commissionStatements)
    .where(eq(commissionStatements.id, id));
  await tx.update(commissionStatements).set({ totalAmount }).where(eq(commissionStatements.id, id));
  return before?.totalAmount ?? null;
}

/**
 * Marks an unmatched line as not ours or written off, or (null) takes the mark back. A matched line
 * answers 409: its policy says where the money went.
 */
export async function setResolution(
  tx: Transaction,
  id: string,
  line: { lineNumber: number; policyId: string | null },
  resolution: { resolution: StatementLineResolution; reason: string } | null,
) {
  if (resolution && line.policyId) {
    throw conflict({
      detail:
        'This line is matched to a policy: clear its policy before marking it not ours or writing it off.',
    });
  }
  await tx
    .update(statementLines)
    .set({ resolution: resolution?.resolution ?? null, resolutionReason: resolution?.reason ?? '' })
    .where(and(eq(statementLines.statementId, id), eq(statementLines.lineNumber, line.lineNumber)));
}
