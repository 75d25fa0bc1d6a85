import { type AdminRevenue, fromCents, PLAN_CURRENCY, toCents } from '@coverdesk/contract';
import { BarChart, LineChart } from '@mantine/charts';
import { Box, List, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ChartCard, FigureCard } from '../../../components/charts/chart-card.js';
import { chartMoney, formatCount, formatMonth, sumMoney } from '../../../components/charts/chart-format.js';
import { FigureTable } from '../../../components/charts/figure-table.js';
import { FiveFigures, FiveFiguresSkeleton } from '../../../components/five-figures.js';
import { ErrorState } from '../../../components/page-states.js';
import { formatMoney } from '../../../lib/format.js';
import { useDevice } from '../../../lib/viewport.js';
import { usePlatformRevenue } from '../figures-api.js';

// Plans are priced in one currency whatever an agency keeps its books in, so revenue is shown in it.
const money = (amount: string) => formatMoney(amount, PLAN_CURRENCY);
const chart = chartMoney(PLAN_CURRENCY);
const LEGEND = { verticalAlign: 'bottom', itemSorter: null } as const;

type Month = AdminRevenue['months'][number];

/** How MRR changed in a month: new and expansion, less contraction and churn. */
const netChange = (month: Month) =>
  fromCents(
    toCents(month.new_mrr) + toCents(month.expansion) - toCents(month.contraction) - toCents(month.churned),
  );

/** Recurring revenue: where it stands, by plan, and how it moved month by month. */
export function Component() {
  const revenue = usePlatformRevenue();
  if (revenue.isPending) {
    return (
      <Stack maw={1200} aria-busy="true" aria-label="Loading">
        <FiveFiguresSkeleton />
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <Skeleton h={320} radius="md" />
          <Skeleton h={320} radius="md" />
        </SimpleGrid>
      </Stack>
    );
  }
  if (revenue.isError) {
    return (
      <ErrorState
        title="The revenue figures could not be loaded"
        error={revenue.error}
        onRetry={() => void revenue.refetch()}
      />
    );
  }
  return <Revenue revenue={revenue.data} />;
}

