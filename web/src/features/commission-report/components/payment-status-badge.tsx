import { COMMISSION_PAYMENT_STATUS_LABELS, type CommissionPaymentStatus } from '@coverdesk/contract';
import { Badge } from '@mantine/core';

/** The customer's payments on a policy, in the colours of instalments everywhere (UI.md). */
const COLORS: Record<CommissionPaymentStatus, string> = {
  Paid: 'green',
  Partial: 'yellow',
  Overdue: 'red',
  Pending: 'blue',
};

export function PaymentStatusBadge({ status }: { status: CommissionPaymentStatus }) {
  return (
    <Badge color={COLORS[status]} miw="max-content">
      {COMMISSION_PAYMENT_STATUS_LABELS[status]}
    </Badge>
  );
}
