import { PAYMENT_FREQUENCY_LABELS, type PortfolioAnalytics } from '@coverdesk/contract';
import { BarChart, DonutChart } from '@mantine/charts';
import { Anchor, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconChartPie } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ChartCard, FigureCard } from '../../../components/charts/chart-card.js';
import {
  formatCount,
  formatShare,
  SERIES_COLORS,
  useChartMoney,
  withOthers,
} from '../../../components/charts/chart-format.js';
import { FigureTable } from '../../../components/charts/figure-table.js';
import { SeriesName } from '../../../components/charts/series-name.js';
import { EmptyState, ErrorState } from '../../../components/page-states.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { Money, useFormatMoney } from '../../../lib/money.js';
import { usePortfolio } from '../api.js';
import { AnalyticsSkeleton } from '../components/analytics-skeleton.js';
import { StatCard, StatGrid } from '../components/stat-card.js';

/** /current-portfolio: the book in force today, where it is placed, what renews and what is owed. */
export function Component() {
  const portfolio = usePortfolio();
  const data = portfolio.data;
  if (portfolio.isError)
    return <ErrorState error={portfolio.error} onRetry={() => void portfolio.refetch()} />;
  if (!data) return <AnalyticsSkeleton />;
  // Nothing in force and nothing owed: an agency before its first policy, or whose book has all lapsed.
  if (data.in_force.policies === 0 && data.overdue.instalments === 0) {
    return (
      <EmptyState
        icon={IconChartPie}
        title="Nothing in force today"
        action={
          <Button component={Link} to="/policies/create">
            Record a policy
          </Button>
        }
      >
        Your portfolio shows the policies in force, where their premium is placed, what renews soon and what
        is overdue. It fills in as you record policies.
      </EmptyState>
    );
  }
  return (
    <Stack maw={1400}>
      <Text fz="sm" c="dimmed">
        As of {formatDate(data.today)}
      </Text>
      <PortfolioFigures data={data} />
    </Stack>
  );
}

function PortfolioFigures({ data }: { data: PortfolioAnalytics }) {
  const formatMoney = useFormatMoney();
  const commission = data.commission_this_year;
  return (
    <>
      <StatGrid>
        <StatCard
          label="Policies in force"
          figure="in_force"
          value={formatCount(data.in_force.policies)}
          hint={
            <Anchor component={Link} to="/policies?status=active" fz="sm">
              See the active policies
            </Anchor>
          }
        />
        <StatCard
          label="Premium in force"
          figure="in_force"
          value={<Money amount={data.in_force.premium} />}
        />
        <StatCard
          label="Largest insurer"
          value={data.concentration ? formatShare(data.concentration.share_percentage) : '—'}
          hint={
            data.concentration
              ? `of the premium is with ${data.concentration.company_name}`
              : 'Nothing in force'
          }
        />
        <StatCard
          label={`Commission expected ${commission.year}`}
          figure="this_year"
          value={<Money amount={commission.expected} />}
          hint={`${formatMoney(commission.outstanding)} still to come`}
        />
        <StatCard
          label={`Earned on customer payments ${commission.year}`}
          figure="received"
          value={<Money amount={commission.received} />}
          hint={`${formatShare(commission.received_percentage)} of expected`}
        />
        <StatCard
          label="Overdue instalments"
          value={<Money amount={data.overdue.amount} />}
          hint={
            data.overdue.instalments === 0 ? (
              'Nothing overdue'
            ) : (
              <Anchor component={Link} to="/payments?status=overdue" fz="sm">
                {formatCount(data.overdue.instalments)}{' '}
                {data.overdue.instalments === 1 ? 'instalment' : 'instalments'} to chase
              </Anchor>
            )
          }
        />
      </StatGrid>

      <RenewalsDue data={data} />

      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <InForceBreakdown
          title="By insurer"
          description="Premium in force with each insurer"
          nameHeader="Insurer"
          rows={data.by_company.map((row) => ({
            ...row,
            key: row.company_id,
            name: row.company_name,
            policiesLink: `/policies?status=active&company_id=${row.company_id}`,
          }))}
        />
        <InForceBreakdown
          title="By policy type"
          description="Premium in force in each type of cover"
          nameHeader="Policy type"
          rows={data.by_policy_type.map((row) => ({
            ...row,
            key: row.policy_type_id,
            name: row.policy_type_name,
            policiesLink: `/policies?status=active&policy_type_id=${row.policy_type_id}`,
          }))}
        />
        <InForceBreakdown
          title="By payment frequency"
          description="How the premium in force is paid"
          nameHeader="Frequency"
          rows={data.by_payment_frequency.map((row) => ({
            ...row,
            key: row.payment_frequency,
            name: PAYMENT_FREQUENCY_LABELS[row.payment_frequency],
          }))}
        />
        <CommissionThisYear data={data} />
      </SimpleGrid>
    </>
  );
}

