import { LEAD_STATUS_LABELS, type LeadStatus } from '@coverdesk/contract';
import { Badge } from '@mantine/core';

/**
 * The pipeline's colours follow the policy badges (UI.md): open stages in blues and violet as they
 * advance, won green, lost red.
 */
export const LEAD_STATUS_COLORS: Record<LeadStatus, string> = {
  new: 'blue',
  contacted: 'cyan',
  qualified: 'indigo',
  quoted: 'violet',
  won: 'green',
  lost: 'red',
};

export function LeadStatusBadge({ status }: { status: LeadStatus }) {
  return (
    <Badge color={LEAD_STATUS_COLORS[status]} miw="max-content">
      {LEAD_STATUS_LABELS[status]}
    </Badge>
  );
}
