import {
  fromCents,
  type InstallmentRow,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  type PaymentMethod,
  toCents,
} from '@coverdesk/contract';
import { Button, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { FormError } from '../../../components/form-error.js';
import { useFormSubmit } from '../../../lib/form.js';
import { formatMoney, localToday } from '../../../lib/format.js';
import { useRecordPayment, useUndoPayment } from '../api.js';

const METHOD_OPTIONS = PAYMENT_METHODS.map((value) => ({ value, label: PAYMENT_METHOD_LABELS[value] }));
/** What remains due, counted in whole cents. */
const remaining = (row: InstallmentRow) => fromCents(toCents(row.amount_due) - toCents(row.amount_paid));

/**
 * Paying an instalment in two clicks: the button opens the payment with what remains, today and a
 * bank transfer filled in; the second click records it. A paid instalment offers to undo instead.
 */
export function PaymentButton({ row }: { row: InstallmentRow }) {
  const [opened, { open, close }] = useDisclosure(false);
  const undo = useUndoPayment();
  if (row.status === 'paid') {
    return (
      <>
        <Button
          size="xs"
          variant="subtle"
          color="gray"
          onClick={open}
          aria-label={`Undo the payment of instalment ${row.sequence} on ${row.policy_number}`}
        >
          Undo
        </Button>
        <ConfirmDialog
          opened={opened}
          onClose={close}
          title={`Undo the payment on ${row.policy_number}, instalment ${row.sequence}?`}
          confirmLabel="Undo payment"
          busy={undo.isPending}
          error={undo.error?.message ?? null}
          onConfirm={() =>
            undo.mutate(row.id, {
              onSuccess: () => {
                notifications.show({ color: 'green', message: `Payment on ${row.policy_number} undone.` });
                close();
              },
            })
          }
        >
          The {formatMoney(row.amount_paid)} recorded for {row.customer_name} is removed and the instalment is
          due again.
        </ConfirmDialog>
      </>
    );
  }
  return (
    <>
      <Button
        size="xs"
        variant="light"
        onClick={open}
        aria-label={`Record a payment on ${row.policy_number}, instalment ${row.sequence}`}
      >
        Record payment
      </Button>
      {opened && <PaymentDialog row={row} onClose={close} />}
    </>
  );
}

function PaymentDialog({ row, onClose }: { row: InstallmentRow; onClose(): void }) {
  const record = useRecordPayment();
  const form = useForm({
    initialValues: {
      amount: remaining(row),
      paid_date: localToday(),
      payment_method: 'bank_transfer' as PaymentMethod,
      reference: '',
    },
  });
  const { onSubmit, error } = useFormSubmit(form, async (values) => {
    await record.mutateAsync({ id: row.id, body: values });
    notifications.show({
      color: 'green',
      message: `${formatMoney(values.amount)} recorded on ${row.policy_number} for ${row.customer_name}.`,
    });
    onClose();
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={`Payment on ${row.policy_number}, instalment ${row.sequence}`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Text fz="sm" c="dimmed">
            {row.customer_name} · {row.company_name} · {formatMoney(row.amount_due)} due
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label="Amount"
              required
              inputMode="decimal"
              data-autofocus
              {...form.getInputProps('amount')}
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
            <Button type="submit" loading={record.isPending}>
              Record
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