function RenewalsDue({ data }: { data: PortfolioAnalytics }) {
  return (
    <FigureCard
      title="Renewals due"
      description="Active policies ending soon, and the premium at stake if they are not renewed"
    >
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        {data.renewals_due.map((due) => (
          <Group
            key={due.within_days}
            justify="space-between"
            align="flex-start"
            wrap="nowrap"
            gap="xs"
            p="sm"
            bd="1px solid var(--mantine-color-gray-3)"
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
            role="group"
            aria-label={`Within ${due.within_days} days`}
          >
            <div>
              <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
                Within {due.within_days} days
              </Text>
              <Text fz="sm">
                {formatCount(due.policies)} {due.policies === 1 ? 'policy' : 'policies'}
                {due.policies > 0 && (
                  <>
                    {' · '}
                    <Anchor component={Link} to={`/policies?expiring_within_days=${due.within_days}`} fz="sm">
                      See them
                    </Anchor>
                  </>
                )}
              </Text>
            </div>
            <Text fw={700} fz="lg" style={TABULAR_FIGURES}>
              <Money amount={due.premium} />
            </Text>
          </Group>
        ))}
      </SimpleGrid>
    </FigureCard>
  );
}

interface InForceRow {
  key: string;
  name: string;
  policies: number;
  premium: string;
  share_percentage: string;
  /** The policy list filtered to this row, where the list has such a filter. */
  policiesLink?: string;
}

/** Premium in force split one way (insurer, type, frequency): a donut and its table. */
function InForceBreakdown(props: {
  title: string;
  description: string;
  nameHeader: string;
  rows: InForceRow[];
}) {
  const money = useChartMoney();
  const slices = withOthers(
    props.rows,
    (row) => row.premium,
    (row) => row.name,
  ).map((slice, index) => ({
    name: slice.name,
    value: Number(slice.amount),
    color: SERIES_COLORS[index] ?? 'gray.6',
  }));
  // Rows past the chart's slices share the "Others" colour.
  const colorOf = (index: number) => slices[Math.min(index, slices.length - 1)]?.color ?? 'gray.6';
  return (
    <ChartCard
      title={props.title}
      description={props.description}
      chart={
        <DonutChart
          data={slices}
          size={200}
          thickness={32}
          mx="auto"
          valueFormatter={money.tooltip}
          tooltipDataSource="segment"
        />
      }
      figures={
        <FigureTable
          caption={`Premium in force ${props.title.toLowerCase()}`}
          rows={props.rows}
          rowKey={(row) => row.key}
          columns={[
            {
              header: props.nameHeader,
              render: (row) => <SeriesName color={colorOf(props.rows.indexOf(row))}>{row.name}</SeriesName>,
            },
            {
              header: 'Policies',
              numeric: true,
              render: (row) =>
                row.policiesLink ? (
                  <Anchor
                    component={Link}
                    to={row.policiesLink}
                    fz="sm"
                    aria-label={`${row.name}: ${formatCount(row.policies)} active`}
                  >
                    {formatCount(row.policies)}
                  </Anchor>
                ) : (
                  formatCount(row.policies)
                ),
            },
            { header: 'Premium', numeric: true, render: (row) => <Money amount={row.premium} /> },
            { header: 'Share', numeric: true, render: (row) => formatShare(row.share_percentage) },
          ]}
        />
      }
      empty={props.rows.length === 0 && 'No policies in force today.'}
    />
  );
}

function CommissionThisYear({ data }: { data: PortfolioAnalytics }) {
  const commission = data.commission_this_year;
  const money = useChartMoney();
  const rows = [
    { label: 'Expected', amount: commission.expected },
    { label: 'Earned on customer payments', amount: commission.received },
    { label: 'Outstanding', amount: commission.outstanding },
  ];
  return (
    <ChartCard
      title={`Commission in ${commission.year}`}
      description={`On the ${formatCount(commission.policies)} ${commission.policies === 1 ? 'policy' : 'policies'} covering part of ${commission.year}, a cancelled one for what it earned`}
      chart={
        <BarChart
          h={200}
          data={rows.map((row) => ({ label: row.label, amount: Number(row.amount) }))}
          dataKey="label"
          series={[{ name: 'amount', label: 'Commission', color: 'indigo.6' }]}
          valueFormatter={money.tooltip}
          yAxisProps={{ tickFormatter: money.axis, width: 64 }}
          accessibilityLayer={false}
        />
      }
      figures={
        <FigureTable
          caption={`Commission in ${commission.year}`}
          rows={rows}
          rowKey={(row) => row.label}
          columns={[
            { header: 'Commission', render: (row) => row.label },
            { header: 'Amount', numeric: true, render: (row) => <Money amount={row.amount} /> },
          ]}
          total={['Earned on payments so far', formatShare(commission.received_percentage)]}
        />
      }
      empty={commission.policies === 0 && `No policy starts in ${commission.year} yet.`}
    />
  );
}
