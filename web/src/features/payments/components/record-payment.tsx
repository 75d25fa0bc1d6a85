import {
  type InstallmentRow,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  type PaymentMethod,
} from '@coverdesk/contract';
import { Button, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { FormError } from '../../../components/form-error.js';
import { useFormSubmit } from '../../../lib/form.js';
import { formatMoney } from '../../../lib/format.js';
import { useRecordPayment, useUndoPayment } from '../api.js';

const METHOD_OPTIONS = PAYMENT_METHODS.map((value) => ({ value, label: PAYMENT_METHOD_LABELS[value] }));
const today = () => new Date().toISOString().slice(0, 10);
const remaining = (row: InstallmentRow) => {
  // Cents as integers: the form must show exactly what remains, never a float's approximation.
  const cents = (amount: string) => {
    const [whole = '0', fraction = '00'] = amount.split('.');
    return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  };
  const left = cents(row.amount_due) - cents(row.amount_paid);
  return `${left / 100n}.${(left % 100n).toString().padStart(2, '0')}`;
};

/**
 * Paying an instalment in two clicks: the button opens the payment with what remains, today and a
 * bank transfer filled in; the second click records it. A paid instalment offers to undo instead.
 */
export function PaymentButton({ row }: { row: InstallmentRow }) {
  const [opened, { open, close }] = useDisclosure(false);
  const undo = useUndoPayment();
  if (row.status === 'paid') {
    return (
      <Button
        size="xs"
        variant="subtle"
        color="gray"
        loading={undo.isPending}
        onClick={() =>
          undo.mutate(row.id, {
            onSuccess: () =>
              notifications.show({ color: 'green', message: `Payment on ${row.policy_number} undone.` }),
            onError: (failure) => notifications.show({ color: 'red', message: failure.message }),
          })
        }
        aria-label={`Undo the payment of instalment ${row.sequence} on ${row.policy_number}`}
      >
        Undo
      </Button>
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
      paid_date: today(),
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
