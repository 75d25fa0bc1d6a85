import {
  STATEMENT_OUTCOME_LABELS,
  type StatementLine,
  type StatementLineOutcome,
  type StatementStatus,
} from '@coverdesk/contract';
import { Badge } from '@mantine/core';

export const OUTCOME_COLORS: Record<StatementLineOutcome | 'missing', string> = {
  matched: 'green',
  short_paid: 'yellow',
  over_paid: 'blue',
  chargeback: 'grape',
  unmatched: 'red',
  missing: 'orange',
};

export function OutcomeBadge({ outcome }: { outcome: StatementLineOutcome | 'missing' }) {
  return (
    <Badge color={OUTCOME_COLORS[outcome]} variant="light" miw="max-content">
      {STATEMENT_OUTCOME_LABELS[outcome]}
    </Badge>
  );
}

export const STATUS_LABELS: Record<StatementStatus, string> = {
  processing: 'Reading',
  review: 'In review',
  accepted: 'Accepted',
  failed: 'Could not be read',
};

const STATUS_COLORS: Record<StatementStatus, string> = {
  processing: 'gray',
  review: 'blue',
  accepted: 'green',
  failed: 'red',
};

export function StatementStatusBadge({ status }: { status: StatementStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} miw="max-content">
      {STATUS_LABELS[status]}
    </Badge>
  );
}

/** How the line found its policy; a fuzzy match shows how sure it is, and whether it is confirmed. */
export function MethodBadge({ line }: { line: StatementLine }) {
  if (!line.match_method) return null;
  if (line.match_method === 'fuzzy') {
    const percent = Math.round(Number(line.confidence ?? '0') * 100);
    return (
      <Badge
        color={line.confirmed ? 'gray.7' : 'yellow'}
        variant={line.confirmed ? 'outline' : 'light'}
        miw="max-content"
      >
        {line.confirmed ? `Fuzzy ${percent}% · confirmed` : `Fuzzy ${percent}%`}
      </Badge>
    );
  }
  return (
    <Badge color="gray.7" variant="outline" miw="max-content">
      {line.match_method === 'exact' ? 'By number' : 'Chosen'}
    </Badge>
  );
}
