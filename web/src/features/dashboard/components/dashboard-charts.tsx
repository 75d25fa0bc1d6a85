import type { DashboardCommission, DashboardMonth, DashboardPolicies } from '@coverdesk/contract';
import { BarChart, CompositeChart } from '@mantine/charts';
import { Anchor, Group, SimpleGrid, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ChartCard } from '../../../components/charts/chart-card.js';
import {
  formatCount,
  formatMonth,
  sumMoney,
  useChartMoney,
} from '../../../components/charts/chart-format.js';
import { FigureTable } from '../../../components/charts/figure-table.js';
import { SeriesName } from '../../../components/charts/series-name.js';
import { Money } from '../../../lib/money.js';
import { useDevice } from '../../../lib/viewport.js';

const PREMIUM_COLOR = 'indigo.6';
const RECEIVED_COLOR = 'teal.6';
const EXPECTED_COLOR = 'orange.6';

/** The charts' own legends stay off: the figures beside each chart name its colours. */
const QUIET = { accessibilityLayer: false, withLegend: false } as const;

/** The chart's series named with their colours, above the table of its figures. */
function Legend({ series, children }: { series: [string, string][]; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Group gap="md" fz="sm">
        {series.map(([name, color]) => (
          <SeriesName key={name} color={color}>
            {name}
          </SeriesName>
        ))}
      </Group>
      {children}
    </Stack>
  );
}

/** Premium written (bars) and commission received (a line on its own scale, being far smaller). */
export function MonthsChart({ months }: { months: DashboardMonth[] }) {
  const money = useChartMoney();
  // A phone's table keeps to its width with short months and headings.
  const phone = useDevice() === 'mobile';
  const quiet = months.every(
    (month) => month.premium_written === '0.00' && month.commission_received === '0.00',
  );
  return (
    <ChartCard
      title="The last 12 months"
      description="Premium written on the policies that started each month (renewals included, cancelled ones left out), and the commission each month's payments earned."
      side
      empty={
        quiet &&
        'Nothing written or earned in the last 12 months yet: each month fills in as policies start and payments come in.'
      }
      chart={
        <CompositeChart
          {...QUIET}
          h={260}
          data={months.map((month) => ({
            label: formatMonth(month.month, true),
            premium: Number(month.premium_written),
            received: Number(month.commission_received),
          }))}
          dataKey="label"
          series={[
            { name: 'premium', label: 'Premium written', color: PREMIUM_COLOR, type: 'bar' },
            {
              name: 'received',
              label: 'Earned on customer payments',
              color: RECEIVED_COLOR,
              type: 'line',
              yAxisId: 'right',
            },
          ]}
          withRightYAxis
          valueFormatter={money.tooltip}
          yAxisProps={{ tickFormatter: money.axis, width: 64 }}
          rightYAxisProps={{ tickFormatter: money.axis, width: 64 }}
          maxBarWidth={24}
        />
      }
      figures={
        <Legend
          series={[
            ['Premium written (bars, left scale)', PREMIUM_COLOR],
            ['Earned on customer payments (line, right scale)', RECEIVED_COLOR],
          ]}
        >
          <FigureTable
            caption="Premium written and commission earned on customer payments by month"
            rows={months}
            rowKey={(month) => month.month}
            columns={[
              { header: 'Month', nowrap: true, render: (month) => formatMonth(month.month, phone) },
              {
                header: phone ? 'Written' : 'Premium written',
                numeric: true,
                render: (month) => <Money amount={month.premium_written} />,
              },
              {
                header: phone ? 'Earned on payments' : 'Earned on customer payments',
                numeric: true,
                render: (month) => <Money amount={month.commission_received} />,
              },
            ]}
            total={[
              'Total',
              <Money key="premium" amount={sumMoney(months.map((month) => month.premium_written))} />,
              <Money key="received" amount={sumMoney(months.map((month) => month.commission_received))} />,
            ]}
          />
        </Legend>
      }
    />
  );
}

