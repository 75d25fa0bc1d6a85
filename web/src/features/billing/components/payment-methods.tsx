import { CARD_BRANDS, type SavedPaymentMethod } from '@coverdesk/contract';
import {
  Badge,
  Button,
  Card,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCreditCard } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { FormError } from '../../../components/form-error.js';
import { ErrorState } from '../../../components/page-states.js';
import { fieldErrors } from '../../../lib/error-message.js';
import { ApiError } from '../../../lib/http.js';
import { usePaymentProvider } from '../../../lib/subscription.js';
import {
  billingFailure,
  useAddPaymentMethod,
  useDeletePaymentMethod,
  usePaymentMethodCheckout,
  usePaymentMethods,
  useSetDefaultPaymentMethod,
  useUpdatePaymentMethod,
} from '../api.js';

const BRAND_LABELS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  other: 'Card',
};

const expiry = (method: SavedPaymentMethod) =>
  method.expiry_month && method.expiry_year
    ? `${String(method.expiry_month).padStart(2, '0')}/${method.expiry_year}`
    : '';

/** Card actions: compact beside the card on a desktop, a 44 px touch target on a phone. */
const ACTION_HEIGHT = { base: 44, sm: 36 };

/**
 * The cards on file: Paddle's when it takes the payments, otherwise the ones recorded here; `locked`
 * shows them without the buttons that change them.
 */
