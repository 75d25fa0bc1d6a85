import { type CreatedInvitation, invitationBody, TEAM_ROLE_LABELS, type TeamRole } from '@coverdesk/contract';
import { Alert, Anchor, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailCheck, IconMailOff } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { FormError } from '../../../components/form-error.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { formatDate } from '../../../lib/format.js';
import { ApiError } from '../../../lib/http.js';
import { useSession } from '../../../lib/session-context.js';
import { useInvite } from '../api.js';
import { InviteLink, NO_EMAIL_SENT } from './invite-link.js';
import { roleDescription, rolesToGive } from './role-choices.js';

/**
 * Inviting someone by email with a role. The link the email carries is shown once afterwards, for
 * the inviter to pass on if the email is slow or lost.
 */
export function InviteModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const [created, setCreated] = useState<CreatedInvitation | null>(null);
  const close = () => {
    onClose();
    setCreated(null);
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={created ? 'Invitation sent' : 'Invite a member'}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {created ? (
        <InviteSent invitation={created} onDone={close} />
      ) : (
        <InviteForm onSent={setCreated} onCancel={close} />
      )}
    </Modal>
  );
}

function InviteForm({ onSent, onCancel }: { onSent(invitation: CreatedInvitation): void; onCancel(): void }) {
  const { state } = useSession();
  const invite = useInvite();
  const form = useForm<{ email: string; role: TeamRole }>({
    initialValues: { email: '', role: 'agent' },
    validate: zodValidate(invitationBody),
  });
  const [overLimit, setOverLimit] = useState(false);
  const { onSubmit, error, submitting } = useFormSubmit(form, async (values) => {
    setOverLimit(false);
    try {
      onSent(await invite.mutateAsync(values));
    } catch (failure) {
      // The plan's users are all taken: its sentence, and the way to a bigger plan.
      setOverLimit(failure instanceof ApiError && failure.status === 402);
      throw failure;
    }
  });
  const role = form.getValues().role;
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Email"
          description="They get an email with a link to choose their password and join."
          type="email"
          autoComplete="off"
          required
          data-autofocus
          {...form.getInputProps('email')}
        />
        <Select
          label="Role"
          description={roleDescription(role)}
          data={rolesToGive(state.user?.role)}
          allowDeselect={false}
          required
          renderOption={({ option }) => (
            <div>
              <Text fz="sm" fw={600}>
                {option.label}
              </Text>
              <Text fz="xs" c="dimmed">
                {roleDescription(option.value)}
              </Text>
            </div>
          )}
          {...form.getInputProps('role')}
        />
        <FormError message={error}>
          {overLimit && (
            <>
              {' '}
              <Anchor component={Link} to="/billing" fz="sm">
                See plans
              </Anchor>
            </>
          )}
        </FormError>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={submitting}>
            Send invitation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function InviteSent({ invitation, onDone }: { invitation: CreatedInvitation; onDone(): void }) {
  return (
    <Stack gap="sm">
      {invitation.email_sent ? (
        <Alert color="green" variant="light" icon={<IconMailCheck size={18} aria-hidden />}>
          We emailed an invitation to join as {TEAM_ROLE_LABELS[invitation.role]} to{' '}
          <strong>{invitation.email}</strong>. The link works once, until {formatDate(invitation.expires_at)}.
        </Alert>
      ) : (
        <Alert color="yellow" variant="light" icon={<IconMailOff size={18} aria-hidden />}>
          {NO_EMAIL_SENT} The invitation to join as {TEAM_ROLE_LABELS[invitation.role]} is for{' '}
          <strong>{invitation.email}</strong>; its link works once, until {formatDate(invitation.expires_at)}.
        </Alert>
      )}
      <Text fz="sm">
        {invitation.email_sent ? 'You can also pass the link on yourself. ' : ''}It is shown only now: copy it
        before closing. Pending invitations offer a new link later, which replaces this one.
      </Text>
      <InviteLink url={invitation.invite_url} />
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}
