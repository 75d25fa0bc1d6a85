import type { CommissionPaymentStatus } from '@coverdesk/contract';
import { Badge } from '@mantine/core';

/** The customer's payments on a policy, in the colours of instalments everywhere (UI.md). */
const COLORS: Record<CommissionPaymentStatus, string> = {
  Paid: 'green',
  Partial: 'yellow',
  Overdue: 'red',
  Pending: 'blue',
};

export const PAYMENT_STATUS_LABELS: Record<CommissionPaymentStatus, string> = {
  Paid: 'Paid',
  Partial: 'Partially paid',
  Overdue: 'Overdue',
  Pending: 'Nothing paid yet',
};

export function PaymentStatusBadge({ status }: { status: CommissionPaymentStatus }) {
  return (
    <Badge color={COLORS[status]} miw="max-content">
      {PAYMENT_STATUS_LABELS[status]}
    </Badge>
  );
}
