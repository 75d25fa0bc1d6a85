import {
  fromCents,
  PORTFOLIO_HISTORY_MONTHS,
  type PortfolioHistory,
  type PortfolioMonth,
  toCents,
} from '@coverdesk/contract';
import { BarChart, LineChart } from '@mantine/charts';
import { Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ChartCard, FigureCard } from '../../../components/charts/chart-card.js';
import {
  formatCount,
  formatMonth,
  formatShare,
  sumMoney,
  useChartMoney,
} from '../../../components/charts/chart-format.js';
import { FigureTable } from '../../../components/charts/figure-table.js';
import { EmptyState, ErrorState } from '../../../components/page-states.js';
import { TABULAR_FIGURES } from '../../../lib/format.js';
import { Money, useFormatMoney } from '../../../lib/money.js';
import { useDevice } from '../../../lib/viewport.js';
import { usePortfolioHistory } from '../api.js';
import { AnalyticsSkeleton } from '../components/analytics-skeleton.js';
import { PeriodControl } from '../components/period-control.js';
import { StatCard, StatGrid } from '../components/stat-card.js';
import { useUrlChoice } from '../use-url-choice.js';

const SPANS = PORTFOLIO_HISTORY_MONTHS.map(String) as `${(typeof PORTFOLIO_HISTORY_MONTHS)[number]}`[];
const SPAN_CHOICES = SPANS.map((value) => ({ value, label: `${value} months` }));

/** /portfolio-history: the book month by month, to see a trend before it shows in the income. */
export function Component() {
  const [span, setSpan] = useUrlChoice('months', SPANS, '12');
  const history = usePortfolioHistory(Number(span) as (typeof PORTFOLIO_HISTORY_MONTHS)[number]);
  const data = history.data;
  const first = data?.results[0];

  return (
    <Stack maw={1400}>
      <PeriodControl
        label="Months shown"
        value={span}
        choices={SPAN_CHOICES}
        onChange={setSpan}
        updating={history.isPlaceholderData}
      >
        {first && !history.isPlaceholderData && `Since ${formatMonth(first.month)}`}
      </PeriodControl>
      {history.isError ? (
        <ErrorState error={history.error} onRetry={() => void history.refetch()} />
      ) : !data ? (
        <AnalyticsSkeleton />
      ) : data.results.every(isQuiet) ? (
        <EmptyState
          icon={IconHistory}
          title="No history yet"
          action={
            <Button component={Link} to="/policies/create">
              Record a policy
            </Button>
          }
        >
          Month by month, this page shows the policies and premium in force, what was written, renewed, lost
          and earned. It is worked out from your policies' dates and payments, so an imported book shows its
          history from the first day.
        </EmptyState>
      ) : (
        <HistoryFigures data={data} />
      )}
    </Stack>
  );
}

/** A legend below the chart, in the order of the bars rather than alphabetical. */
const LEGEND = { verticalAlign: 'bottom', itemSorter: null } as const;

/** A month with nothing in force and nothing happening. */
const isQuiet = (month: PortfolioMonth) =>
  month.policies_in_force === 0 &&
  month.new_policies + month.renewed + month.expired + month.cancelled === 0 &&
  toCents(month.expected_commission) === 0n &&
  toCents(month.received_commission) === 0n;

/** Terms that came to their end in the month: the base of its retention rate. */
const endedTerms = (month: PortfolioMonth) => month.renewed + month.expired;

/** A month's retention rate, or a dash when no term ended in it. */
const retention = (month: PortfolioMonth) =>
  endedTerms(month) === 0 ? '—' : formatShare(month.retention_rate);

const total = (months: PortfolioMonth[], count: (month: PortfolioMonth) => number) =>
  months.reduce((sum, month) => sum + count(month), 0);

