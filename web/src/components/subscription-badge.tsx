import type { SubscriptionState } from '@coverdesk/contract';
import { Badge } from '@mantine/core';

/** Each subscription state's name and colour, wherever a state is shown. */
export const SUBSCRIPTION_STATES: Record<SubscriptionState['status'], { label: string; color: string }> = {
  trial: { label: 'Trial', color: 'blue' },
  active: { label: 'Active', color: 'green' },
  past_due: { label: 'Past due', color: 'yellow' },
  paused: { label: 'Paused', color: 'gray' },
  cancelled: { label: 'Cancelled', color: 'red' },
  expired: { label: 'Expired', color: 'red' },
};

export function SubscriptionBadge({ status }: { status: SubscriptionState['status'] }) {
  const { label, color } = SUBSCRIPTION_STATES[status];
  return (
    <Badge color={color} variant="light">
      {label}
    </Badge>
  );
}
