import { COMMISSION_PAYMENT_METHOD_LABELS, type CommissionPaymentMethod } from '@coverdesk/contract';
import { Badge } from '@mantine/core';

export function PaymentMethodBadge({ method }: { method: CommissionPaymentMethod }) {
  return (
    <Badge color={method === 'pro_rata' ? 'cyan' : 'indigo'} variant="light">
      {COMMISSION_PAYMENT_METHOD_LABELS[method]}
    </Badge>
  );
}
