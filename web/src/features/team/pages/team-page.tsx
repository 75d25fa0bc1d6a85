import { TEAM_ROLE_LABELS, type TeamMember } from '@coverdesk/contract';
import { Alert, Button, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconInfoCircle, IconUserPlus, IconUsersGroup } from '@tabler/icons-react';
import { useState } from 'react';
import { EmptyState, ErrorState } from '../../../components/page-states.js';
import { formatCounted } from '../../../lib/format.js';
import { useSession } from '../../../lib/session-context.js';
import { useCan } from '../../../lib/use-can.js';
import { useDevice } from '../../../lib/viewport.js';
import { useInvitations, useMembers } from '../api.js';
import { InvitationsList } from '../components/invitations-list.js';
import { InviteModal } from '../components/invite-modal.js';
import { type MemberChange, MemberDialog } from '../components/member-dialogs.js';
import { MembersList } from '../components/members-list.js';
import { RolesCard } from '../components/roles-card.js';
import { TeamSettingsCard } from '../components/team-settings-card.js';

/** /team: who works in the agency, with which role; owners and managers invite and change them. */
export function Component() {
  const { state } = useSession();
  const user = state.user;
  const canManage = useCan('team');
  const members = useMembers();
  const invitations = useInvitations(canManage);
  const [inviting, setInviting] = useState(false);
  const [change, setChange] = useState<{ kind: MemberChange; member: TeamMember } | null>(null);
  const touch = useDevice() === 'mobile' ? 44 : undefined;

  const inviteButton = canManage && (
    <Button
      leftSection={<IconUserPlus size={16} aria-hidden />}
      onClick={() => setInviting(true)}
      mih={touch}
    >
      Invite member
    </Button>
  );

  const active = members.data?.filter((member) => member.is_active).length ?? 0;
  const alone = members.data?.length === 1 && invitations.data?.length === 0;

  return (
    <Stack>
      <Group justify="space-between" gap="sm">
        <Text fz="sm" c="dimmed" aria-live="polite">
          {members.data
            ? `${formatCounted(active, 'active member')}${
                invitations.data?.length
                  ? ` · ${formatCounted(invitations.data.length, 'invitation')} pending`
                  : ''
              }`
            : ' '}
        </Text>
        {inviteButton}
      </Group>

      {user && !canManage && (
        <Alert color="gray" variant="light" icon={<IconInfoCircle size={18} aria-hidden />}>
          Your role ({TEAM_ROLE_LABELS[user.role]}) shows you the team. Owners and managers invite members and
          change their roles.
        </Alert>
      )}

      {members.isError && !members.data ? (
        <ErrorState
          error={members.error}
          onRetry={() => void members.refetch()}
          title="The team could not be loaded"
        />
      ) : members.isPending ? (
        <Stack gap="xs" aria-busy="true" aria-label="Loading">
          {Array.from({ length: 3 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <Skeleton key={index} h={touch ? 96 : 44} radius="sm" />
          ))}
        </Stack>
      ) : (
        <>
          {canManage && alone && (
            <EmptyState icon={IconUsersGroup} title="Just you so far" action={inviteButton}>
              Invite the people you work with. Each gets a role: agents work the book, viewers only read it,
              managers run the team with you.
            </EmptyState>
          )}
          <MembersList
            members={members.data}
            selfId={user?.id}
            actorRole={user?.role}
            onChange={(kind, member) => setChange({ kind, member })}
          />
        </>
      )}

      {canManage && <InvitationsList query={invitations} />}

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <RolesCard />
        <TeamSettingsCard />
      </SimpleGrid>

      <InviteModal opened={inviting} onClose={() => setInviting(false)} />
      <MemberDialog
        key={change ? `${change.kind}-${change.member.id}` : 'none'}
        change={change?.kind ?? null}
        member={change?.member ?? null}
        members={members.data ?? []}
        onClose={() => setChange(null)}
      />
    </Stack>
  );
}
