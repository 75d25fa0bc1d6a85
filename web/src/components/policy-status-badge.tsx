import type { PolicyStatus } from '@coverdesk/contract';
import { Badge } from '@mantine/core';

/** One colour per status everywhere (UI.md): active green, pending blue, expired grey, cancelled red, renewed violet. */
const COLORS: Record<PolicyStatus, string> = {
  active: 'green',
  pending: 'blue',
  expired: 'gray',
  cancelled: 'red',
  renewed: 'violet',
};

export const POLICY_STATUS_LABELS: Record<PolicyStatus, string> = {
  active: 'Active',
  pending: 'Pending',
  expired: 'Expired',
  cancelled: 'Cancelled',
  renewed: 'Renewed',
};

export function PolicyStatusBadge({ status }: { status: PolicyStatus }) {
  return <Badge color={COLORS[status]}>{POLICY_STATUS_LABELS[status]}</Badge>;
}
