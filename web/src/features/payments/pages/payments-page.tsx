import type { InstallmentRow } from '@coverdesk/contract';
import { Anchor, Group, Stack, Text } from '@mantine/core';
import { IconCash } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { type Column, DataList } from '../../../components/data-list.js';
import { ExportMenu } from '../../../components/export-menu.js';
import { InstallmentStatusBadge } from '../../../components/installment-status-badge.js';
import { FilterDate, FilterSelect, ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState } from '../../../components/page-states.js';
import { PaymentButton } from '../../../components/payment-button.js';
import { formatDate } from '../../../lib/format.js';
import { useListParams } from '../../../lib/list-params.js';
import { Money } from '../../../lib/money.js';
import { MineFilter } from '../../team/components/assignee.js';
import { useInstallments } from '../api.js';

const FILTERS = [
  'status',
  'due_date_from',
  'due_date_to',
  'company_id',
  'customer_id',
  'assigned_to',
] as const;
const STATUS_OPTIONS = [
  { value: 'due', label: 'Due' },
  { value: 'overdue', label: 'Overdue' },
  { value: 'partially_paid', label: 'Partially paid' },
  { value: 'paid', label: 'Paid' },
  { value: 'cancelled', label: 'Cancelled' },
];

const columns: Column<InstallmentRow>[] = [
  { key: 'due', header: 'Due', sort: 'due_date', render: (row) => formatDate(row.due_date) },
  {
    key: 'policy',
    header: 'Policy',
    render: (row) => (
      <div>
        <Text fz="sm">{row.policy_number}</Text>
        <Text fz="xs" c="dimmed">
          Instalment {row.sequence} · {row.company_name}
        </Text>
      </div>
    ),
  },
  { key: 'customer', header: 'Customer', render: (row) => row.customer_name },
  {
    key: 'amount',
    header: 'Amount',
    sort: 'amount_due',
    numeric: true,
    render: (row) => <Money amount={row.amount_due} />,
  },
  { key: 'paid', header: 'Paid', numeric: true, render: (row) => <Money amount={row.amount_paid} /> },
  { key: 'status', header: 'Status', render: (row) => <InstallmentStatusBadge installment={row} /> },
  { key: 'action', header: 'Payment', render: (row) => <PaymentButton row={row} /> },
];

/** /payments (every instalment) and /payments/policy/{id} (one policy's). */
export function Component() {
  const { id: policyId } = useParams();
  // Opens on what needs attention: still owed by due date, so the overdue lead, and the paid last.
  const params = useListParams(FILTERS, 'attention');
  const installments = useInstallments(policyId ? { ...params.query, policy_id: policyId } : params.query);
  const first = installments.data?.results[0];

  return (
    <Stack>
      {policyId && first && (
        <Text>
          Instalments of policy{' '}
          <Anchor component={Link} to={`/policies/${policyId}`}>
            {first.policy_number}
          </Anchor>{' '}
          for {first.customer_name}.{' '}
          <Anchor component={Link} to="/payments">
            All payments
          </Anchor>
        </Text>
      )}
      <ListToolbar
        params={params}
        exportMenu={
          <ExportMenu
            path="/installments/export/"
            list="payments"
            query={policyId ? { ...params.exportQuery, policy_id: policyId } : params.exportQuery}
            disabled={installments.data?.count === 0}
          />
        }
        searchLabel="Search policy number or customer"
        filters={
          <>
            {/* One policy's instalments have one assignee: whose they are is no choice there. */}
            {!policyId && (
              <MineFilter
                value={params.filters.assigned_to}
                onChange={(assigned_to) => params.set({ assigned_to })}
              />
            )}
            <FilterSelect
              params={params}
              name="status"
              label="Status"
              placeholder="Any status"
              data={STATUS_OPTIONS}
              width={150}
            />
            <FilterDate params={params} name="due_date_from" label="Due from" />
            <FilterDate params={params} name="due_date_to" label="Due to" />
          </>
        }
      />
      <DataList
        noun={{ one: 'instalment', many: 'instalments' }}
        query={installments}
        params={params}
        columns={columns}
        href={(row) => `/policies/${row.policy_id}`}
        card={(row) => (
          <Stack gap={2}>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600}>
                {formatDate(row.due_date)} · <Money amount={row.amount_due} />
              </Text>
              <InstallmentStatusBadge installment={row} />
            </Group>
            <Text fz="sm" c="dimmed">
              {row.policy_number} · {row.customer_name}
            </Text>
          </Stack>
        )}
        cardAction={(row) => <PaymentButton row={row} />}
        empty={
          <EmptyState icon={IconCash} title="No instalments yet">
            Every policy you record is split into instalments. They appear here to be paid, with the overdue
            ones flagged.
          </EmptyState>
        }
      />
    </Stack>
  );
}
