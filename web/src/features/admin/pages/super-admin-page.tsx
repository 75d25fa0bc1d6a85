import type { SuperAdmin } from '@coverdesk/contract';
import { Badge, Button, Card, Group, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconShieldPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ErrorState } from '../../../components/page-states.js';
import { formatDate } from '../../../lib/format.js';
import { useSession } from '../../../lib/session-context.js';
import { useDevice } from '../../../lib/viewport.js';
import { useGrantAdmin, useRevokeAdmin, useSuperAdmins } from '../api.js';
import { personName } from '../components/labels.js';
import { fieldError, ReasonDialog } from '../components/reason-dialog.js';

/** /admin/super-admin: who may open this portal; grant it, or take it back. */
export function Component() {
  const admins = useSuperAdmins();
  const phone = useDevice() === 'mobile';
  return (
    <Stack maw={1100}>
      <Group justify="space-between" align="flex-start">
        <Text c="dimmed" maw={640}>
          Platform admins see every agency and act on any account. Addresses in the server's admin list
          (ADMIN_EMAILS) are made admins at every start, so only that list can take theirs away.
        </Text>
        <GrantAdmin />
      </Group>
      {admins.isPending ? (
        <Skeleton h={160} radius="md" aria-label="Loading" />
      ) : admins.isError ? (
        <ErrorState error={admins.error} onRetry={() => void admins.refetch()} />
      ) : phone ? (
        <Stack gap="xs">
          {admins.data.results.map((admin) => (
            <Card key={admin.id} withBorder padding="sm">
              <Stack gap="xs">
                <Stack gap={2}>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {admin.email}
                  </Text>
                  <Text fz="sm" c="dimmed">
                    {personName(admin)} · {admin.agency_name}
                  </Text>
                  <AdminBadges admin={admin} />
                </Stack>
                <Group>
                  <RevokeAdmin admin={admin} />
                </Group>
              </Stack>
            </Card>
          ))}
        </Stack>
      ) : (
        <Card withBorder padding={0}>
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm" horizontalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Agency</Table.Th>
                  <Table.Th>Granted by</Table.Th>
                  <Table.Th>Last sign-in</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {admins.data.results.map((admin) => (
                  <Table.Tr key={admin.id}>
                    <Table.Td>{admin.email}</Table.Td>
                    <Table.Td>{personName(admin)}</Table.Td>
                    <Table.Td>{admin.agency_name}</Table.Td>
                    <Table.Td>
                      <AdminBadges admin={admin} />
                    </Table.Td>
                    <Table.Td>{admin.last_login ? formatDate(admin.last_login) : 'Never'}</Table.Td>
                    <Table.Td>
                      <RevokeAdmin admin={admin} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
    </Stack>
  );
}

function AdminBadges({ admin }: { admin: SuperAdmin }) {
  return (
    <Group gap={4}>
      <Badge variant="light" color={admin.granted_by_configuration ? 'gray' : 'violet'}>
        {admin.granted_by_configuration ? 'Server configuration' : 'An admin'}
      </Badge>
      {admin.disabled_at && (
        <Badge variant="light" color="red">
          Disabled
        </Badge>
      )}
    </Group>
  );
}

function GrantAdmin() {
  const [opened, setOpened] = useState(false);
  const [email, setEmail] = useState('');
  const grant = useGrantAdmin();
  const close = () => {
    grant.reset();
    setOpened(false);
  };
  return (
    <>
      <Button
        leftSection={<IconShieldPlus size={16} aria-hidden />}
        onClick={() => {
          setEmail('');
          setOpened(true);
        }}
      >
        Grant admin
      </Button>
      <ReasonDialog
        opened={opened}
        title="Grant platform admin"
        description="The account gets the whole admin portal: every agency, every user, every setting."
        confirmLabel="Grant admin"
        busy={grant.isPending}
        error={grant.error}
        onClose={close}
        onConfirm={(reason) =>
          grant.mutate(
            { email, reason },
            {
              onSuccess: (user) => {
                notifications.show({ color: 'green', message: `${user.email} is now a platform admin.` });
                close();
              },
            },
          )
        }
      >
        <TextInput
          label="Email of the account"
          description="The person must have registered already."
          type="email"
          required
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          error={fieldError(grant.error, 'email')}
        />
      </ReasonDialog>
    </>
  );
}

function RevokeAdmin({ admin }: { admin: SuperAdmin }) {
  const { state } = useSession();
  const [opened, setOpened] = useState(false);
  const revoke = useRevokeAdmin();
  const close = () => {
    revoke.reset();
    setOpened(false);
  };
  // Where revoking is refused anyway, the row says why instead of offering the button.
  const blocked =
    state.user?.id === admin.id
      ? "You can't remove yourself; another admin must."
      : admin.granted_by_configuration
        ? "Remove from the server's admin list (ADMIN_EMAILS)"
        : null;
  if (blocked)
    return (
      <Text fz="sm" c="dimmed" maw={260}>
        {blocked}
      </Text>
    );
  return (
    <>
      <Button
        variant="outline"
        color="red.9"
        size="sm"
        onClick={() => setOpened(true)}
        aria-label={`Revoke admin from ${admin.email}`}
        mih={44}
      >
        Revoke
      </Button>
      <ReasonDialog
        opened={opened}
        title={`Revoke admin from ${admin.email}?`}
        description="They keep their account and agency, but can no longer open the admin portal."
        confirmLabel="Revoke admin"
        destructive
        busy={revoke.isPending}
        error={revoke.error}
        onClose={close}
        onConfirm={(reason) =>
          revoke.mutate(
            { userId: admin.id, reason },
            {
              onSuccess: (user) => {
                notifications.show({
                  color: 'green',
                  message: `${user.email} is no longer a platform admin.`,
                });
                close();
              },
            },
          )
        }
      />
    </>
  );
}