function HistoryFigures({ data }: { data: PortfolioHistory }) {
  const formatMoney = useFormatMoney();
  const months = data.results;
  // The API sends at least the current month.
  const first = months[0] as PortfolioMonth;
  const last = months.at(-1) as PortfolioMonth;
  const since = formatMonth(first.month);
  const policiesChange = last.policies_in_force - first.policies_in_force;
  const premiumChange = toCents(last.premium_in_force) - toCents(first.premium_in_force);
  const expired = total(months, (month) => month.expired);
  const cancelled = total(months, (month) => month.cancelled);
  const received = sumMoney(months.map((month) => month.received_commission));
  const expected = sumMoney(months.map((month) => month.expected_commission));
  const signed = (text: string, negative: boolean) => (negative ? `−${text}` : `+${text}`);

  return (
    <>
      <StatGrid>
        <StatCard
          label="Policies in force"
          value={formatCount(last.policies_in_force)}
          hint={`${signed(formatCount(Math.abs(policiesChange)), policiesChange < 0)} since ${since}`}
        />
        <StatCard
          label="Premium in force"
          value={<Money amount={last.premium_in_force} />}
          hint={`${signed(formatMoney(fromCents(premiumChange < 0n ? -premiumChange : premiumChange)), premiumChange < 0n)} since ${since}`}
        />
        <StatCard
          label="New policies"
          value={formatCount(total(months, (month) => month.new_policies))}
          hint={`In ${data.months} months`}
        />
        <StatCard
          label="Renewed"
          value={formatCount(total(months, (month) => month.renewed))}
          hint={`In ${data.months} months`}
        />
        <StatCard
          label="Lost"
          value={formatCount(expired + cancelled)}
          hint={`${formatCount(expired)} expired without renewal, ${formatCount(cancelled)} cancelled`}
        />
        <StatCard
          label="Commission this month"
          figure="this_month"
          value={<Money amount={last.expected_commission} />}
          hint={`Expected; ${formatMoney(last.received_commission)} earned on customer payments`}
        />
      </StatGrid>
      <HistoryCharts months={months} received={received} expected={expected} />
      <MonthByMonth months={months} />
    </>
  );
}

function HistoryCharts({
  months,
  received,
  expected,
}: {
  months: PortfolioMonth[];
  received: string;
  expected: string;
}) {
  const money = useChartMoney();
  const formatMoney = useFormatMoney();
  const points = months.map((month) => ({
    label: formatMonth(month.month, true),
    policies: month.policies_in_force,
    premium: Number(month.premium_in_force),
    new: month.new_policies,
    renewed: month.renewed,
    expired: month.expired,
    cancelled: month.cancelled,
    expected: Number(month.expected_commission),
    received: Number(month.received_commission),
    // A month in which no term ended has no retention rate: a gap in the line, not a drop to 0%.
    retention: endedTerms(month) === 0 ? null : Number(month.retention_rate),
  }));
  const seeTable = 'Its figures are in the month-by-month table below.';
  // Every chart here plots the same months; their figures are read from the table, not the chart.
  const monthly = { h: 240, data: points, dataKey: 'label', accessibilityLayer: false } as const;
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      <ChartCard
        title="Premium in force"
        description="At each month's end (today for this month)"
        chart={
          <LineChart
            {...monthly}
            series={[{ name: 'premium', label: 'Premium in force', color: 'indigo.6' }]}
            valueFormatter={money.tooltip}
            yAxisProps={{ tickFormatter: money.axis, width: 64 }}
            curveType="monotone"
          />
        }
        figures={<TableNote>{seeTable}</TableNote>}
      />
      <ChartCard
        title="Policies in force"
        description="At each month's end (today for this month)"
        chart={
          <LineChart
            {...monthly}
            series={[{ name: 'policies', label: 'Policies in force', color: 'teal.6' }]}
            valueFormatter={formatCount}
            yAxisProps={{ allowDecimals: false }}
            curveType="monotone"
          />
        }
        figures={<TableNote>{seeTable}</TableNote>}
      />
      <ChartCard
        title="New, renewed, expired and cancelled"
        description="New business started; terms that ended renewed or expired without renewal; cancellations"
        chart={
          <BarChart
            {...monthly}
            series={[
              { name: 'new', label: 'New', color: 'indigo.6' },
              { name: 'renewed', label: 'Renewed', color: 'violet.4' },
              { name: 'expired', label: 'Expired', color: 'gray.6' },
              { name: 'cancelled', label: 'Cancelled', color: 'red.7' },
            ]}
            valueFormatter={formatCount}
            yAxisProps={{ allowDecimals: false }}
            withLegend
            legendProps={LEGEND}
          />
        }
        figures={<TableNote>{seeTable}</TableNote>}
      />
      <ChartCard
        title="Commission"
        description={`Expected on the terms that started each month; earned on each month's customer payments: ${formatMoney(received)} of ${formatMoney(expected)} in ${months.length} months`}
        chart={
          <BarChart
            {...monthly}
            series={[
              { name: 'expected', label: 'Expected', color: 'indigo.2' },
              { name: 'received', label: 'Earned on payments', color: 'teal.7' },
            ]}
            valueFormatter={money.tooltip}
            yAxisProps={{ tickFormatter: money.axis, width: 64 }}
            withLegend
            legendProps={LEGEND}
          />
        }
        figures={<TableNote>{seeTable}</TableNote>}
      />
      <ChartCard
        title="Retention rate"
        description="Of the terms that ended each month, the share that was renewed"
        empty={months.every((month) => endedTerms(month) === 0) && 'No policy term ended in these months.'}
        chart={
          <LineChart
            {...monthly}
            h={220}
            series={[{ name: 'retention', label: 'Retention', color: 'grape.6' }]}
            // The tooltip reads "62.50%", the axis "25%": its ticks are whole, and its own formatter
            // keeps the tooltip's decimals (and any second "%") off it.
            valueFormatter={(value) => `${value.toFixed(2)}%`}
            yAxisProps={{ domain: [0, 100], width: 48, tickFormatter: (value: number) => `${value}%` }}
          />
        }
        figures={<TableNote>{seeTable}</TableNote>}
      />
    </SimpleGrid>
  );
}

