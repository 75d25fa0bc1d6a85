import type { Invitation } from '@coverdesk/contract';
import { Button, Card, Group, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { formatDate } from '../../../lib/format.js';
import { useDevice } from '../../../lib/viewport.js';
import { useWithdrawInvitation } from '../api.js';
import { RoleBadge } from './role-badge.js';

/** Invitations not yet accepted, each with its withdrawal (which asks first). */
export function InvitationsList({ query }: { query: UseQueryResult<Invitation[]> }) {
  const device = useDevice();
  const [withdrawing, setWithdrawing] = useState<Invitation | null>(null);
  const withdraw = useWithdrawInvitation();
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
  const withdrawButton = (invitation: Invitation) => (
    <Button
      variant="default"
      size="xs"
      mih={device === 'mobile' ? 44 : undefined}
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
              </Stack>
              {withdrawButton(invitation)}
            </Group>
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
                    <Table.Td fw={600}>{invitation.email}</Table.Td>
                    <Table.Td>
                      <RoleBadge role={invitation.role} />
                    </Table.Td>
                    <Table.Td>{formatDate(invitation.expires_at)}</Table.Td>
                    <Table.Td>{invitation.invited_by_name}</Table.Td>
                    <Table.Td ta="right">{withdrawButton(invitation)}</Table.Td>
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
    </Stack>
  );
}
