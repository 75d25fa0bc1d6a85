import { type AdminUser, SUBSCRIPTION_STATUSES } from '@coverdesk/contract';
import { Badge, Group } from '@mantine/core';
import { SUBSCRIPTION_STATES } from '../../../components/subscription-badge.js';

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
