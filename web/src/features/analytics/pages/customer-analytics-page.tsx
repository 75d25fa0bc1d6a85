import {
  CUSTOMER_ANALYTICS_PERIOD_LABELS,
  CUSTOMER_ANALYTICS_PERIODS,
  type CustomerAnalytics,
  type CustomerValue,
} from '@coverdesk/contract';
import { BarChart, DonutChart } from '@mantine/charts';
import { Anchor, Button, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ChartCard, FigureCard } from '../../../components/charts/chart-card.js';
import { formatCount, formatMonth, formatShare } from '../../../components/charts/chart-format.js';
import { FigureTable } from '../../../components/charts/figure-table.js';
import { SeriesName } from '../../../components/charts/series-name.js';
import { EmptyState, ErrorState } from '../../../components/page-states.js';
import { formatDate } from '../../../lib/format.js';
import { Money, useFormatMoney } from '../../../lib/money.js';
import { useDevice } from '../../../lib/viewport.js';
import { useCustomerAnalytics } from '../api.js';
import { AnalyticsSkeleton } from '../components/analytics-skeleton.js';
import { PeriodControl } from '../components/period-control.js';
import { StatCard, StatGrid } from '../components/stat-card.js';
import { useUrlChoice } from '../use-url-choice.js';

const PERIOD_CHOICES = CUSTOMER_ANALYTICS_PERIODS.map((value) => ({
  value,
  label: CUSTOMER_ANALYTICS_PERIOD_LABELS[value],
}));

/** /customer-analytics: who the book is made of, how many stay, and who is worth the most. */
export function Component() {
  const [period, setPeriod] = useUrlChoice('period', CUSTOMER_ANALYTICS_PERIODS, '12m');
  const analytics = useCustomerAnalytics(period);
  const data = analytics.data;
  // An agency without customers has no period to choose between.
  const nobody = data?.total_customers === 0;

  return (
    <Stack maw={1400}>
      {!nobody && (
        <PeriodControl
          label="Period"
          value={period}
          choices={PERIOD_CHOICES}
          onChange={setPeriod}
          updating={analytics.isPlaceholderData}
        >
          {data && !analytics.isPlaceholderData && `From ${formatDate(data.period_start)} to today`}
        </PeriodControl>
      )}
      {analytics.isError ? (
        <ErrorState error={analytics.error} onRetry={() => void analytics.refetch()} />
      ) : !data ? (
        <AnalyticsSkeleton />
      ) : nobody ? (
        <EmptyState
          icon={IconUsers}
          title="No customers yet"
          action={
            <Button component={Link} to="/customers/create">
              Add a customer
            </Button>
          }
        >
          Once you have customers and their policies, this page shows who your book is made of, how many
          customers stay with you and who brings the most premium and commission.
        </EmptyState>
      ) : (
        <CustomerFigures data={data} />
      )}
    </Stack>
  );
}

