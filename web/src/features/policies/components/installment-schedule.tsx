import { PAYMENT_METHOD_LABELS } from '@coverdesk/contract';
import { Card, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { InstallmentStatusBadge } from '../../../components/installment-status-badge.js';
import { ErrorState } from '../../../components/page-states.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';
import { useDevice } from '../../../lib/viewport.js';
import { usePolicyInstallments } from '../api.js';

/** The premium's instalments: when each falls due, what was paid, when and how. */
export function InstallmentSchedule({ policyId }: { policyId: string }) {
  const installments = usePolicyInstallments(policyId);
  const phone = useDevice() === 'mobile';
  return (
    <Card withBorder padding="lg">
      <Title order={3} fz="h4" mb="sm">
        Instalments
      </Title>
      {installments.isPending ? (
        <Skeleton h={120} />
      ) : installments.isError ? (
        <ErrorState error={installments.error} onRetry={() => void installments.refetch()} />
      ) : phone ? (
        <Stack gap="xs">
          {installments.data.map((row) => (
            <Group key={row.id} justify="space-between" wrap="nowrap">
              <div>
                <Text fz="sm" fw={600}>
                  {row.sequence}. {formatDate(row.due_date)}
                </Text>
                <Text fz="xs" c="dimmed" style={TABULAR_FIGURES}>
                  <Money amount={row.amount_paid} /> paid of <Money amount={row.amount_due} />
                </Text>
              </div>
              <InstallmentStatusBadge installment={row} />
            </Group>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>#</Table.Th>
                <Table.Th>Due</Table.Th>
                <Table.Th ta="right">Amount</Table.Th>
                <Table.Th ta="right">Paid</Table.Th>
                <Table.Th>Paid on</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {installments.data.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>{row.sequence}</Table.Td>
                  <Table.Td>{formatDate(row.due_date)}</Table.Td>
                  <Table.Td ta="right" style={TABULAR_FIGURES}>
                    <Money amount={row.amount_due} />
                  </Table.Td>
                  <Table.Td ta="right" style={TABULAR_FIGURES}>
                    <Money amount={row.amount_paid} />
                  </Table.Td>
                  <Table.Td>
                    {row.paid_date
                      ? `${formatDate(row.paid_date)}${row.payment_method ? ` · ${PAYMENT_METHOD_LABELS[row.payment_method]}` : ''}`
                      : '—'}
                  </Table.Td>
                  <Table.Td>
                    <InstallmentStatusBadge installment={row} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
