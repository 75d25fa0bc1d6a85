import { type AdminUser, SUBSCRIPTION_STATUSES, type SubscriptionState } from '@coverdesk/contract';
import { Badge, Group } from '@mantine/core';
import { SUBSCRIPTION_STATES } from '../../../components/subscription-badge.js';
import { formatCounted, formatDate } from '../../../lib/format.js';

export const STATUS_OPTIONS = SUBSCRIPTION_STATUSES.map((status) => ({
  value: status,
  label: SUBSCRIPTION_STATES[status].label,
}));

/** The account's flags as badges: what it may do, and whether it may sign in at all. */
export function UserFlags({ user }: { user: AdminUser }) {
  return (
    <Group gap={4} wrap="nowrap">
      {user.disabled_at && (
        <Badge color="red" variant="light">
          Disabled
        </Badge>
      )}
      {user.is_admin && (
        <Badge color="violet" variant="light">
          Admin
        </Badge>
      )}
      {user.is_owner && (
        <Badge color="blue" variant="light">
          Owner
        </Badge>
      )}
      {user.is_demo_user && (
        <Badge color="gray" variant="light">
          Demo
        </Badge>
      )}
    </Group>
  );
}

/** "Noa Peretz", or the email when the account has no name. */
export const personName = (user: Pick<AdminUser, 'first_name' | 'last_name' | 'email'>) =>
  `${user.first_name} ${user.last_name}`.trim() || user.email;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When the agency's trial or paid period ends, and how far off that is: "Trial ends Dec 10, 2026 ·
 * 14 days left", "Paid period ended Nov 2, 2026". Null without a subscription or an end.
 */
export function termText(
  terms: {
    status: SubscriptionState['status'] | null;
    trial_ends_at: string | null;
    current_period_end: string | null;
  },
  now = Date.now(),
): string | null {
  if (!terms.status) return null;
  const trial = terms.status === 'trial';
  // A paying agency's old trial end says nothing about it: without a period end it has no term.
  const end = trial ? terms.trial_ends_at : terms.current_period_end;
  if (!end) return null;
  const what = trial ? 'Trial' : 'Paid period';
  const days = Math.ceil((new Date(end).getTime() - now) / DAY_MS);
  if (days < 0) return `${what} ended ${formatDate(end)}`;
  return `${what} ends ${formatDate(end)} · ${days === 0 ? 'last day' : `${formatCounted(days, 'day')} left`}`;
}