function CustomerFigures({ data }: { data: CustomerAnalytics }) {
  const formatMoney = useFormatMoney();
  const { retention, overdue, lifetime_value: lifetime } = data;
  const periodLabel = CUSTOMER_ANALYTICS_PERIOD_LABELS[data.period];
  return (
    <>
      <StatGrid>
        <StatCard
          label="Customers"
          value={formatCount(data.total_customers)}
          hint={`${formatCount(data.active_customers)} active, ${formatCount(data.inactive_customers)} inactive`}
        />
        <StatCard label="New customers" value={formatCount(data.new_customers)} hint={periodLabel} />
        <StatCard
          label="Retention"
          value={retention.base_customers === 0 ? '—' : formatShare(retention.retention_rate)}
          hint={
            retention.base_customers === 0
              ? `Nobody held a policy on ${formatDate(data.period_start)}`
              : `${formatCount(retention.retained_customers)} of ${formatCount(retention.base_customers)} customers kept`
          }
        />
        <StatCard
          label="Customers overdue"
          value={formatCount(overdue.customers)}
          hint={
            overdue.customers === 0 ? (
              'Nothing overdue'
            ) : (
              <Anchor component={Link} to="/payments?status=overdue" fz="sm">
                {formatMoney(overdue.amount_overdue)} in {formatCount(overdue.instalments)}{' '}
                {overdue.instalments === 1 ? 'instalment' : 'instalments'}
              </Anchor>
            )
          }
        />
        <StatCard
          label="Average lifetime premium"
          value={<Money amount={lifetime.average_premium} />}
          hint={`Over ${formatCount(lifetime.customers_with_policies)} customers with policies`}
        />
        <StatCard
          label="Average commission"
          value={<Money amount={lifetime.average_expected_commission} />}
          hint={`${formatMoney(lifetime.average_received_commission)} earned on customer payments`}
        />
      </StatGrid>

      {/* A year of months: the whole width, its table beside the chart. */}
      <NewCustomers data={data} />
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <ActiveCustomers data={data} />
        <PoliciesPerCustomer data={data} />
        <CountBars
          title="Customers by policy type"
          description="Active customers holding a current policy of each type"
          rows={data.by_policy_type.map((row) => ({
            id: row.policy_type_id,
            name: row.policy_type_name,
            customers: row.customers,
          }))}
          nameHeader="Policy type"
        />
        <CountBars
          title="Customers by insurer"
          description="Active customers holding a current policy with each insurer"
          rows={data.by_company.map((row) => ({
            id: row.company_id,
            name: row.company_name,
            customers: row.customers,
          }))}
          nameHeader="Insurer"
        />
        <TopCustomers
          title="Top customers by premium"
          rows={data.top_by_premium}
          figures={[{ header: 'Lifetime premium', amount: (row) => row.lifetime_premium }]}
        />
        <TopCustomers
          title="Top customers by commission"
          rows={data.top_by_commission}
          figures={[
            { header: 'Expected', amount: (row) => row.expected_commission },
            { header: 'Earned on payments', amount: (row) => row.received_commission },
          ]}
        />
        <LifetimeValue data={data} />
      </SimpleGrid>
    </>
  );
}

function NewCustomers({ data }: { data: CustomerAnalytics }) {
  const months = data.new_per_month.map((row) => ({ ...row, label: formatMonth(row.month, true) }));
  return (
    <ChartCard
      title="New customers per month"
      description="Customers whose first policy started that month, over the last 12 months"
      chart={
        <BarChart
          h={300}
          data={months}
          dataKey="label"
          series={[{ name: 'new_customers', label: 'New customers', color: 'indigo.6' }]}
          valueFormatter={formatCount}
          yAxisProps={{ allowDecimals: false }}
          accessibilityLayer={false}
        />
      }
      figures={
        <FigureTable
          caption="New customers per month"
          rows={[...data.new_per_month].reverse()}
          rowKey={(row) => row.month}
          columns={[
            { header: 'Month', render: (row) => formatMonth(row.month) },
            { header: 'New customers', numeric: true, render: (row) => formatCount(row.new_customers) },
          ]}
        />
      }
      side
    />
  );
}

function ActiveCustomers({ data }: { data: CustomerAnalytics }) {
  const rows = [
    {
      name: 'Active',
      value: data.active_customers,
      color: 'teal.6',
      note: 'A policy in force, or starting later',
    },
    { name: 'Inactive', value: data.inactive_customers, color: 'gray.5', note: 'No current policy' },
  ];
  return (
    <ChartCard
      title="Active and inactive customers"
      description="Whether each customer holds a current policy"
      chart={
        <DonutChart
          data={rows}
          size={180}
          thickness={28}
          mx="auto"
          chartLabel={formatCount(data.total_customers)}
          valueFormatter={formatCount}
          tooltipDataSource="segment"
        />
      }
      figures={
        <FigureTable
          caption="Active and inactive customers"
          rows={rows}
          rowKey={(row) => row.name}
          columns={[
            { header: 'Customers', render: (row) => <SeriesName color={row.color}>{row.name}</SeriesName> },
            { header: 'Why', render: (row) => row.note },
            { header: 'Count', numeric: true, render: (row) => formatCount(row.value) },
          ]}
          total={['Total', '', formatCount(data.total_customers)]}
        />
      }
      side
    />
  );
}

