import { type ExpiringPolicy, notRenewingBody } from '@coverdesk/contract';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { FormError } from '../../../components/form-error.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { useMarkNotRenewing } from '../api.js';

/**
 * Says why a policy will not be renewed. It leaves the list; the reason shows on the policy, where
 * the mark can be undone.
 */
export function NotRenewingDialog({ policy, onClose }: { policy: ExpiringPolicy; onClose(): void }) {
  const mark = useMarkNotRenewing(policy.id);
  const form = useForm({ initialValues: { reason: '' }, validate: zodValidate(notRenewingBody) });
  const { onSubmit, error, submitting } = useFormSubmit(form, async (values) => {
    await mark.mutateAsync(values);
    notifications.show({
      color: 'green',
      message: `Policy ${policy.policy_number} marked as not renewing. You can undo this on the policy's page.`,
    });
    onClose();
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={`Not renewing policy ${policy.policy_number} for ${policy.customer_name}?`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Text fz="sm">
            It leaves this list and the reason shows on the policy. Its cover is not cancelled: it ends on its
            end date.
          </Text>
          <Textarea
            label="Reason"
            description="For the record, e.g. “Customer moved to another insurer”."
            required
            autosize
            minRows={2}
            maxLength={500}
            data-autofocus
            {...form.getInputProps('reason')}
          />
          <FormError message={error} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Keep on the list
            </Button>
            <Button type="submit" loading={submitting}>
              Mark as not renewing
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
