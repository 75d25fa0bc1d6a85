import type { AdminTenantRow } from '@coverdesk/contract';
import { Box, Group, Stack, Text } from '@mantine/core';
import { IconBuildingStore } from '@tabler/icons-react';
import { type Column, DataList } from '../../../components/data-list.js';
import { FilterSelect, ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState } from '../../../components/page-states.js';
import { SubscriptionBadge } from '../../../components/subscription-badge.js';
import { formatCounted, formatDate } from '../../../lib/format.js';
import { useListParams } from '../../../lib/list-params.js';
import { useAdminTenants, usePlans } from '../api.js';
import { STATUS_OPTIONS, termText } from '../components/labels.js';

const FILTERS = ['plan', 'status', 'include_demo'] as const;
const count = new Intl.NumberFormat('en-US').format;

/** The status badge at its full width: a squeezed table or card must not cut "Active" short. */
function Status({ status }: { status: NonNullable<AdminTenantRow['status']> }) {
  return (
    <Box miw="max-content">
      <SubscriptionBadge status={status} />
    </Box>
  );
}

/** When the agency's access next changes: the trial's end, or the paid period's. */
const termEnd = (row: AdminTenantRow) =>
  row.status === 'trial' ? row.trial_ends_at : (row.current_period_end ?? row.trial_ends_at);

const columns: Column<AdminTenantRow>[] = [
  {
    key: 'name',
    header: 'Agency and owner',
    sort: 'name',
    maxWidth: 280,
    render: (row) => (
      <>
        {row.name}
        <br />
        {/* An inline block keeps the link's underline off the owner's line. */}
        <Text component="span" fz="xs" fw={400} c="dimmed" display="inline-block">
          {row.owner_email ?? 'No owner'}
        </Text>
      </>
    ),
  },
  { key: 'plan', header: 'Plan', render: (row) => row.plan_name ?? 'None' },
  {
    key: 'status',
    header: 'Status',
    render: (row) => (row.status ? <Status status={row.status} /> : 'None'),
  },
  { key: 'ends', header: 'Ends', render: (row) => formatDate(termEnd(row)) },
  { key: 'users', header: 'Users', sort: 'users', numeric: true, render: (row) => count(row.user_count) },
  {
    key: 'policies',
    header: 'Policies',
    sort: 'policies',
    numeric: true,
    render: (row) => count(row.policy_count),
  },
  { key: 'customers', header: 'Customers', numeric: true, render: (row) => count(row.customer_count) },
  { key: 'created', header: 'Created', sort: 'created_at', render: (row) => formatDate(row.created_at) },
  {
    key: 'activity',
    header: 'Last active',
    render: (row) => (row.last_activity_at ? formatDate(row.last_activity_at) : 'Never'),
  },
];

/**
 * /admin/tenants: every agency, searched, filtered and sorted on the server; the demo agency only when
 * asked for, so the count agrees with the dashboard's.
 */
export function Component() {
  const params = useListParams(FILTERS, 'name');
  const tenants = useAdminTenants(params.query);
  const plans = usePlans();
  return (
    <Stack>
      <ListToolbar
        params={params}
        searchLabel="Search agencies or emails"
        filters={
          <>
            <FilterSelect
              params={params}
              name="plan"
              label="Plan"
              placeholder="Any plan"
              data={(plans.data ?? []).map((plan) => ({ value: plan.name, label: plan.display_name }))}
              width={150}
            />
            <FilterSelect
              params={params}
              name="status"
              label="Status"
              placeholder="Any status"
              data={STATUS_OPTIONS}
              width={150}
            />
            <FilterSelect
              params={params}
              name="include_demo"
              label="Demo agency"
              placeholder="Left out"
              data={[
                { value: 'false', label: 'Left out' },
                { value: 'true', label: 'Listed' },
              ]}
              width={150}
            />
          </>
        }
      />
      <DataList
        noun={{ one: 'agency', many: 'agencies' }}
        query={tenants}
        params={params}
        columns={columns}
        href={(row) => `/admin/tenants/${row.id}`}
        card={(row) => (
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Stack gap={2} miw={0}>
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {row.name}
              </Text>
              <Text fz="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {row.owner_email ?? 'No owner'}
              </Text>
              <Text fz="sm" c="dimmed">
                {row.plan_name ?? 'No plan'} · {formatCounted(row.user_count, 'user')} ·{' '}
                {formatCounted(row.policy_count, 'policy', 'policies')}
              </Text>
              {termText(row) && (
                <Text fz="sm" c="dimmed">
                  {termText(row)}
                </Text>
              )}
            </Stack>
            {row.status && <Status status={row.status} />}
          </Group>
        )}
        empty={
          <EmptyState icon={IconBuildingStore} title="No agencies yet">
            Agencies appear here as soon as someone registers one.
          </EmptyState>
        }
      />
    </Stack>
  );
}