function PoliciesPerCustomer({ data }: { data: CustomerAnalytics }) {
  const spread = data.policies_per_customer;
  const rows = [
    { label: '1 policy', customers: spread.one },
    { label: '2 policies', customers: spread.two },
    { label: '3 policies', customers: spread.three },
    { label: '4 or more', customers: spread.four_or_more },
  ];
  const single = spread.one;
  return (
    <ChartCard
      title="Policies per customer"
      description={
        single > 0
          ? `${formatCount(single)} active ${single === 1 ? 'customer holds' : 'customers hold'} a single policy you could add to`
          : 'How many current policies each active customer holds'
      }
      chart={
        <BarChart
          h={200}
          data={rows}
          dataKey="label"
          series={[{ name: 'customers', label: 'Customers', color: 'teal.6' }]}
          valueFormatter={formatCount}
          yAxisProps={{ allowDecimals: false }}
          accessibilityLayer={false}
        />
      }
      figures={
        <FigureTable
          caption="Policies per customer"
          rows={rows}
          rowKey={(row) => row.label}
          columns={[
            { header: 'Active policies', render: (row) => row.label },
            { header: 'Customers', numeric: true, render: (row) => formatCount(row.customers) },
          ]}
        />
      }
      empty={data.active_customers === 0 && 'No customer holds a current policy.'}
      side
    />
  );
}

function LifetimeValue({ data }: { data: CustomerAnalytics }) {
  const lifetime = data.lifetime_value;
  const rows = [
    { label: 'Customers with policies', value: formatCount(lifetime.customers_with_policies) },
    { label: 'Premium written, all time', value: <Money amount={lifetime.total_premium} /> },
    { label: 'Average premium per customer', value: <Money amount={lifetime.average_premium} /> },
    {
      label: 'Average commission expected',
      value: <Money amount={lifetime.average_expected_commission} />,
    },
    {
      label: 'Average earned on customer payments',
      value: <Money amount={lifetime.average_received_commission} />,
    },
  ];
  return (
    <FigureCard
      title="Lifetime value"
      description="Every policy term each customer has held with you (a cancelled one for what it earned), averaged over the customers with policies"
    >
      <FigureTable
        caption="Lifetime value"
        rows={rows}
        rowKey={(row) => row.label}
        columns={[
          { header: 'Figure', render: (row) => row.label },
          { header: 'Amount', numeric: true, render: (row) => row.value },
        ]}
      />
    </FigureCard>
  );
}

/** Customers counted by a name (a policy type, an insurer), as bars and as a table. */
function CountBars(props: {
  title: string;
  description: string;
  nameHeader: string;
  rows: { id: string; name: string; customers: number }[];
}) {
  return (
    <ChartCard
      title={props.title}
      description={props.description}
      chart={
        <BarChart
          h={Math.max(160, Math.min(props.rows.length, 12) * 36)}
          data={props.rows.slice(0, 12)}
          dataKey="name"
          orientation="vertical"
          series={[{ name: 'customers', label: 'Customers', color: 'indigo.6' }]}
          valueFormatter={formatCount}
          xAxisProps={{ allowDecimals: false }}
          yAxisProps={{ width: 110 }}
          gridAxis="y"
          accessibilityLayer={false}
        />
      }
      figures={
        <FigureTable
          caption={props.title}
          rows={props.rows}
          rowKey={(row) => row.id}
          columns={[
            { header: props.nameHeader, render: (row) => row.name },
            { header: 'Customers', numeric: true, render: (row) => formatCount(row.customers) },
          ]}
        />
      }
      empty={props.rows.length === 0 && 'No customer holds a current policy.'}
      side
    />
  );
}

function TopCustomers(props: {
  title: string;
  rows: CustomerValue[];
  figures: { header: string; amount(row: CustomerValue): string }[];
}) {
  // A phone has room for the name and the amounts; the count of policies is on the customer's page.
  const phone = useDevice() === 'mobile';
  return (
    <FigureCard
      title={props.title}
      description="Every policy term they have held with you, a cancelled one for what it earned"
    >
      {props.rows.length === 0 ? (
        <Text c="dimmed">No policies recorded yet.</Text>
      ) : (
        <FigureTable
          caption={props.title}
          rows={props.rows}
          rowKey={(row) => row.customer_id}
          columns={[
            {
              header: 'Customer',
              render: (row) => (
                <Anchor component={Link} to={`/customers/${row.customer_id}`} fz="sm">
                  {row.customer_name}
                </Anchor>
              ),
            },
            ...(phone
              ? []
              : [
                  {
                    header: 'Policies',
                    numeric: true,
                    render: (row: CustomerValue) => formatCount(row.policies),
                  },
                ]),
            ...props.figures.map((figure) => ({
              header: figure.header,
              numeric: true,
              render: (row: CustomerValue) => <Money amount={figure.amount(row)} />,
            })),
          ]}
        />
      )}
    </FigureCard>
  );
}
