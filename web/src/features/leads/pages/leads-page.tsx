import { LEAD_SOURCE_LABELS, type Lead } from '@coverdesk/contract';
import { Button, Card, Group, SegmentedControl, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconPlus, IconTargetArrow } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { type Column, DataList } from '../../../components/data-list.js';
import { ExportMenu } from '../../../components/export-menu.js';
import { ImportButton } from '../../../components/import-button.js';
import { FilterSelect, ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState } from '../../../components/page-states.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { useListParams } from '../../../lib/list-params.js';
import { Money } from '../../../lib/money.js';
import { useCan } from '../../../lib/use-can.js';
import { useDevice } from '../../../lib/viewport.js';
import { MineFilter, useBulkReassign } from '../../team/components/assignee.js';
import { useAssignees, useLeadStats, useLeads } from '../api.js';
import { LeadBoard } from '../components/lead-board.js';
import { LeadCardBody } from '../components/lead-card.js';
import {
  formatMoment,
  isOverdue,
  LEAD_FOLLOW_UP_OPTIONS,
  LEAD_SOURCE_OPTIONS,
  LEAD_STATUS_OPTIONS,
} from '../components/lead-labels.js';
import { LeadStatusBadge } from '../components/lead-status-badge.js';

const FILTERS = ['status', 'source', 'assigned_user_id', 'follow_up'] as const;
type View = 'table' | 'board';

const columns: Column<Lead>[] = [
  { key: 'name', header: 'Name', sort: 'name', render: (lead) => lead.display_name },
  {
    key: 'contact',
    header: 'Contact',
    render: (lead) => [lead.email, lead.phone].filter(Boolean).join(' · '),
  },
  { key: 'source', header: 'Source', render: (lead) => LEAD_SOURCE_LABELS[lead.source] },
  { key: 'interest', header: 'Interested in', render: (lead) => lead.policy_type_name },
  {
    key: 'premium',
    header: 'Est. premium',
    sort: 'estimated_premium',
    numeric: true,
    render: (lead) => (lead.estimated_premium ? <Money amount={lead.estimated_premium} /> : ''),
  },
  {
    key: 'follow_up',
    header: 'Next follow-up',
    sort: 'next_follow_up_at',
    render: (lead) =>
      lead.next_follow_up_at ? (
        <Text
          component="span"
          inherit
          c={isOverdue(lead) ? 'red.9' : undefined}
          fw={isOverdue(lead) ? 600 : undefined}
        >
          {isOverdue(lead) && 'Overdue: '}
          {formatMoment(lead.next_follow_up_at)}
        </Text>
      ) : (
        ''
      ),
  },
  { key: 'assignee', header: 'Assigned to', render: (lead) => lead.assigned_user_name },
  { key: 'added', header: 'Added', sort: 'created_at', render: (lead) => formatDate(lead.created_at) },
  {
    key: 'status',
    header: 'Status',
    sort: 'status',
    render: (lead) => <LeadStatusBadge status={lead.status} />,
  },
];

