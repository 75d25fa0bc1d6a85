import { POLICY_STATUS_LABELS, type PolicyStatus } from '@coverdesk/contract';
import { Badge } from '@mantine/core';

/** One colour per status everywhere (UI.md): active green, pending blue, expired grey, cancelled red, renewed violet. */
const COLORS: Record<PolicyStatus, string> = {
  active: 'green',
  pending: 'blue',
  expired: 'gray',
  cancelled: 'red',
  renewed: 'violet',
};

export function PolicyStatusBadge({ status }: { status: PolicyStatus }) {
  // Never shortened to "PENDI…" in a narrow table column.
  return (
    <Badge color={COLORS[status]} miw="max-content">
      {POLICY_STATUS_LABELS[status]}
    </Badge>
  );
}
