import { INSTALLMENT_STATUS_LABELS, type Installment } from '@coverdesk/contract';
import { Badge } from '@mantine/core';

/** Paid green, partially paid yellow, overdue red, due blue, cancelled with its policy grey (UI.md). */
export function InstallmentStatusBadge({ installment }: { installment: Installment }) {
  if (installment.status === 'cancelled')
    return (
      <Badge color="gray" miw="max-content">
        {INSTALLMENT_STATUS_LABELS.cancelled}
      </Badge>
    );
  if (installment.status === 'paid')
    return (
      <Badge color="green" miw="max-content">
        {INSTALLMENT_STATUS_LABELS.paid}
      </Badge>
    );
  if (installment.is_overdue)
    return (
      <Badge color="red" miw="max-content">
        {INSTALLMENT_STATUS_LABELS.overdue}
      </Badge>
    );
  if (installment.status === 'partially_paid')
    return (
      <Badge color="yellow" miw="max-content">
        {INSTALLMENT_STATUS_LABELS.partially_paid}
      </Badge>
    );
  return (
    <Badge color="blue" miw="max-content">
      {INSTALLMENT_STATUS_LABELS.pending}
    </Badge>
  );
}
