import { type AdminDashboard, type Health, PLAN_CURRENCY } from '@coverdesk/contract';
import { BarChart } from '@mantine/charts';
import { Anchor, Badge, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ChartCard, FigureCard } from '../../../components/charts/chart-card.js';
import { formatCount, formatMonth } from '../../../components/charts/chart-format.js';
import { FigureTable } from '../../../components/charts/figure-table.js';
import { FiveFigures, FiveFiguresSkeleton } from '../../../components/five-figures.js';
import { ErrorState } from '../../../components/page-states.js';
import { api } from '../../../lib/api-client.js';
import { formatMoney } from '../../../lib/format.js';
import { ApiError } from '../../../lib/http.js';
import { useDevice } from '../../../lib/viewport.js';
import { SubscriptionStates } from '../components/subscription-states.js';
import { usePlatformDashboard } from '../figures-api.js';

const SIGN_UPS = 'indigo.6';
const CHURNED = 'red.7';

/** The admin portal's first screen: the platform's agencies, subscriptions and revenue, and its health. */
export function Component() {
  const dashboard = usePlatformDashboard();
  return (
    <Stack maw={1200}>
      {dashboard.isPending ? (
        <>
          <FiveFiguresSkeleton />
          <Skeleton h={320} radius="md" />
        </>
      ) : dashboard.isError ? (
        <ErrorState
          title="The platform's figures could not be loaded"
          error={dashboard.error}
          onRetry={() => void dashboard.refetch()}
        />
      ) : (
        <PlatformFigures dashboard={dashboard.data} />
      )}
      <PlatformHealth />
    </Stack>
  );
}

function PlatformFigures({ dashboard }: { dashboard: AdminDashboard }) {
  const { agencies, subscriptions, months } = dashboard;
  const device = useDevice();
  const quiet = months.every((month) => month.sign_ups === 0 && month.churned === 0);
  const points = months.map((month) => ({ ...month, label: formatMonth(month.month, true) }));
  return (
    <>
      <FiveFigures
        label="Platform figures"
        figures={[
          {
            // As the agencies list counts them by default: the demo agency is left out, as the note says
            // (in the label it wrapped, and put this figure a line below the others).
            label: 'Agencies',
            value: formatCount(agencies.total),
            note: `${formatCount(agencies.new_this_month)} new this month · demo not counted`,
          },
          {
            label: 'Active subscriptions',
            value: formatCount(subscriptions.active),
            note: `${formatCount(subscriptions.past_due)} past due`,
          },
          {
            label: 'Trials',
            value: formatCount(subscriptions.trial),
            note: 'Agencies trying Coverdesk',
          },
          {
            label: 'MRR',
            value: formatMoney(dashboard.mrr, PLAN_CURRENCY),
            note: (
              <Anchor component={Link} to="/admin/revenue-analytics" fz="xs">
                Monthly recurring revenue
              </Anchor>
            ),
          },
          {
            label: 'Open tickets',
            value: formatCount(dashboard.open_tickets),
            note: (
              <Anchor component={Link} to="/admin/support" fz="xs">
                Waiting in the support inbox
              </Anchor>
            ),
          },
        ]}
      />
      <FigureCard
        title="Subscriptions by state"
        description={
          <>
            Every agency's subscription as it stands now;{' '}
            <Anchor component={Link} to="/admin/billing" fz="sm">
              past-due payments and billing events
            </Anchor>{' '}
            are on Billing.
          </>
        }
      >
        <SubscriptionStates counts={subscriptions} />
      </FigureCard>
      <ChartCard
        title="Sign-ups and churn"
        description="Agencies that signed up each month, and subscriptions that ended (cancelled, or a trial or period that ran out), over the last 12 months"
        side
        empty={quiet && 'No agency signed up and no subscription ended in the last 12 months.'}
        chart={
          <BarChart
            h={device === 'mobile' ? 220 : 280}
            data={points}
            dataKey="label"
            accessibilityLayer={false}
            series={[
              { name: 'sign_ups', label: 'Sign-ups', color: SIGN_UPS },
              { name: 'churned', label: 'Ended', color: CHURNED },
            ]}
            valueFormatter={formatCount}
            yAxisProps={{ allowDecimals: false }}
            withLegend
            legendProps={{ verticalAlign: 'bottom', itemSorter: null }}
          />
        }
        figures={
          <FigureTable
            caption="Sign-ups and ended subscriptions by month"
            rows={months}
            rowKey={(month) => month.month}
            columns={[
              { header: 'Month', nowrap: true, render: (month) => formatMonth(month.month) },
              {
                header: 'Sign-ups',
                numeric: true,
                render: (month) => formatCount(month.sign_ups),
              },
              { header: 'Ended', numeric: true, render: (month) => formatCount(month.churned) },
            ]}
            total={[
              'Total',
              formatCount(months.reduce((sum, month) => sum + month.sign_ups, 0)),
              formatCount(months.reduce((sum, month) => sum + month.churned, 0)),
            ]}
          />
        }
      />
    </>
  );
}

/** Whether the database answers and its migrations are applied; the details and diagnostics are on System health. */
function PlatformHealth() {
  const health = useQuery({
    queryKey: ['dashboard', 'health'],
    // A degraded platform answers 503 with the same body: show it rather than an error.
    queryFn: () =>
      api.get<Health>('/health/', { retry: false }).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 503) return error.body as Health;
        throw error;
      }),
  });
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="platform-health">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz="h4" id="platform-health">
            Platform health
          </Title>
          <Anchor component={Link} to="/admin/system-health" fz="sm">
            System health
          </Anchor>
        </Group>
        {health.isPending ? (
          <Skeleton h={48} />
        ) : health.isError ? (
          <ErrorState
            title="The health check did not answer"
            error={health.error}
            onRetry={() => void health.refetch()}
          />
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Group gap="xs">
              <Text fz="sm" c="dimmed">
                Database
              </Text>
              <Text fw={600}>{health.data.database === 'ok' ? 'Reachable' : 'Unavailable'}</Text>
              <Badge color={health.data.database === 'ok' ? 'green' : 'red'} variant="light">
                {health.data.status}
              </Badge>
            </Group>
            <Group gap="xs">
              <Text fz="sm" c="dimmed">
                Migrations
              </Text>
              <Text fw={600}>
                {health.data.migrations.applied} of {health.data.migrations.expected} applied
              </Text>
            </Group>
          </SimpleGrid>
        )}
      </Stack>
    </Card>
  );
}
