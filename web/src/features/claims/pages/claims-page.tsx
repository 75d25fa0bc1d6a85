import { CLAIM_STATUS_LABELS, CLAIM_STATUSES, CLAIM_TYPE_LABELS, type Claim } from '@coverdesk/contract';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus, IconShieldCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { type Column, DataList } from '../../../components/data-list.js';
import { ExportMenu } from '../../../components/export-menu.js';
import { FilterDate, FilterSelect, InsurerFilter, ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState } from '../../../components/page-states.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { useInsurerChoices } from '../../../lib/insurer-choices.js';
import { useListParams } from '../../../lib/list-params.js';
import { Money } from '../../../lib/money.js';
import { useCan } from '../../../lib/use-can.js';
import { MineFilter, useBulkReassign } from '../../team/components/assignee.js';
import { useClaims } from '../api.js';
import { ClaimAmountLine } from '../components/claim-amount-line.js';
import { ClaimStatsCards } from '../components/claim-stats.js';
import { ClaimStatusBadge } from '../components/claim-status-badge.js';

const FILTERS = [
  'status',
  'company_id',
  'customer_id',
  'policy_id',
  'incident_date_from',
  'incident_date_to',
  'assigned_to',
] as const;
const STATUS_OPTIONS = CLAIM_STATUSES.map((value) => ({ value, label: CLAIM_STATUS_LABELS[value] }));

const columns: Column<Claim>[] = [
  {
    key: 'number',
    header: 'Claim',
    sort: 'claim_number',
    render: (claim) => claim.claim_number,
  },
  {
    key: 'customer',
    header: 'Customer and policy',
    render: (claim) => (
      <div>
        <Text fz="sm">{claim.customer.name}</Text>
        <Text fz="xs" c="dimmed">
          {claim.policy.policy_number} · {claim.company_name}
        </Text>
      </div>
    ),
  },
  {
    key: 'incident',
    header: 'Incident',
    sort: 'incident_date',
    render: (claim) => (
      <div>
        <Text fz="sm">{formatDate(claim.incident_date)}</Text>
        <Text fz="xs" c="dimmed">
          {CLAIM_TYPE_LABELS[claim.claim_type]}
        </Text>
      </div>
    ),
  },
  {
    key: 'reported',
    header: 'Reported',
    sort: 'reported_date',
    render: (claim) => formatDate(claim.reported_date),
  },
  {
    key: 'claimed',
    header: 'Claimed',
    sort: 'amount_claimed',
    numeric: true,
    render: (claim) => <Money amount={claim.amount_claimed} />,
  },
  {
    key: 'approved',
    header: 'Approved',
    numeric: true,
    render: (claim) => (claim.amount_approved === null ? '—' : <Money amount={claim.amount_approved} />),
  },
  {
    key: 'paid',
    header: 'Paid by insurer',
    numeric: true,
    render: (claim) => (claim.amount_paid === '0.00' ? '—' : <Money amount={claim.amount_paid} />),
  },
  { key: 'status', header: 'Status', render: (claim) => <ClaimStatusBadge status={claim.status} /> },
];

/** /claims: every claim of the agency, searched and filtered, with the way to report a new one. */
export function Component() {
  const params = useListParams(FILTERS, '-reported_date');
  const claims = useClaims(params.query);
  // The figures follow the search and filters, not the status: they are counted by status.
  const { status, ...statsFilters } = params.filters;
  const statsQuery: Record<string, string> = params.search
    ? { ...statsFilters, search: params.search }
    : statsFilters;
  const insurers = useInsurerChoices();
  const reassign = useBulkReassign<Claim>({
    kind: 'claim_ids',
    noun: { one: 'claim', many: 'claims' },
    name: (claim) => claim.claim_number,
  });
  const newClaim = useCan('work') && (
    <Button component={Link} to="/claims/create" leftSection={<IconPlus size={16} aria-hidden />}>
      New claim
    </Button>
  );

  return (
    <Stack>
      <ClaimStatsCards query={statsQuery} statusFiltered={status !== undefined} />
      <ListToolbar
        params={params}
        exportMenu={
          <ExportMenu
            path="/claims/export/"
            list="claims"
            query={params.exportQuery}
            disabled={claims.data?.count === 0}
          />
        }
        searchLabel="Search claim, customer or policy"
        action={reassign.actions(newClaim)}
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
            <InsurerFilter params={params} insurers={insurers.data} />
            <FilterDate params={params} name="incident_date_from" label="Incident from" />
            <FilterDate params={params} name="incident_date_to" label="Incident to" />
          </>
        }
      />
      <DataList
        noun={{ one: 'claim', many: 'claims' }}
        query={claims}
        params={params}
        columns={reassign.columns(columns)}
        href={(claim) => `/claims/${claim.id}`}
        {...reassign.listProps}
        card={(claim) => (
          <Stack gap={2}>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600}>{claim.claim_number}</Text>
              <ClaimStatusBadge status={claim.status} />
            </Group>
            <Text fz="sm">
              {claim.customer.name} · {claim.policy.policy_number}
            </Text>
            <Group justify="space-between" wrap="nowrap">
              <Text fz="sm" c="dimmed">
                {CLAIM_TYPE_LABELS[claim.claim_type]} · {formatDate(claim.incident_date)}
              </Text>
              <Text fz="sm" fw={600} style={TABULAR_FIGURES}>
                <ClaimAmountLine claim={claim} />
              </Text>
            </Group>
          </Stack>
        )}
        empty={
          <EmptyState icon={IconShieldCheck} title="No claims yet" action={newClaim}>
            Report a claim against the policy it is made on, then follow it from review to the insurer's
            payment: every status change and note is kept on its timeline.
          </EmptyState>
        }
      />
    </Stack>
  );
}
