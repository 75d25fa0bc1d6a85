import { type CommissionStatement, STATEMENT_STATUSES } from '@coverdesk/contract';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconFileInvoice, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { type Column, DataList } from '../../../components/data-list.js';
import { FilterSelect, InsurerFilter, ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState } from '../../../components/page-states.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { useInsurerChoices } from '../../../lib/insurer-choices.js';
import { useListParams } from '../../../lib/list-params.js';
import { Money } from '../../../lib/money.js';
import { useCan } from '../../../lib/use-can.js';
import { useStatements } from '../api.js';
import { STATUS_LABELS, StatementStatusBadge } from '../components/badges.js';
import { UploadStatementModal } from '../components/upload-modal.js';

const FILTERS = ['company_id', 'status'] as const;
const STATUS_OPTIONS = STATEMENT_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }));

const columns: Column<CommissionStatement>[] = [
  { key: 'insurer', header: 'Insurer', render: (row) => row.company_name },
  { key: 'date', header: 'Statement date', render: (row) => formatDate(row.statement_date) },
  { key: 'status', header: 'Status', render: (row) => <StatementStatusBadge status={row.status} /> },
  { key: 'total', header: 'Total', numeric: true, render: (row) => <Money amount={row.total_amount} /> },
  {
    key: 'lines_total',
    header: 'Lines total',
    numeric: true,
    render: (row) => (
      <Text inherit c={row.lines_total === row.total_amount ? undefined : 'red.8'}>
        <Money amount={row.lines_total} />
      </Text>
    ),
  },
  { key: 'lines', header: 'Lines', numeric: true, render: (row) => row.line_count.toLocaleString('en-US') },
];

/** /commission-statements: the insurers' statements, newest first, and the way to upload one. */
export function Component() {
  const params = useListParams(FILTERS, '-statement_date');
  // The API sorts newest first and takes no ordering.
  const { ordering: _ordering, ...query } = params.query;
  const statements = useStatements(query);
  const insurers = useInsurerChoices();
  const [uploading, setUploading] = useState(false);
  const upload = useCan('insurers') && (
    <Button leftSection={<IconUpload size={16} aria-hidden />} onClick={() => setUploading(true)}>
      Upload a statement
    </Button>
  );

  return (
    <Stack>
      <ListToolbar
        params={params}
        action={upload}
        filters={
          <>
            <InsurerFilter params={params} insurers={insurers.data} />
            <FilterSelect
              params={params}
              name="status"
              label="Status"
              placeholder="Any status"
              data={STATUS_OPTIONS}
              width={140}
            />
          </>
        }
      />
      <DataList
        noun={{ one: 'statement', many: 'statements' }}
        query={statements}
        params={params}
        columns={columns}
        href={(row) => `/commission-statements/${row.id}`}
        card={(row) => (
          <Stack gap={2}>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600}>{row.company_name}</Text>
              <StatementStatusBadge status={row.status} />
            </Group>
            <Group justify="space-between" wrap="nowrap">
              <Text fz="sm" c="dimmed">
                {formatDate(row.statement_date)} · {row.line_count.toLocaleString('en-US')} lines
              </Text>
              <Text fz="sm" fw={600} style={TABULAR_FIGURES}>
                <Money amount={row.total_amount} />
              </Text>
            </Group>
          </Stack>
        )}
        empty={
          <EmptyState icon={IconFileInvoice} title="No statements yet" action={upload}>
            An insurer's commission statement lists what it paid you, policy by policy. Upload one and each
            line is matched to your policy and checked against what the insurer owed: short payments, over
            payments, chargebacks and the policies it left out are shown for you to review and accept.
          </EmptyState>
        }
      />
      <UploadStatementModal opened={uploading} onClose={() => setUploading(false)} />
    </Stack>
  );
}
