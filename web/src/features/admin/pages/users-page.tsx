import { ADMIN_USER_STATES, type AdminUser } from '@coverdesk/contract';
import { Group, Stack, Text } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { type Column, DataList } from '../../../components/data-list.js';
import { FilterSelect, ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState } from '../../../components/page-states.js';
import { formatDate } from '../../../lib/format.js';
import { useListParams } from '../../../lib/list-params.js';
import { useAdminUsers } from '../api.js';
import { personName, UserFlags } from '../components/labels.js';
import { UserActions } from '../components/user-actions.js';

const FILTERS = ['state'] as const;
const STATE_LABELS: Record<(typeof ADMIN_USER_STATES)[number], string> = {
  active: 'Can sign in',
  disabled: 'Disabled accounts',
  admin: 'Platform admins',
  owner: 'Agency owners',
};

const columns: Column<AdminUser>[] = [
  {
    key: 'email',
    header: 'Email',
    sort: 'email',
    minWidth: 280,
    maxWidth: 360,
    render: (user) => user.email,
  },
  { key: 'name', header: 'Name', maxWidth: 180, render: personName },
  { key: 'agency', header: 'Agency', sort: 'agency', maxWidth: 220, render: (user) => user.agency_name },
  { key: 'flags', header: 'Role', maxWidth: 320, render: (user) => <UserFlags user={user} /> },
  {
    key: 'last_login',
    header: 'Last sign-in',
    sort: 'last_login',
    render: (user) => (user.last_login ? formatDate(user.last_login) : 'Never'),
  },
  { key: 'joined', header: 'Joined', sort: 'date_joined', render: (user) => formatDate(user.date_joined) },
  { key: 'actions', header: 'Actions', render: (user) => <UserActions user={user} /> },
];

/** /admin/users: everyone who signs in to Coverdesk, and what an admin may do about their account. */
export function Component() {
  const params = useListParams(FILTERS, 'email');
  const users = useAdminUsers(params.query);
  return (
    <Stack>
      <ListToolbar
        params={params}
        searchLabel="Search by email, name or agency"
        filters={
          <FilterSelect
            params={params}
            name="state"
            label="Show"
            placeholder="Everyone"
            data={ADMIN_USER_STATES.map((state) => ({ value: state, label: STATE_LABELS[state] }))}
            width={170}
          />
        }
      />
      <DataList
        noun={{ one: 'user', many: 'users' }}
        query={users}
        params={params}
        columns={columns}
        // A person is seen within their agency, where the admin finds their colleagues and plan too.
        href={(user) => `/admin/tenants/${user.tenant_id}`}
        card={(user) => (
          <Stack gap={2} miw={0}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {user.email}
            </Text>
            <Text fz="sm" c="dimmed">
              {personName(user)} · {user.agency_name}
            </Text>
            <Group gap="xs">
              <UserFlags user={user} />
              <Text fz="xs" c="dimmed">
                Last sign-in {user.last_login ? formatDate(user.last_login) : 'never'}
              </Text>
            </Group>
          </Stack>
        )}
        cardAction={(user) => <UserActions user={user} />}
        cardActionBeside
        empty={
          <EmptyState icon={IconUsers} title="No users yet">
            People appear here when they register an agency.
          </EmptyState>
        }
      />
    </Stack>
  );
}
