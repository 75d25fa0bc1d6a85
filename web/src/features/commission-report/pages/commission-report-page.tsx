import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus, IconReceipt } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { type Column, DataList } from '../../../components/data-list.js';
import { ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState } from '../../../components/page-states.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';
import { useCan } from '../../../lib/use-can.js';
import { type ReportRow, useCommissionReport, useCommissionRows } from '../api.js';
import { ExportButtons } from '../components/export-buttons.js';
import { InsurerSummary } from '../components/insurer-summary.js';
import { InsurersOwed } from '../components/insurers-owed.js';
import { PaymentStatusBadge } from '../components/payment-status-badge.js';
import { ProducerShares } from '../components/producer-shares.js';
import { ReportFilters } from '../components/report-filters.js';
import { SummaryCards, SummaryCardsSkeleton } from '../components/summary-cards.js';
import { describeRange } from '../period.js';
import { useReportParams } from '../report-params.js';

/** A figure with a smaller one under it: what was received, and of how much. */
function TwoLines({ main, under }: { main: ReactNode; under: ReactNode }) {
  return (
    <div>
      <Text fz="sm" component="div">
        {main}
      </Text>
      <Text fz="xs" c="dimmed">
        {under}
      </Text>
    </div>
  );
}

/** What the insurer still owes on the policy today, or what it paid beyond that. */
function InsurerOwes({ row }: { row: ReportRow }) {
  const owed = row.owed_by_insurer;
  return owed.startsWith('-') ? (
    <>
      overpaid <Money amount={owed.slice(1)} />
    </>
  ) : (
    <>
      owes <Money amount={owed} />
    </>
  );
}

const columns: Column<ReportRow>[] = [
  // The customer under the policy number, the type under the insurer, the columns closer than a
  // list's: nine columns fit a 1440 px screen, "Customer paid" included.
  {
    key: 'policy',
    header: 'Policy and customer',
    sort: 'policy_number',
    maxWidth: 150,
    render: (row) => <TwoLines main={row.policy_number} under={row.customer_name} />,
  },
  {
    key: 'insurer',
    header: 'Insurer and type',
    sort: 'company_name',
    maxWidth: 140,
    render: (row) => <TwoLines main={row.company_name} under={row.policy_type_name} />,
  },
  {
    key: 'term',
    header: 'Term',
    sort: 'start_date',
    render: (row) => <TwoLines main={formatDate(row.start_date)} under={`to ${formatDate(row.end_date)}`} />,
  },
  {
    key: 'premium',
    header: 'Premium',
    sort: 'total_premium',
    numeric: true,
    render: (row) => (
      <TwoLines
        main={<Money amount={row.total_premium} />}
        under={
          <>
            net <Money amount={row.net_premium} />
          </>
        }
      />
    ),
  },
  {
    key: 'expected',
    header: 'Expected',
    sort: 'expected_commission',
    numeric: true,
    render: (row) => (
      <TwoLines
        main={<Money amount={row.expected_commission} />}
        under={`at ${row.commission_percentage}%`}
      />
    ),
  },
  {
    key: 'received',
    header: 'Earned on payments',
    sort: 'received_commission',
    numeric: true,
    render: (row) => (
      <TwoLines
        main={<Money amount={row.received_commission} />}
        under={`${row.received_commission_percentage}%`}
      />
    ),
  },
  {
    key: 'outstanding',
    header: 'Outstanding',
    sort: 'outstanding_commission',
    numeric: true,
    render: (row) => <Money amount={row.outstanding_commission} />,
  },
  {
    key: 'insurer',
    header: 'Paid by insurer',
    numeric: true,
    render: (row) => (
      <TwoLines main={<Money amount={row.insurer_paid_commission} />} under={<InsurerOwes row={row} />} />
    ),
  },
  {
    key: 'payments',
    header: 'Customer paid',
    sort: 'amount_paid',
    render: (row) => (
      <TwoLines
        main={<PaymentStatusBadge status={row.payment_status} />}
        under={
          <>
            <Money amount={row.amount_paid} /> · {row.installments_paid} of {row.total_installments}
          </>
        }
      />
    ),
  },
];