function TableNote({ children }: { children: string }) {
  return (
    <Text fz="xs" c="dimmed">
      {children}
    </Text>
  );
}

/** Every month's figures: a table on a desk, a card a month on a phone; the newest first. */
function MonthByMonth({ months }: { months: PortfolioMonth[] }) {
  const phone = useDevice() === 'mobile';
  const newestFirst = [...months].reverse();
  return (
    <FigureCard title="Month by month" description="The newest month first">
      {phone ? (
        <Stack gap="xs">
          {newestFirst.map((month) => (
            <MonthCard key={month.month} month={month} />
          ))}
        </Stack>
      ) : (
        <FigureTable
          caption="Portfolio month by month"
          rows={newestFirst}
          rowKey={(month) => month.month}
          columns={[
            { header: 'Month', nowrap: true, render: (month) => formatMonth(month.month) },
            { header: 'In force', numeric: true, render: (month) => formatCount(month.policies_in_force) },
            {
              header: 'Premium in force',
              numeric: true,
              render: (month) => <Money amount={month.premium_in_force} />,
            },
            { header: 'New', numeric: true, render: (month) => formatCount(month.new_policies) },
            { header: 'Renewed', numeric: true, render: (month) => formatCount(month.renewed) },
            { header: 'Expired', numeric: true, render: (month) => formatCount(month.expired) },
            { header: 'Cancelled', numeric: true, render: (month) => formatCount(month.cancelled) },
            {
              header: 'Commission expected',
              numeric: true,
              render: (month) => <Money amount={month.expected_commission} />,
            },
            {
              header: 'Earned on customer payments',
              numeric: true,
              render: (month) => <Money amount={month.received_commission} />,
            },
            { header: 'Retention', numeric: true, render: retention },
          ]}
        />
      )}
    </FigureCard>
  );
}

function MonthCard({ month }: { month: PortfolioMonth }) {
  const formatMoney = useFormatMoney();
  return (
    <Card withBorder padding="sm" role="group" aria-label={formatMonth(month.month)}>
      <Group justify="space-between" gap={4} align="baseline">
        <Text fw={600}>{formatMonth(month.month)}</Text>
        <Text fw={600} style={TABULAR_FIGURES}>
          {formatCount(month.policies_in_force)} in force · <Money amount={month.premium_in_force} />
        </Text>
      </Group>
      <MonthFigures
        figures={[
          ['New', formatCount(month.new_policies)],
          ['Renewed', formatCount(month.renewed)],
          ['Expired', formatCount(month.expired)],
          ['Cancelled', formatCount(month.cancelled)],
        ]}
      />
      <MonthFigures
        figures={[
          ['Commission expected', formatMoney(month.expected_commission)],
          ['Earned on customer payments', formatMoney(month.received_commission)],
          ['Retention', retention(month)],
        ]}
      />
    </Card>
  );
}

/** A row of a month's figures on a phone, each name above its figure. */
function MonthFigures({ figures }: { figures: [label: string, value: string][] }) {
  return (
    <SimpleGrid component="dl" cols={figures.length} spacing="xs" mt={6} mb={0}>
      {figures.map(([label, value]) => (
        <div key={label}>
          <Text component="dt" fz="xs" c="dimmed">
            {label}
          </Text>
          <Text component="dd" fz="sm" m={0} style={TABULAR_FIGURES}>
            {value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}
