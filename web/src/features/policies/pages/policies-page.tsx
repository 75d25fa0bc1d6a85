import { POLICY_STATUS_LABELS, POLICY_STATUSES, type Policy } from '@coverdesk/contract';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconFileCertificate, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { type Column, DataList } from '../../../components/data-list.js';
import { ExportMenu } from '../../../components/export-menu.js';
import { FilterSelect, InsurerAndTypeFilters, ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState } from '../../../components/page-states.js';
import { PolicyStatusBadge } from '../../../components/policy-status-badge.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { useInsurerChoices } from '../../../lib/insurer-choices.js';
import { useListParams } from '../../../lib/list-params.js';
import { Money } from '../../../lib/money.js';
import { useCan } from '../../../lib/use-can.js';
import { MineFilter, useBulkReassign } from '../../team/components/assignee.js';
import { usePolicies } from '../api.js';

const FILTERS = [
  'status',
  'company_id',
  'policy_type_id',
  'customer_id',
  'expiring_within_days',
  'assigned_to',
] as const;
const STATUS_OPTIONS = POLICY_STATUSES.map((value) => ({ value, label: POLICY_STATUS_LABELS[value] }));
const EXPIRING_OPTIONS = ['30', '60', '90'].map((days) => ({ value: days, label: `Within ${days} days` }));

const columns: Column<Policy>[] = [
  { key: 'number', header: 'Policy', sort: 'policy_number', render: (policy) => policy.policy_number },
  { key: 'customer', header: 'Customer', render: (policy) => policy.customer_name },
  {
    key: 'insurer',
    header: 'Insurer and type',
    render: (policy) => (
      <div>
        <Text fz="sm">{policy.company_name}</Text>
        <Text fz="xs" c="dimmed">
          {policy.policy_type_name}
        </Text>
      </div>
    ),
  },
  {
    key: 'term',
    header: 'Term',
    sort: 'start_date',
    // Start above end, like the insurer above the type: a row stays two lines high.
    render: (policy) => (
      <div>
        <Text fz="sm">{formatDate(policy.start_date)}</Text>
        <Text fz="xs" c="dimmed">
          to {formatDate(policy.end_date)}
        </Text>
      </div>
    ),
  },
  {
    key: 'premium',
    header: 'Premium',
    sort: 'total_premium',
    numeric: true,
    render: (policy) => <Money amount={policy.total_premium} />,
  },
  {
    key: 'paid',
    header: 'Paid',
    numeric: true,
    render: (policy) => `${policy.installments_paid}/${policy.total_installments}`,
  },
  {
    key: 'commission',
    header: 'Earned on customer payments',
    numeric: true,
    render: (policy) => (
      <div>
        <Text fz="sm">
          <Money amount={policy.received_commission} />
        </Text>
        <Text fz="xs" c="dimmed">
          of <Money amount={policy.expected_commission} />
        </Text>
      </div>
    ),
  },
  { key: 'status', header: 'Status', render: (policy) => <PolicyStatusBadge status={policy.status} /> },
];

export function Component() {
  const params = useListParams(FILTERS, '-start_date');
  const policies = usePolicies(params.query);
  const insurers = useInsurerChoices();
  const reassign = useBulkReassign<Policy>({
    kind: 'policy_ids',
    noun: { one: 'policy', many: 'policies' },
    name: (policy) => policy.policy_number,
  });
  const newPolicy = useCan('work') && (
    <Button component={Link} to="/policies/create" leftSection={<IconPlus size={16} aria-hidden />}>
      New policy
    </Button>
  );

  return (
    <Stack>
      <ListToolbar
        params={params}
        exportMenu={
          <ExportMenu
            path="/policies/export/"
            list="policies"
            query={params.exportQuery}
            disabled={policies.data?.count === 0}
          />
        }
        searchLabel="Search policy number or customer"
        action={reassign.actions(newPolicy)}
        filters={
          <>
            <MineFilter
              value={params.filters.assigned_to}
              onChange={(assigned_to) => params.set({ assigned_to })}
            />
            <FilterSelect
              params={params}
              name="status"
              label="Status"
              placeholder="Any status"
              data={STATUS_OPTIONS}
              width={140}
            />
            <InsurerAndTypeFilters params={params} insurers={insurers.data} />
            <FilterSelect
              params={params}
              name="expiring_within_days"
              label="Expiring"
              placeholder="Any time"
              data={EXPIRING_OPTIONS}
              width={150}
            />
          </>
        }
      />
      <DataList
        noun={{ one: 'policy', many: 'policies' }}
        query={policies}
        params={params}
        columns={reassign.columns(columns)}
        href={(policy) => `/policies/${policy.id}`}
        {...reassign.listProps}
        card={(policy) => (
          <Stack gap={2}>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600}>{policy.policy_number}</Text>
              <PolicyStatusBadge status={policy.status} />
            </Group>
            <Text fz="sm">{policy.customer_name}</Text>
            <Group justify="space-between" wrap="nowrap">
              <Text fz="sm" c="dimmed">
                {policy.company_name} · ends {formatDate(policy.end_date)}
              </Text>
              <Text fz="sm" fw={600} style={TABULAR_FIGURES}>
                <Money amount={policy.total_premium} />
              </Text>
            </Group>
          </Stack>
        )}
        empty={
          <EmptyState icon={IconFileCertificate} title="No policies yet" action={newPolicy}>
            Record each policy you sell once: Coverdesk splits its premium into instalments, tracks what the
            customer has paid and works out the commission it earns you.
          </EmptyState>
        }
      />
    </Stack>
  );
}