function Revenue({ revenue }: { revenue: AdminRevenue }) {
  const device = useDevice();
  const { months } = revenue;
  const thisMonth = months.at(-1);
  const points = months.map((month) => ({
    label: formatMonth(month.month, true),
    mrr: Number(month.mrr),
    arr: Number(month.arr),
    new_mrr: Number(month.new_mrr),
    expansion: Number(month.expansion),
    contraction: -Number(month.contraction),
    churned: -Number(month.churned),
  }));
  const never = months.every((month) => toCents(month.mrr) === 0n && toCents(netChange(month)) === 0n);
  const chartHeight = device === 'mobile' ? 220 : 260;
  const common = { h: chartHeight, data: points, dataKey: 'label', accessibilityLayer: false } as const;
  return (
    <Stack maw={1200}>
      <FiveFigures
        label="Recurring revenue"
        figures={[
          { label: 'MRR', value: money(revenue.mrr), note: 'Monthly recurring revenue now' },
          { label: 'ARR', value: money(revenue.arr), note: 'MRR over a year' },
          {
            label: 'New this month',
            value: money(thisMonth?.new_mrr ?? '0.00'),
            note: 'Agencies that started paying',
          },
          {
            label: 'Churned this month',
            value: money(thisMonth?.churned ?? '0.00'),
            note: 'MRR of subscriptions that stopped',
          },
          {
            label: 'Net change this month',
            value: money(thisMonth ? netChange(thisMonth) : '0.00'),
            note: 'New and expansion, less contraction and churn',
          },
        ]}
      />
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <ChartCard
          title="MRR and ARR by month"
          description="At each month's end over the last 12 months (now for this month)"
          empty={never && 'No agency has paid for a plan in the last 12 months.'}
          chart={
            <LineChart
              {...common}
              series={[{ name: 'mrr', label: 'MRR', color: 'indigo.6' }]}
              valueFormatter={chart.tooltip}
              yAxisProps={{ tickFormatter: chart.axis, width: 64 }}
              curveType="monotone"
            />
          }
          figures={
            <FigureTable
              caption="MRR and ARR by month"
              rows={months}
              rowKey={(month) => month.month}
              columns={[
                { header: 'Month', nowrap: true, render: (month) => formatMonth(month.month) },
                { header: 'MRR', numeric: true, render: (month) => money(month.mrr) },
                { header: 'ARR', numeric: true, render: (month) => money(month.arr) },
              ]}
            />
          }
        />
        <ChartCard
          title="How MRR moved"
          description="Each month's new and expansion MRR (up), and contraction and churned MRR (down)"
          empty={never && 'Nothing moved in the last 12 months.'}
          chart={
            <BarChart
              {...common}
              type="stacked"
              series={[
                { name: 'new_mrr', label: 'New', color: 'indigo.6' },
                { name: 'expansion', label: 'Expansion', color: 'teal.7' },
                { name: 'contraction', label: 'Contraction', color: 'orange.7' },
                { name: 'churned', label: 'Churned', color: 'red.7' },
              ]}
              valueFormatter={chart.tooltip}
              yAxisProps={{ tickFormatter: chart.axis, width: 64 }}
              withLegend
              legendProps={LEGEND}
            />
          }
          figures={
            <Scrolling label="MRR movements by month">
              <FigureTable
                cardsOnPhone
                caption="New, expansion, contraction and churned MRR by month"
                rows={months}
                rowKey={(month) => month.month}
                columns={[
                  { header: 'Month', nowrap: true, render: (month) => formatMonth(month.month, true) },
                  { header: 'New', numeric: true, render: (month) => money(month.new_mrr) },
                  { header: 'Expansion', numeric: true, render: (month) => money(month.expansion) },
                  { header: 'Contraction', numeric: true, render: (month) => money(month.contraction) },
                  { header: 'Churned', numeric: true, render: (month) => money(month.churned) },
                ]}
                total={[
                  'Total',
                  money(sumMoney(months.map((month) => month.new_mrr))),
                  money(sumMoney(months.map((month) => month.expansion))),
                  money(sumMoney(months.map((month) => month.contraction))),
                  money(sumMoney(months.map((month) => month.churned))),
                ]}
              />
            </Scrolling>
          }
        />
      </SimpleGrid>
      <FigureCard title="By plan" description="The paying subscriptions on each plan now">
        <Scrolling label="Revenue by plan">
          <FigureTable
            cardsOnPhone
            caption="Paying subscriptions, MRR and ARR by plan"
            rows={revenue.by_plan}
            rowKey={(plan) => plan.plan}
            columns={[
              { header: 'Plan', render: (plan) => plan.display_name },
              { header: 'Paying', numeric: true, render: (plan) => formatCount(plan.subscriptions) },
              { header: 'MRR', numeric: true, render: (plan) => money(plan.mrr) },
              { header: 'ARR', numeric: true, render: (plan) => money(plan.arr) },
            ]}
            total={[
              'All plans',
              formatCount(revenue.by_plan.reduce((sum, plan) => sum + plan.subscriptions, 0)),
              money(revenue.mrr),
              money(revenue.arr),
            ]}
          />
        </Scrolling>
      </FigureCard>
      <FigureCard title="How these are counted">
        <List fz="sm" spacing={4}>
          <List.Item>
            MRR is the monthly price of every paying subscription, active or past due (a failed payment still
            being retried); a yearly plan counts a twelfth of its price. ARR is MRR times 12. Trials, paused,
            cancelled and expired subscriptions bring none.
          </List.Item>
          <List.Item>
            Each change to an agency's subscription is compared with the one before it. New: from nothing to
            paying (a first purchase, or paying again after a cancellation, pause or lapse). Expansion: paying
            more (a dearer plan or cycle). Contraction: paying less but still paying. Churned: the MRR lost
            when a subscription stops paying (cancelled, even at the end of its period, paused or expired).
          </List.Item>
          <List.Item>
            Months are calendar months in UTC, at the plans' current prices in {PLAN_CURRENCY}. Totals are
            rounded to the cent once, so a plan's figures may differ by a cent from the sum. The demo agency
            is left out.
          </List.Item>
        </List>
        <Text fz="xs" c="dimmed">
          A plan change scheduled for the end of a period counts when it takes effect.
        </Text>
      </FigureCard>
    </Stack>
  );
}

/** A table a desk may be too narrow for: it scrolls sideways within its card, and takes focus to. A phone gets cards. */
function Scrolling({ label, children }: { label: string; children: ReactNode }) {
  const device = useDevice();
  if (device === 'mobile') return children;
  return (
    <Box style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={label}>
      {children}
    </Box>
  );
}
