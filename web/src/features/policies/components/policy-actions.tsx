import type { Policy, PolicyDetail } from '@coverdesk/contract';
import { Anchor, Button, Menu, Modal, PasswordInput, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconChevronDown } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { FormError } from '../../../components/form-error.js';
import { useFormSubmit } from '../../../lib/form.js';
import { formatDate } from '../../../lib/format.js';
import { useFormatMoney } from '../../../lib/money.js';
import { useAgencyToday } from '../../../lib/use-agency-today.js';
import { useCan } from '../../../lib/use-can.js';
import { useCancelPolicy, useSecureDeletePolicy } from '../api.js';

/** Renew, edit, cancel and delete, in one menu; the last two ask first. */
export function PolicyActions({ policy }: { policy: PolicyDetail }) {
  const [cancelling, cancelDialog] = useDisclosure(false);
  const [deleting, deleteDialog] = useDisclosure(false);
  const canWork = useCan('work');
  const canErase = useCan('secure_delete');
  const open = policy.status !== 'cancelled';
  if (!canWork) return null;
  return (
    <>
      {/* Without the focus placeholder the menu holds only menu items, as its role requires. */}
      <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <Button variant="default" rightSection={<IconChevronDown size={14} aria-hidden />}>
            Actions
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {open && !policy.renewed_to_id && (
            <Menu.Item component={Link} to={`/policies/${policy.id}/renew`}>
              Renew
            </Menu.Item>
          )}
          <Menu.Item component={Link} to={`/policies/${policy.id}/edit`}>
            Edit
          </Menu.Item>
          {/* A renewed term ends when its renewal starts; the server refuses to cancel it too. */}
          {open && !policy.renewed_to_id && <Menu.Item onClick={cancelDialog.open}>Cancel policy</Menu.Item>}
          {/* Erasing a policy for good is for owners and managers. */}
          {canErase && (
            <>
              <Menu.Divider />
              <Menu.Item c="red.9" onClick={deleteDialog.open}>
                Delete
              </Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
      <CancelDialog policy={policy} opened={cancelling} onClose={cancelDialog.close} />
      <SecureDeleteDialog policy={policy} opened={deleting} onClose={deleteDialog.close} />
    </>
  );
}

function CancelDialog({ policy, opened, onClose }: { policy: Policy; opened: boolean; onClose(): void }) {
  const cancel = useCancelPolicy(policy.id);
  const today = useAgencyToday();
  const formatMoney = useFormatMoney();
  // Today, unless the term has not started yet or is already over: the middle one of the three days.
  const initialDay = [policy.start_date, today, policy.end_date].sort()[1] ?? today;
  const form = useForm({
    initialValues: { cancelled_at: initialDay, reason: '', refund_amount: '' },
    validate: {
      cancelled_at: (value) =>
        !value
          ? 'Enter the date it ends.'
          : value < policy.start_date || value > policy.end_date
            ? `Choose a day within the term, ${formatDate(policy.start_date)} to ${formatDate(policy.end_date)}.`
            : null,
      reason: (value) => (value.trim() ? null : 'Say why, for the record.'),
    },
  });
  const { onSubmit, error } = useFormSubmit(form, async (values) => {
    await cancel.mutateAsync(values);
    notifications.show({ color: 'green', message: `Policy ${policy.policy_number} cancelled.` });
    onClose();
  });
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={`Cancel policy ${policy.policy_number} for ${policy.customer_name}?`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Text fz="sm">
            The instalments due after this day are cancelled: nothing more is asked of the customer. The
            commission becomes what the days of cover earn, or the premium less the refund if you enter one.
          </Text>
          <TextInput
            type="date"
            label="Cancelled on"
            required
            min={policy.start_date}
            max={policy.end_date}
            {...form.getInputProps('cancelled_at')}
          />
          <TextInput
            label="Refund to the customer"
            description={`Optional: what the insurer refunds of the ${formatMoney(policy.total_premium)} premium.`}
            inputMode="decimal"
            {...form.getInputProps('refund_amount')}
          />
          <Textarea label="Reason" required autosize minRows={2} {...form.getInputProps('reason')} />
          <FormError message={error} />
          <Button type="submit" color="red" loading={cancel.isPending}>
            Cancel policy
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * Deleting a policy removes its instalments and payments too, so the broker's password is asked for.
 * A policy with claims cannot be deleted (the API refuses): the dialog says so before the click and
 * leads to them.
 */
function SecureDeleteDialog({
  policy,
  opened,
  onClose,
}: {
  policy: PolicyDetail;
  opened: boolean;
  onClose(): void;
}) {
  const claims = policy.claim_count;
  const navigate = useNavigate();
  const remove = useSecureDeletePolicy(policy.id);
  const form = useForm({
    initialValues: { password: '' },
    validate: { password: (value) => (value ? null : 'Enter your password.') },
  });
  const { onSubmit, error } = useFormSubmit(form, async ({ password }) => {
    await remove.mutateAsync(password);
    notifications.show({ color: 'green', message: `Policy ${policy.policy_number} deleted.` });
    navigate('/policies');
  });
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={`Delete policy ${policy.policy_number} for ${policy.customer_name}?`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          {claims > 0 ? (
            <Text fz="sm">
              This policy has {claims === 1 ? '1 claim' : `${claims} claims`}, so it cannot be deleted: claims
              stay on record with their policy. Delete{' '}
              {claims === 1 ? 'the claim first if it was' : 'the claims first if they were'} reported by
              mistake, or cancel the policy instead.{' '}
              <Anchor component={Link} to={`/claims?policy_id=${policy.id}`} inherit>
                {claims === 1 ? 'Open the claim' : `Open the ${claims} claims`}
              </Anchor>
            </Text>
          ) : (
            <>
              <Text fz="sm">
                Its instalments and every payment recorded on them go too. This cannot be undone.
              </Text>
              <PasswordInput
                label="Your password"
                description="Re-enter it to confirm."
                autoComplete="current-password"
                required
                {...form.getInputProps('password')}
              />
            </>
          )}
          <FormError message={error} />
          <Button type="submit" color="red" loading={remove.isPending} disabled={claims > 0}>
            Delete policy
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
