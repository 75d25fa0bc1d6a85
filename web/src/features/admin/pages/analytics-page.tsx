import type { AdminAnalytics, AGENCY_USAGE_ORDERINGS, AgencyUsage } from '@coverdesk/contract';
import { AreaChart } from '@mantine/charts';
import { Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconBuildingStore } from '@tabler/icons-react';
import { ChartCard } from '../../../components/charts/chart-card.js';
import { formatCount } from '../../../components/charts/chart-format.js';
import { FigureTable } from '../../../components/charts/figure-table.js';
import { type Column, DataList } from '../../../components/data-list.js';
import { FiveFigures, FiveFiguresSkeleton } from '../../../components/five-figures.js';
import { ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState, ErrorState } from '../../../components/page-states.js';
import { SubscriptionBadge } from '../../../components/subscription-badge.js';
import { formatCounted, formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { useListParams } from '../../../lib/list-params.js';
import { useDevice } from '../../../lib/viewport.js';
import { useAgencyUsage, usePlatformAnalytics } from '../figures-api.js';

const NO_FILTERS = [] as const;
const DEFAULT_ORDERING: (typeof AGENCY_USAGE_ORDERINGS)[number] = 'policies';

/** Feature usage across agencies: what they keep in Coverdesk, and how many people sign in each day. */
export function Component() {
  const analytics = usePlatformAnalytics();
  return (
    <Stack maw={1200}>
      {analytics.isPending ? (
        <>
          <FiveFiguresSkeleton />
          <Skeleton h={300} radius="md" />
        </>
      ) : analytics.isError ? (
        <ErrorState
          title="The platform's usage could not be loaded"
          error={analytics.error}
          onRetry={() => void analytics.refetch()}
        />
      ) : (
        <Usage analytics={analytics.data} />
      )}
      <AgencyList />
    </Stack>
  );
}

/** "Nov 26" for a day of the chart. */
const dayLabel = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

function Usage({ analytics }: { analytics: AdminAnalytics }) {
  const { totals, active_users: days } = analytics;
  const device = useDevice();
  const points = days.map((day) => ({
    label: dayLabel.format(new Date(`${day.day}T00:00:00Z`)),
    users: day.users,
  }));
  const peak = Math.max(0, ...days.map((day) => day.users));
  const lastWeek = days.slice(-7);
  return (
    <>
      <FiveFigures
        label="Records across agencies"
        figures={[
          {
            label: 'Policies',
            value: formatCount(totals.policies),
            note: `${formatCounted(totals.agencies, 'agency', 'agencies')} on Coverdesk`,
          },
          { label: 'Customers', value: formatCount(totals.customers), note: 'Every agency’s customers' },
          { label: 'Leads', value: formatCount(totals.leads), note: 'Open and closed' },
          { label: 'Claims', value: formatCount(totals.claims), note: 'Reported on policies' },
          {
            label: 'Signed in today',
            value: formatCount(days.at(-1)?.users ?? 0),
            note: `Busiest day of 30: ${formatCount(peak)}`,
          },
        ]}
      />
      <ChartCard
        title="Active users per day"
        description="People who signed in each day over the last 30 days (UTC), each counted once a day"
        side
        empty={peak === 0 && 'Nobody has signed in over the last 30 days.'}
        chart={
          <AreaChart
            h={device === 'mobile' ? 200 : 240}
            data={points}
            dataKey="label"
            accessibilityLayer={false}
            series={[{ name: 'users', label: 'Users signed in', color: 'indigo.6' }]}
            valueFormatter={formatCount}
            yAxisProps={{ allowDecimals: false }}
            curveType="monotone"
          />
        }
        figures={
          <Stack gap={4}>
            <FigureTable
              caption="Users signed in, the last 7 days"
              rows={[...lastWeek].reverse()}
              rowKey={(day) => day.day}
              columns={[
                { header: 'Day', nowrap: true, render: (day) => formatDate(day.day) },
                { header: 'Users', numeric: true, render: (day) => formatCount(day.users) },
              ]}
            />
            <Text fz="xs" c="dimmed">
              The last 7 days; the chart draws all 30. A user counts on each day they signed in, from the
              audit log&apos;s sign-ins.
            </Text>
          </Stack>
        }
      />
    </>
  );
}

/** "1 policy", "3 policies". */
const counted = (value: number, one: string, many: string) =>
  `${formatCount(value)} ${value === 1 ? one : many}`;

const count = (value: (row: AgencyUsage) => number) => (row: AgencyUsage) => formatCount(value(row));

const columns: Column<AgencyUsage>[] = [
  { key: 'agency', header: 'Agency', sort: 'agency', render: (row) => row.agency },
  {
    key: 'plan',
    header: 'Plan',
    render: (row) =>
      row.status ? (
        <Group gap={6} wrap="nowrap">
          {row.plan}
          <SubscriptionBadge status={row.status} />
        </Group>
      ) : (
        '—'
      ),
  },
  {
    key: 'policies',
    header: 'Policies',
    sort: 'policies',
    numeric: true,
    render: count((row) => row.policies),
  },
  {
    key: 'customers',
    header: 'Customers',
    sort: 'customers',
    numeric: true,
    render: count((row) => row.customers),
  },
  { key: 'leads', header: 'Leads', sort: 'leads', numeric: true, render: count((row) => row.leads) },
  { key: 'claims', header: 'Claims', sort: 'claims', numeric: true, render: count((row) => row.claims) },
  { key: 'users', header: 'Users', sort: 'users', numeric: true, render: count((row) => row.users) },
];

/** Each agency's records, sortable by any count; the most policies first. */
function AgencyList() {
  const params = useListParams(NO_FILTERS, `-${DEFAULT_ORDERING}`);
  const agencies = useAgencyUsage(params.query);
  return (
    <Stack gap="sm" component="section" aria-labelledby="agency-usage">
      <Title order={2} fz="h4" id="agency-usage">
        Usage by agency
      </Title>
      <ListToolbar params={params} searchLabel="Search agency" />
      <DataList
        noun={{ one: 'agency', many: 'agencies' }}
        query={agencies}
        params={params}
        columns={columns}
        href={(row) => `/admin/tenants/${row.id}`}
        card={(row) => (
          <Stack gap={2}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Text fw={600}>{row.agency}</Text>
              {row.status && <SubscriptionBadge status={row.status} />}
            </Group>
            <Text fz="sm" c="dimmed" style={TABULAR_FIGURES}>
              {[
                counted(row.policies, 'policy', 'policies'),
                counted(row.customers, 'customer', 'customers'),
                counted(row.leads, 'lead', 'leads'),
                counted(row.claims, 'claim', 'claims'),
              ].join(' · ')}
            </Text>
          </Stack>
        )}
        empty={
          <EmptyState icon={IconBuildingStore} title="No agencies yet">
            Agencies appear here once they register, with how many policies, customers, leads and claims each
            keeps.
          </EmptyState>
        }
      />
    </Stack>
  );
}