function RowCard({ row }: { row: ReportRow }) {
  return (
    <Stack gap={2}>
      <Group justify="space-between" wrap="nowrap">
        <Text fw={600}>{row.policy_number}</Text>
        <PaymentStatusBadge status={row.payment_status} />
      </Group>
      <Text fz="sm">
        {row.customer_name} · {row.company_name}
      </Text>
      <Group justify="space-between" wrap="nowrap">
        <Text fz="sm" c="dimmed">
          Received
        </Text>
        <Text fz="sm" fw={600} style={TABULAR_FIGURES}>
          <Money amount={row.received_commission} /> of <Money amount={row.expected_commission} />
        </Text>
      </Group>
      <Group justify="space-between" wrap="nowrap">
        <Text fz="sm" c="dimmed">
          Paid by insurer
        </Text>
        <Text fz="sm" style={TABULAR_FIGURES}>
          <Money amount={row.insurer_paid_commission} /> · <InsurerOwes row={row} />
        </Text>
      </Group>
    </Stack>
  );
}

export function Component() {
  const report = useReportParams();
  const { params } = report;
  const totals = useCommissionReport(report.query);
  const rows = useCommissionRows(report.query);
  const data = totals.data;
  const showAllPeriods = () => params.set({ period: 'custom', start_date: null, end_date: null });
  const unbounded = !report.range.start && !report.range.end;
  const canWork = useCan('work');

  return (
    <Stack>
      <ListToolbar
        params={params}
        searchLabel="Search policy number or customer"
        filters={<ReportFilters report={report} />}
      />
      <Group justify="space-between" gap="sm">
        <Text fz="sm" c="dimmed" aria-live="polite">
          Policies in force {describeRange(report.range)}, each with its whole term's commission
        </Text>
        <ExportButtons query={report.exportQuery} empty={data?.summary.total_policies === 0} />
      </Group>
      {totals.isPending && <SummaryCardsSkeleton />}
      {data && data.summary.total_policies > 0 && (
        <>
          <SummaryCards summary={data.summary} />
          <InsurerSummary insurers={data.company_summary} onChoose={(id) => params.set({ company_id: id })} />
        </>
      )}
      {data && (data.summary.total_policies > 0 || !unbounded) && (
        <InsurersOwed companyId={params.filters.company_id || undefined} />
      )}
      {data && data.summary.total_policies > 0 && (
        <>
          <ProducerShares exportQuery={report.exportQuery} />
          <Title order={2} fz="h4" mt="xs">
            Policies
          </Title>
        </>
      )}
      <DataList
        noun={{ one: 'policy', many: 'policies' }}
        query={rows}
        params={{ ...params, narrowed: report.narrowed }}
        columns={columns}
        dense
        href={(row) => `/policies/${row.policy_id}`}
        card={(row) => <RowCard row={row} />}
        empty={
          unbounded ? (
            <EmptyState
              icon={IconReceipt}
              title="No policies yet"
              action={
                canWork && (
                  <Button
                    component={Link}
                    to="/policies/create"
                    leftSection={<IconPlus size={16} aria-hidden />}
                  >
                    New policy
                  </Button>
                )
              }
            >
              The report adds up the commission on the policies you record: what each insurer should pay you,
              and what has come in.
            </EmptyState>
          ) : (
            <EmptyState
              icon={IconReceipt}
              title="No policies in this period"
              action={<Button onClick={showAllPeriods}>Show every period</Button>}
            >
              None of your policies is in force {describeRange(report.range)}. Choose another period, or look
              at every period at once.
            </EmptyState>
          )
        }
      />
    </Stack>
  );
}
