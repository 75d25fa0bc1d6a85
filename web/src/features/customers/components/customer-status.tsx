import { CUSTOMER_STATUS_LABELS, type CustomerStatus } from '@coverdesk/contract';
import { Badge } from '@mantine/core';

/** Active customers are the ones you are insuring now; inactive ones keep their history. */
export function CustomerStatusBadge({ status }: { status: CustomerStatus }) {
  // A badge otherwise shrinks to "ACT…" in a crowded table row.
  return (
    <Badge color={status === 'active' ? 'green' : 'gray'} miw="max-content">
      {CUSTOMER_STATUS_LABELS[status]}
    </Badge>
  );
}
