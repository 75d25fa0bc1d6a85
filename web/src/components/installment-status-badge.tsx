import type { Installment } from '@coverdesk/contract';
import { Badge } from '@mantine/core';

/** Paid green, partially paid yellow, overdue red, due blue (UI.md). */
export function InstallmentStatusBadge({ installment }: { installment: Installment }) {
  if (installment.status === 'paid') return <Badge color="green">Paid</Badge>;
  if (installment.is_overdue) return <Badge color="red">Overdue</Badge>;
  if (installment.status === 'partially_paid') return <Badge color="yellow">Partially paid</Badge>;
  return <Badge color="blue">Due</Badge>;
}
