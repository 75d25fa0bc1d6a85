import { CLAIM_STATUS_LABELS, type ClaimStatus } from '@coverdesk/contract';
import { Badge } from '@mantine/core';

/**
 * The colour meanings of policies and payments (UI.md): new blue, waiting on the insurer yellow,
 * approved teal, rejected red, paid green, closed grey.
 */
export const CLAIM_STATUS_COLORS: Record<ClaimStatus, string> = {
  open: 'blue',
  in_review: 'yellow',
  approved: 'teal',
  rejected: 'red',
  paid: 'green',
  closed: 'gray',
};

export function ClaimStatusBadge({ status }: { status: ClaimStatus }) {
  return (
    <Badge color={CLAIM_STATUS_COLORS[status]} miw="max-content">
      {CLAIM_STATUS_LABELS[status]}
    </Badge>
  );
}