export function PaymentMethods({ locked }: { locked: boolean }) {
  const methods = usePaymentMethods();
  const { data: provider } = usePaymentProvider();
  const paddleCheckout = usePaymentMethodCheckout();
  const setDefault = useSetDefaultPaymentMethod();
  const [editing, setEditing] = useState<SavedPaymentMethod | 'new' | null>(null);
  const [removing, setRemoving] = useState<SavedPaymentMethod | null>(null);

  const add = () => {
    if (provider !== 'paddle') return setEditing('new');
    paddleCheckout.mutate(undefined, {
      onError: (error) =>
        notifications.show({ color: 'red', message: billingFailure('paymentMethodCheckout', error) }),
    });
  };

  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h4">
          Payment methods
        </Title>
        {!locked && (
          <Button
            mih={44}
            variant="light"
            leftSection={<IconCreditCard size={16} />}
            onClick={add}
            loading={paddleCheckout.isPending}
          >
            Add payment method
          </Button>
        )}
      </Group>
      {methods.isPending ? (
        <Skeleton h={60} />
      ) : methods.isError ? (
        <ErrorState
          title="Failed to fetch payment methods"
          error={methods.error}
          onRetry={() => void methods.refetch()}
        />
      ) : methods.data.results.length === 0 ? (
        <Text c="dimmed">
          {locked
            ? 'The demo agency has no card, and cards cannot be added in the demo.'
            : 'No payment method yet. Add a card so renewals are paid without a break.'}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {methods.data.results.map((method) => (
            <Card
              key={method.id}
              withBorder
              padding="md"
              aria-label={`${BRAND_LABELS[method.brand] ?? method.brand} ending ${method.last4}`}
            >
              <Group justify="space-between" gap="xs">
                <Text fw={600}>
                  {BRAND_LABELS[method.brand] ?? method.brand} •••• {method.last4}
                </Text>
                {method.is_default && <Badge variant="light">Default</Badge>}
              </Group>
              <Text fz="sm" c="dimmed">
                {[method.holder_name, expiry(method) && `expires ${expiry(method)}`]
                  .filter(Boolean)
                  .join(', ')}
              </Text>
              {method.provider === 'manual' && !locked && (
                <Group gap="xs" mt="sm">
                  {!method.is_default && (
                    <Button
                      size="xs"
                      mih={ACTION_HEIGHT}
                      variant="default"
                      loading={setDefault.isPending && setDefault.variables === method.id}
                      onClick={() =>
                        setDefault.mutate(method.id, {
                          onError: (error) =>
                            notifications.show({
                              color: 'red',
                              message: billingFailure('setDefaultPaymentMethod', error),
                            }),
                        })
                      }
                    >
                      Make default
                    </Button>
                  )}
                  <Button size="xs" mih={ACTION_HEIGHT} variant="default" onClick={() => setEditing(method)}>
                    Edit
                  </Button>
                  <Button
                    size="xs"
                    mih={ACTION_HEIGHT}
                    variant="subtle"
                    color="red"
                    onClick={() => setRemoving(method)}
                  >
                    Remove
                  </Button>
                </Group>
              )}
            </Card>
          ))}
        </SimpleGrid>
      )}
      {editing && <CardDialog method={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <RemoveDialog method={removing} onClose={() => setRemoving(null)} />
    </Card>
  );
}

/** Records a card with the manual provider: its brand, last four digits and expiry, never its number. */
function CardDialog({ method, onClose }: { method: SavedPaymentMethod | null; onClose(): void }) {
  const add = useAddPaymentMethod();
  const update = useUpdatePaymentMethod();
  const [brand, setBrand] = useState<string>(method?.brand ?? 'visa');
  const [last4, setLast4] = useState(method?.last4 ?? '');
  const [month, setMonth] = useState<number | string>(method?.expiry_month ?? '');
  const [year, setYear] = useState<number | string>(method?.expiry_year ?? '');
  const [holder, setHolder] = useState(method?.holder_name ?? '');
  const mutation = method ? update : add;
  const errors =
    mutation.error instanceof ApiError && mutation.error.status === 400
      ? fieldErrors(mutation.error.body)
      : {};
  const failure = mutation.isError
    ? billingFailure(method ? 'updatePaymentMethod' : 'addPaymentMethod', mutation.error)
    : null;
  const body = {
    expiry_month: typeof month === 'number' ? month : Number.NaN,
    expiry_year: typeof year === 'number' ? year : Number.NaN,
    holder_name: holder,
  };
  const done = { onSuccess: onClose };
  const submit = () =>
    method
      ? update.mutate({ id: method.id, ...body }, done)
      : add.mutate({ ...body, brand: brand as (typeof CARD_BRANDS)[number], last4 }, done);

  return (
    <Modal
      opened
      onClose={onClose}
      title={method ? 'Edit card' : 'Add a card'}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          {!method && (
            <>
              <Select
                label="Card brand"
                data={CARD_BRANDS.map((value) => ({ value, label: BRAND_LABELS[value] ?? value }))}
                value={brand}
                onChange={(value) => setBrand(value ?? 'visa')}
                allowDeselect={false}
                error={errors.brand}
              />
              <TextInput
                label="Last four digits"
                inputMode="numeric"
                maxLength={4}
                value={last4}
                onChange={(event) => setLast4(event.currentTarget.value)}
                error={errors.last4}
                required
              />
            </>
          )}
          <Group grow>
            <NumberInput
              label="Expiry month"
              min={1}
              max={12}
              value={month}
              onChange={setMonth}
              error={errors.expiry_month}
              required
            />
            <NumberInput
              label="Expiry year"
              min={2000}
              max={2100}
              value={year}
              onChange={setYear}
              error={errors.expiry_year}
              required
            />
          </Group>
          <TextInput
            label="Name on card"
            value={holder}
            onChange={(event) => setHolder(event.currentTarget.value)}
            error={errors.holder_name}
            required
          />
          <Text fz="xs" c="dimmed">
            Without a payment provider, Coverdesk keeps only this description of the card, never its number.
          </Text>
          <FormError message={Object.keys(errors).length > 0 ? null : failure} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {method ? 'Save card' : 'Add card'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RemoveDialog({ method, onClose }: { method: SavedPaymentMethod | null; onClose(): void }) {
  const remove = useDeletePaymentMethod();
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      opened={method !== null}
      title="Remove payment method"
      confirmLabel="Remove card"
      busy={remove.isPending}
      error={remove.isError ? billingFailure('deletePaymentMethod', remove.error) : null}
      onClose={close}
      onConfirm={() => method && remove.mutate(method.id, { onSuccess: close })}
    >
      Remove the {method ? `${BRAND_LABELS[method.brand] ?? method.brand} ending ${method.last4}` : 'card'}?
      {method?.is_default ? ' Another card on file becomes the default.' : ''}
    </ConfirmDialog>
  );
}
