import { type CreatedInvitation, type Invitation, mayHandleRole } from '@coverdesk/contract';
import {
  Button,
  Card,
  Group,
  Modal,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMailOff } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { formatDate } from '../../../lib/format.js';
import { useSession } from '../../../lib/session-context.js';
import { useDevice } from '../../../lib/viewport.js';
import { useRenewInvitationLink, useWithdrawInvitation } from '../api.js';
import { InviteLink, NO_EMAIL_SENT } from './invite-link.js';
import { RoleBadge } from './role-badge.js';

/** Said under an invitation whose email did not go out. */
function NoEmailNote() {
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <IconMailOff size={16} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
      <Text fz="xs">{NO_EMAIL_SENT}</Text>
    </Group>
  );
}

/**
 * Invitations not yet accepted, each with a new link to pass on (only the token's hash is kept, so
 * the first link cannot be shown again) and its withdrawal (which asks first).
 */
export function InvitationsList({ query }: { query: UseQueryResult<Invitation[]> }) {
  const device = useDevice();
  const role = useSession().state.user?.role;
  const [withdrawing, setWithdrawing] = useState<Invitation | null>(null);
  const withdraw = useWithdrawInvitation();
  const [renewing, setRenewing] = useState<Invitation | null>(null);
  const heading = (
    <Title order={2} fz="h4">
      Pending invitations
    </Title>
  );

  if (query.isError && !query.data) {
    return (
      <Stack gap="xs">
        {heading}
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </Stack>
    );
  }
  if (query.isPending) {
    return (
      <Stack gap="xs" aria-busy="true" aria-label="Loading">
        {heading}
        <Skeleton h={56} radius="sm" />
      </Stack>
    );
  }
  const invitations = query.data;
  const buttonHeight = device === 'mobile' ? 44 : undefined;
  const linkButton = (invitation: Invitation) =>
    // Inviting an owner takes an owner: so does handing out that invitation's link.
    role && mayHandleRole(role, invitation.role) ? (
      <Button
        variant="default"
        size="xs"
        mih={buttonHeight}
        style={{ flexShrink: 0 }}
        onClick={() => setRenewing(invitation)}
        aria-label={`Copy a new link for the invitation to ${invitation.email}`}
      >
        Copy a new link
      </Button>
    ) : null;
  const withdrawButton = (invitation: Invitation) => (
    <Button
      variant="default"
      size="xs"
      mih={buttonHeight}
      style={{ flexShrink: 0 }}
      onClick={() => {
        withdraw.reset();
        setWithdrawing(invitation);
      }}
      aria-label={`Withdraw the invitation to ${invitation.email}`}
    >
      Withdraw
    </Button>
  );

  return (
    <Stack gap="xs">
      {heading}
      {invitations.length === 0 ? (
        <Card withBorder padding="md">
          <Text fz="sm" c="dimmed">
            No invitations are waiting. Someone you invite shows here until they accept.
          </Text>
        </Card>
      ) : device === 'mobile' ? (
        invitations.map((invitation) => (
          <Card key={invitation.id} withBorder padding="sm">
            <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
              <Stack gap={4} miw={0}>
                <Text fw={600} truncate>
                  {invitation.email}
                </Text>
                <Group gap={6}>
                  <RoleBadge role={invitation.role} />
                </Group>
                <Text fz="xs" c="dimmed">
                  Invited by {invitation.invited_by_name} · expires {formatDate(invitation.expires_at)}
                </Text>
                {!invitation.email_sent && <NoEmailNote />}
              </Stack>
              {withdrawButton(invitation)}
            </Group>
            {linkButton(invitation) && <Group mt="xs">{linkButton(invitation)}</Group>}
          </Card>
        ))
      ) : (
        <Card withBorder padding={0}>
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm" horizontalSpacing="md">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  <Table.Th>Invited by</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {invitations.map((invitation) => (
                  <Table.Tr key={invitation.id}>
                    <Table.Td>
                      <Text fw={600} fz="sm">
                        {invitation.email}
                      </Text>
                      {!invitation.email_sent && <NoEmailNote />}
                    </Table.Td>
                    <Table.Td>
                      <RoleBadge role={invitation.role} />
                    </Table.Td>
                    <Table.Td>{formatDate(invitation.expires_at)}</Table.Td>
                    <Table.Td>{invitation.invited_by_name}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        {linkButton(invitation)}
                        {withdrawButton(invitation)}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
      <ConfirmDialog
        opened={Boolean(withdrawing)}
        title={`Withdraw the invitation to ${withdrawing?.email ?? ''}?`}
        confirmLabel="Withdraw invitation"
        busy={withdraw.isPending}
        error={withdraw.error ? errorText(withdraw.error) : null}
        onConfirm={() =>
          withdrawing &&
          withdraw.mutate(withdrawing.id, {
            onSuccess: () => {
              notifications.show({
                color: 'green',
                message: `Invitation to ${withdrawing.email} withdrawn.`,
              });
              setWithdrawing(null);
            },
          })
        }
        onClose={() => setWithdrawing(null)}
      >
        Its link stops working at once. You can invite the same address again later.
      </ConfirmDialog>
      <RenewLinkDialog invitation={renewing} onClose={() => setRenewing(null)} />
    </Stack>
  );
}

/** Makes an invitation a new link, once the inviter knows the link before stops working, and shows it. */
function RenewLinkDialog({ invitation, onClose }: { invitation: Invitation | null; onClose(): void }) {
  const renew = useRenewInvitationLink();
  const [renewed, setRenewed] = useState<CreatedInvitation | null>(null);
  const close = () => {
    renew.reset();
    setRenewed(null);
    onClose();
  };
  return (
    <Modal
      opened={invitation !== null}
      onClose={close}
      title={renewed ? 'The new invitation link' : 'A new invitation link'}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {renewed ? (
        <Stack gap="sm">
          <Text fz="sm">
            Send it to <strong>{renewed.email}</strong> yourself. It works once, until{' '}
            {formatDate(renewed.expires_at)}, and is shown only now.
          </Text>
          <InviteLink url={renewed.invite_url} />
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text fz="sm">
            A new link for <strong>{invitation?.email}</strong> replaces the one{' '}
            {invitation?.email_sent ? 'emailed to them' : 'shown when you invited them'}, which stops working
            at once. No email is sent.
          </Text>
          {renew.error && (
            <Text fz="sm" c="red" role="alert">
              {errorText(renew.error)}
            </Text>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              loading={renew.isPending}
              onClick={() => invitation && renew.mutate(invitation.id, { onSuccess: setRenewed })}
            >
              Make a new link
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
