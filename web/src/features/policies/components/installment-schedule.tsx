import { PAYMENT_METHOD_LABELS, type Policy } from '@coverdesk/contract';
import { Card, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { InstallmentStatusBadge } from '../../../components/installment-status-badge.js';
import { ErrorState } from '../../../components/page-states.js';
import { type PayableInstallment, PaymentButton } from '../../../components/payment-button.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';
import { useDevice } from '../../../lib/viewport.js';
import { usePolicyInstallments } from '../api.js';

/**
 * The premium's instalments: when each falls due, what was paid, when and how, and the payment
 * actions of the payments list, so a payment can be taken without leaving the policy.
 */
export function InstallmentSchedule({ policy }: { policy: Policy }) {
  const installments = usePolicyInstallments(policy.id);
  const phone = useDevice() === 'mobile';
  // The payment dialogs name the policy, its customer and insurer, as they do in the payments list.
  const rows: PayableInstallment[] | undefined = installments.data?.map((row) => ({
    ...row,
    policy_number: policy.policy_number,
    customer_name: policy.customer_name,
    company_name: policy.company_name,
  }));
  return (
    <Card withBorder padding="lg">
      <Title order={3} fz="h4" mb="sm">
        Instalments
      </Title>
      {installments.isError ? (
        <ErrorState error={installments.error} onRetry={() => void installments.refetch()} />
      ) : !rows ? (
        <Skeleton h={120} />
      ) : phone ? (
        <Stack gap="md">
          {rows.map((row) => (
            <Stack key={row.id} gap={6}>
              <Group justify="space-between" wrap="nowrap">
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
              {/* At the right, as on the payments list's cards. */}
              <Group justify="flex-end">
                <PaymentButton row={row} />
              </Group>
            </Stack>
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
                <Table.Th>Payment</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
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
                  <Table.Td>
                    <PaymentButton row={row} />
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