/** /leads: the pipeline as a table or as a board by status, with the same search and filters. */
export function Component() {
  const params = useListParams(FILTERS, '-created_at');
  const [search, setSearch] = useSearchParams();
  const view: View = search.get('view') === 'board' ? 'board' : 'table';
  const leads = useLeads(params.query, { enabled: view === 'table' });
  const assignees = useAssignees();
  const touch = useDevice() === 'mobile' ? 44 : undefined;
  const setView = (next: string) =>
    setSearch(
      (current) => {
        const url = new URLSearchParams(current);
        if (next === 'board') url.set('view', 'board');
        else url.delete('view');
        return url;
      },
      { replace: true },
    );
  const canWork = useCan('work');
  const reassign = useBulkReassign<Lead>({
    kind: 'lead_ids',
    noun: { one: 'lead', many: 'leads' },
    name: (lead) => lead.display_name,
    shown: view === 'table',
  });
  const newLead = (label: string) =>
    canWork && (
      <Button
        component={Link}
        to="/leads/create"
        leftSection={<IconPlus size={16} aria-hidden />}
        mih={touch}
      >
        {label}
      </Button>
    );
  // The board's columns are the statuses; every other filter narrows them too.
  const { status: _status, ...boardFilters } = params.filters;
  const boardQuery: Record<string, string> = {
    ...boardFilters,
    ...(params.search ? { search: params.search } : {}),
  };

  return (
    <Stack>
      <PipelineFigures />
      <ListToolbar
        params={params}
        exportMenu={
          <ExportMenu
            path="/leads/export/"
            list="leads"
            query={params.exportQuery}
            disabled={leads.data?.count === 0}
          />
        }
        searchLabel="Search leads"
        action={reassign.actions(
          <SegmentedControl
            aria-label="Show leads as"
            value={view}
            onChange={setView}
            data={[
              { value: 'table', label: 'Table' },
              { value: 'board', label: 'Board' },
            ]}
          />,
          <ImportButton kind="leads" />,
          newLead('New lead'),
        )}
        filters={
          <>
            <MineFilter
              value={params.filters.assigned_user_id}
              onChange={(assigned_user_id) => params.set({ assigned_user_id })}
            />
            {view === 'table' && (
              <FilterSelect
                params={params}
                name="status"
                label="Status"
                placeholder="Any status"
                data={LEAD_STATUS_OPTIONS}
                width={140}
              />
            )}
            <FilterSelect
              params={params}
              name="source"
              label="Source"
              placeholder="Any source"
              data={LEAD_SOURCE_OPTIONS}
              width={140}
            />
            <FilterSelect
              params={params}
              name="assigned_user_id"
              label="Assigned to"
              placeholder="Anyone"
              data={(assignees.data ?? []).map((user) => ({
                value: user.id,
                label: user.name || user.email,
              }))}
              width={170}
            />
            <FilterSelect
              params={params}
              name="follow_up"
              label="Follow-up"
              placeholder="Any time"
              data={LEAD_FOLLOW_UP_OPTIONS}
              width={150}
            />
          </>
        }
      />
      {view === 'board' ? (
        <LeadBoard filters={boardQuery} />
      ) : (
        <DataList
          noun={{ one: 'lead', many: 'leads' }}
          query={leads}
          params={params}
          columns={reassign.columns(columns)}
          href={(lead) => `/leads/${lead.id}`}
          {...reassign.listProps}
          card={(lead) => (
            <Group justify="space-between" wrap="nowrap" gap="sm" align="flex-start">
              <LeadCardBody lead={lead} />
              <LeadStatusBadge status={lead.status} />
            </Group>
          )}
          empty={
            <EmptyState icon={IconTargetArrow} title="No leads yet" action={newLead('Add your first lead')}>
              Leads are the people and businesses who may buy from you. Note where each one came from and when
              to call back, move them along as the conversation goes, and turn the ones who sign into
              customers.
            </EmptyState>
          }
        />
      )}
    </Stack>
  );
}

/** The open pipeline and how many closed leads were won lately. */
function PipelineFigures() {
  const stats = useLeadStats();
  if (stats.isError) return null;
  const figures = stats.data && [
    { label: 'Open leads', value: String(stats.data.open_count) },
    { label: 'Open pipeline', value: <Money amount={stats.data.open_pipeline_premium} /> },
    {
      label: 'Conversion, last 30 days',
      value:
        stats.data.conversion_rate === null
          ? 'No leads closed'
          : `${stats.data.conversion_rate}% (${stats.data.won_in_period} won of ${stats.data.won_in_period + stats.data.lost_in_period} closed)`,
    },
  ];
  return (
    <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
      {(figures ?? [0, 1, 2]).map((figure) =>
        typeof figure === 'number' ? (
          <Skeleton key={figure} h={64} />
        ) : (
          <Card key={figure.label} withBorder padding="sm">
            <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
              {figure.label}
            </Text>
            <Text fz="lg" fw={700} style={TABULAR_FIGURES}>
              {figure.value}
            </Text>
          </Card>
        ),
      )}
    </SimpleGrid>
  );
}
