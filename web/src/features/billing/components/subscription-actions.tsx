import type { Subscription } from '@coverdesk/contract';
import { Button, Flex, Group, Modal, Radio, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { FormError } from '../../../components/form-error.js';
import { formatDate } from '../../../lib/format.js';
import { billingFailure, useCancelSubscription, usePause, useReactivate } from '../api.js';

/** What can be done with the subscription as it stands: cancel, pause, or take either back. */
export function SubscriptionActions({ subscription }: { subscription: Subscription }) {
  const [open, setOpen] = useState<'cancel' | 'pause' | null>(null);
  const reactivate = useReactivate();
  const { status, cancel_at_period_end } = subscription;
  const canReactivate =
    status === 'paused' || (status === 'cancelled' && cancel_at_period_end && subscription.is_active);
  const canCancel = status === 'trial' || status === 'active' || status === 'past_due' || status === 'paused';
  const canPause = status === 'active';

  return (
    <>
      <Group gap="sm">
        {canReactivate && (
          <Button
            mih={44}
            loading={reactivate.isPending}
            onClick={() =>
              reactivate.mutate(undefined, {
                onSuccess: ({ message }) => notifications.show({ color: 'green', message }),
                onError: (error) =>
                  notifications.show({ color: 'red', message: billingFailure('reactivate', error) }),
              })
            }
          >
            Reactivate subscription
          </Button>
        )}
        {canPause && (
          <Button mih={44} variant="default" onClick={() => setOpen('pause')}>
            Pause subscription
          </Button>
        )}
        {canCancel && (
          <Button mih={44} variant="light" color="red" onClick={() => setOpen('cancel')}>
            {status === 'trial' ? 'End trial' : 'Cancel subscription'}
          </Button>
        )}
      </Group>
      <CancelDialog subscription={subscription} opened={open === 'cancel'} onClose={() => setOpen(null)} />
      <PauseDialog opened={open === 'pause'} onClose={() => setOpen(null)} />
    </>
  );
}

function CancelDialog({
  subscription,
  opened,
  onClose,
}: {
  subscription: Subscription;
  opened: boolean;
  onClose(): void;
}) {
  const cancel = useCancelSubscription();
  const [reason, setReason] = useState('');
  const onTrial = subscription.status === 'trial';
  const plan = subscription.plan_details.display_name;
  const periodEnd = onTrial ? subscription.trial_ends_at : subscription.current_period_end;
  const canWaitForPeriodEnd = subscription.status !== 'paused' && Boolean(periodEnd);
  const [when, setWhen] = useState<'at_period_end' | 'immediate'>('at_period_end');
  const immediate = !canWaitForPeriodEnd || when === 'immediate';
  // The dialog stays mounted: the next opening starts afresh, at period end.
  const close = () => {
    cancel.reset();
    setReason('');
    setWhen('at_period_end');
    onClose();
  };
  const submit = () =>
    cancel.mutate(
      { reason: reason.trim() || undefined, immediate },
      {
        onSuccess: ({ message }) => {
          notifications.show({ color: 'green', message });
          close();
        },
      },
    );

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={onTrial ? `End your ${plan} trial?` : `Cancel your ${plan} subscription?`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Textarea
          label="Why are you leaving?"
          description="Optional. It helps us make Coverdesk better."
          placeholder="For example: merging with another agency, or moving policies to another system"
          maxLength={500}
          autosize
          minRows={2}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
        />
        {canWaitForPeriodEnd && (
          <Radio.Group label="When" value={when} onChange={(value) => setWhen(value as typeof when)}>
            <Stack gap="xs" mt={6}>
              <Radio
                value="at_period_end"
                label={`At the end of the ${onTrial ? 'trial' : 'period'}: keep access until ${formatDate(periodEnd)}`}
              />
              <Radio value="immediate" label="Immediately: your agency's screens close now" />
            </Stack>
          </Radio.Group>
        )}
        <Text fz="sm" c="dimmed">
          Your agency's data is kept. You can subscribe again at any time.
        </Text>
        <FormError message={cancel.isError ? billingFailure('cancel', cancel.error) : null} />
        {/* On a phone the two choices stack full width, the action on top. */}
        <Flex direction={{ base: 'column-reverse', xs: 'row' }} justify="flex-end" gap="sm">
          <Button mih={44} variant="default" onClick={close}>
            {onTrial ? 'Keep trial' : 'Keep subscription'}
          </Button>
          <Button mih={44} color="red" loading={cancel.isPending} onClick={submit}>
            {onTrial
              ? immediate
                ? 'End trial now'
                : `End trial on ${formatDate(periodEnd)}`
              : immediate
                ? 'Cancel now'
                : 'Cancel at period end'}
          </Button>
        </Flex>
      </Stack>
    </Modal>
  );
}

function PauseDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const pause = usePause();
  const close = () => {
    pause.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      opened={opened}
      title="Pause subscription"
      confirmLabel="Pause subscription"
      busy={pause.isPending}
      error={pause.isError ? billingFailure('pause', pause.error) : null}
      onClose={close}
      onConfirm={() =>
        pause.mutate(undefined, {
          onSuccess: ({ message }) => {
            notifications.show({ color: 'green', message });
            close();
          },
        })
      }
    >
      While paused you are not billed, and your agency's screens stay closed until you reactivate. Your data
      is kept.
    </ConfirmDialog>
  );
}