/** This year's commission by insurer, expected beside received; each insurer opens its report. */
export function CommissionByInsurer({ commission }: { commission: DashboardCommission }) {
  const money = useChartMoney();
  const rows = commission.by_company;
  return (
    <ChartCard
      title="Commission by insurer"
      description="This year: expected on the policies covering the year, and earned so far on what customers paid."
      empty={rows.length === 0 && 'Each insurer shows here once it has policies this year.'}
      chart={
        <BarChart
          {...QUIET}
          h={Math.max(160, rows.length * 44)}
          data={rows.map((row) => ({
            name: row.company_name,
            expected: Number(row.expected),
            received: Number(row.received),
          }))}
          dataKey="name"
          orientation="vertical"
          series={[
            { name: 'expected', label: 'Expected', color: EXPECTED_COLOR },
            { name: 'received', label: 'Earned on payments', color: RECEIVED_COLOR },
          ]}
          valueFormatter={money.tooltip}
          xAxisProps={{ tickFormatter: money.axis }}
          yAxisProps={{ width: 96 }}
        />
      }
      figures={
        <Legend
          series={[
            ['Expected', EXPECTED_COLOR],
            ['Earned on payments', RECEIVED_COLOR],
          ]}
        >
          <FigureTable
            caption="Commission by insurer this year"
            rows={rows}
            rowKey={(row) => row.company_id}
            columns={[
              {
                header: 'Insurer',
                render: (row) => (
                  <Anchor
                    component={Link}
                    to={`/commission-report?period=this_year&company_id=${row.company_id}`}
                    fz="sm"
                  >
                    {row.company_name}
                  </Anchor>
                ),
              },
              { header: 'Expected', numeric: true, render: (row) => <Money amount={row.expected} /> },
              {
                header: 'Earned on payments',
                numeric: true,
                render: (row) => <Money amount={row.received} />,
              },
            ]}
          />
        </Legend>
      }
    />
  );
}

/** The policies in force by type; each type opens the policy list filtered on it. */
export function PoliciesByType({ policies }: { policies: DashboardPolicies }) {
  const rows = policies.by_type;
  return (
    <ChartCard
      title="Policies by type"
      description="The policies in force today, by type."
      empty={rows.length === 0 && 'Each type of policy shows here once one is in force.'}
      chart={
        <BarChart
          {...QUIET}
          h={Math.max(160, rows.length * 44)}
          data={rows.map((row) => ({ name: row.policy_type_name, policies: row.policies }))}
          dataKey="name"
          orientation="vertical"
          series={[{ name: 'policies', label: 'Policies', color: PREMIUM_COLOR }]}
          valueFormatter={formatCount}
          xAxisProps={{ allowDecimals: false }}
          yAxisProps={{ width: 96 }}
        />
      }
      figures={
        <FigureTable
          caption="Policies in force by type"
          rows={rows}
          rowKey={(row) => row.policy_type_id}
          columns={[
            {
              header: 'Type',
              render: (row) => (
                <Anchor
                  component={Link}
                  to={`/policies?status=active&policy_type_id=${row.policy_type_id}`}
                  fz="sm"
                >
                  {row.policy_type_name}
                </Anchor>
              ),
            },
            { header: 'Policies', numeric: true, render: (row) => formatCount(row.policies) },
            { header: 'Premium', numeric: true, render: (row) => <Money amount={row.premium} /> },
          ]}
          total={[
            'Total',
            formatCount(rows.reduce((total, row) => total + row.policies, 0)),
            <Money key="premium" amount={sumMoney(rows.map((row) => row.premium))} />,
          ]}
        />
      }
    />
  );
}

/** The breakdowns side by side on a desk. */
export function Breakdowns({
  commission,
  policies,
}: {
  commission: DashboardCommission | null;
  policies: DashboardPolicies | null;
}) {
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      {commission && <CommissionByInsurer commission={commission} />}
      {policies && <PoliciesByType policies={policies} />}
    </SimpleGrid>
  );
}
