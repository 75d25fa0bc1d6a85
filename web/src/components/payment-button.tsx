import {
  fromCents,
  type InstallmentRow,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  type PaymentBody,
  type PaymentCorrectionBody,
  type PaymentMethod,
  readAmount,
  toCents,
} from '@coverdesk/contract';
import { Button, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../lib/api-client.js';
import { useFormSubmit } from '../lib/form.js';
import { Money, useFormatMoney } from '../lib/money.js';
import { queryKeys, useMarkChanged } from '../lib/query-keys.js';
import { useAgencyToday } from '../lib/use-agency-today.js';
import { useCan } from '../lib/use-can.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { FormError } from './form-error.js';

/**
 * A payment shows in the instalment lists, the policy's totals, the insurer's figures, the customer's
 * balance, the commission received in the report, the analytics and the dashboard.
 */
const affected = [
  queryKeys.payments,
  queryKeys.policies,
  queryKeys.companies,
  queryKeys.customers,
  queryKeys.commissionReport,
  queryKeys.analytics,
  queryKeys.dashboard,
];

/** Records a payment on an instalment (by default: what remains, today). */
function useRecordPayment() {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: PaymentBody }) =>
      api.post<InstallmentRow>(`/installments/${id}/payment/`, body),
    onSuccess: () => markChanged(),
  });
}

/** Sets the payment on an instalment as a whole: amount, date, method and reference. */
function useCorrectPayment() {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: PaymentCorrectionBody }) =>
      api.put<InstallmentRow>(`/installments/${id}/payment/`, body),
    onSuccess: () => markChanged(),
  });
}

function useUndoPayment() {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (id: string) => api.delete<InstallmentRow>(`/installments/${id}/payment/`),
    onSuccess: () => markChanged(),
  });
}

const METHOD_OPTIONS = PAYMENT_METHODS.map((value) => ({ value, label: PAYMENT_METHOD_LABELS[value] }));

/**
 * An instalment with what a broker knows its policy by: a row of the payments list, or a row of a
 * policy's schedule told its policy's number, customer and insurer.
 */
export type PayableInstallment = Omit<InstallmentRow, 'customer'>;

/** What remains due, counted in whole cents. */
const remaining = (row: PayableInstallment) => fromCents(toCents(row.amount_due) - toCents(row.amount_paid));

// Shared by the payments list, a policy's schedule and the dashboard's overdue instalments.

/**
 * Paying an instalment in two clicks: the button opens the payment with what remains, today and a
 * bank transfer filled in; the second click records it. Once something is paid, the payment can be
 * corrected (amount, date, method, reference) or undone, which asks first.
 */
export function PaymentButton({ row }: { row: PayableInstallment }) {
  const [dialog, setDialog] = useState<'record' | 'correct' | 'undo' | null>(null);
  const close = () => setDialog(null);
  const canWork = useCan('work');
  // A role that only reads sees what was paid, not the buttons that change it.
  if (!canWork) return null;
  // Cancelled with its policy: nothing is due on it, and what was paid stays as it was.
  if (row.status === 'cancelled') return null;
  const paidSomething = toCents(row.amount_paid) > 0n;
  return (
    <Group gap={4} wrap="nowrap">
      {row.status !== 'paid' && (
        <Button
          size="xs"
          variant="light"
          onClick={() => setDialog('record')}
          aria-label={`Record a payment on ${row.policy_number}, instalment ${row.sequence}`}
        >
          Record payment
        </Button>
      )}
      {paidSomething && (
        <>
          <Button
            size="xs"
            variant="subtle"
            onClick={() => setDialog('correct')}
            aria-label={`Correct the payment of instalment ${row.sequence} on ${row.policy_number}`}
          >
            Correct
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="gray"
            onClick={() => setDialog('undo')}
            aria-label={`Undo the payment of instalment ${row.sequence} on ${row.policy_number}`}
          >
            Undo
          </Button>
        </>
      )}
      {dialog === 'record' && <PaymentDialog row={row} onClose={close} />}
      {dialog === 'correct' && <PaymentDialog row={row} correcting onClose={close} />}
      <UndoDialog row={row} opened={dialog === 'undo'} onClose={close} />
    </Group>
  );
}

function UndoDialog({ row, opened, onClose }: { row: PayableInstallment; opened: boolean; onClose(): void }) {
  const undo = useUndoPayment();
  return (
    <ConfirmDialog
      opened={opened}
      onClose={onClose}
      title={`Undo the payment on ${row.policy_number}, instalment ${row.sequence}?`}
      confirmLabel="Undo payment"
      busy={undo.isPending}
      error={undo.error?.message ?? null}
      onConfirm={() =>
        undo.mutate(row.id, {
          onSuccess: () => {
            notifications.show({ color: 'green', message: `Payment on ${row.policy_number} undone.` });
            onClose();
          },
        })
      }
    >
      The <Money amount={row.amount_paid} /> recorded for {row.customer_name} is removed and the instalment is
      due again.
    </ConfirmDialog>
  );
}

/**
 * Recording adds to what was paid, from what remains; correcting replaces the recorded payment with
 * what the broker enters.
 */
function PaymentDialog({
  row,
  correcting = false,
  onClose,
}: {
  row: PayableInstallment;
  correcting?: boolean;
  onClose(): void;
}) {
  const record = useRecordPayment();
  const correct = useCorrectPayment();
  // The amount's field is named as the API names it, so its errors land beside it.
  const amountField = correcting ? 'amount_paid' : 'amount';
  const today = useAgencyToday();
  const formatMoney = useFormatMoney();
  const form = useForm({
    initialValues: {
      amount: remaining(row),
      amount_paid: row.amount_paid,
      paid_date: (correcting && row.paid_date) || today,
      payment_method: (correcting && row.payment_method) || ('bank_transfer' as PaymentMethod),
      reference: correcting ? row.reference : '',
    },
  });
  const { onSubmit, error } = useFormSubmit(form, async ({ amount, amount_paid, ...payment }) => {
    if (correcting) await correct.mutateAsync({ id: row.id, body: { ...payment, amount_paid } });
    else await record.mutateAsync({ id: row.id, body: { ...payment, amount } });
    notifications.show({
      color: 'green',
      message: correcting
        ? `Payment on ${row.policy_number} corrected to ${formatMoney(readAmount(amount_paid))}.`
        : `${formatMoney(readAmount(amount))} recorded on ${row.policy_number} for ${row.customer_name}.`,
    });
    onClose();
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={`${correcting ? 'Correct the payment' : 'Payment'} on ${row.policy_number}, instalment ${row.sequence}`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Text fz="sm" c="dimmed">
            {row.customer_name} · {row.company_name} · <Money amount={row.amount_due} /> due
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label={correcting ? 'Amount paid in all' : 'Amount'}
              required
              inputMode="decimal"
              data-autofocus
              {...form.getInputProps(amountField)}
            />
            <TextInput type="date" label="Paid on" required {...form.getInputProps('paid_date')} />
            <Select
              label="Method"
              data={METHOD_OPTIONS}
              allowDeselect={false}
              {...form.getInputProps('payment_method')}
            />
            <TextInput
              label="Reference"
              placeholder="Receipt or transfer number"
              {...form.getInputProps('reference')}
            />
          </SimpleGrid>
          <FormError message={error} />
          <Group justify="flex-end">
            <Button type="submit" loading={record.isPending || correct.isPending}>
              {correcting ? 'Save correction' : 'Record'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
