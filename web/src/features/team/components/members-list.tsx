import type { TeamMember } from '@coverdesk/contract';
import { ActionIcon, Card, Group, Menu, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { useAgencyToday } from '../../../lib/use-agency-today.js';
import { useCan } from '../../../lib/use-can.js';
import { useDevice } from '../../../lib/viewport.js';
import type { MemberChange } from './member-dialogs.js';
import { MemberStatusBadge, memberName, RoleBadge } from './role-badge.js';
import { mayChange } from './role-choices.js';

const share = (member: TeamMember) => `${Number(member.commission_split_percentage)}%`;

/**
 * When the share last changed, or the change to come: "since 1 Jul 2026", "40% from 1 Jan 2027";
 * null for a share unchanged since the start. The whole history is in the share's dialog.
 */
function shareNote(member: TeamMember, today: string): string | null {
  const changes = member.commission_split_history.filter((change) => change.effective_from);
  const next = changes.find((change) => (change.effective_from ?? '') > today);
  if (next) return `${Number(next.share)}% from ${formatDate(next.effective_from)}`;
  const last = changes.at(-1);
  return last ? `since ${formatDate(last.effective_from)}` : null;
}
const lastSignIn = (member: TeamMember) =>
  member.last_sign_in_at ? formatDate(member.last_sign_in_at) : 'Never';

/** The agency's members: a table on a desk, cards on a phone; owners and managers get each one's menu. */
export function MembersList({
  members,
  selfId,
  actorRole,
  onChange,
}: {
  members: TeamMember[];
  selfId: string | undefined;
  actorRole: TeamMember['role'] | undefined;
  onChange(change: MemberChange, member: TeamMember): void;
}) {
  const device = useDevice();
  const today = useAgencyToday();
  const canManage = useCan('team');
  const actions = (member: TeamMember) =>
    canManage && mayChange(actorRole, member.role) ? (
      <MemberMenu member={member} self={member.id === selfId} onChange={onChange} />
    ) : null;

  const heading = (
    <Title order={2} fz="h4">
      Members
    </Title>
  );

  if (device === 'mobile') {
    return (
      <Stack gap="xs">
        {heading}
        {members.map((member) => (
          <Card key={member.id} withBorder padding="sm">
            <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
              <Stack gap={4} miw={0}>
                <Text fw={600} truncate>
                  {memberName(member)}
                  {member.id === selfId && ' (you)'}
                </Text>
                <Text fz="sm" c="dimmed" truncate>
                  {member.email}
                </Text>
                <Group gap={6}>
                  <RoleBadge role={member.role} />
                  <MemberStatusBadge active={member.is_active} />
                </Group>
                <Text fz="xs" c="dimmed">
                  Share {share(member)}
                  {shareNote(member, today) && ` (${shareNote(member, today)})`} · Last sign-in{' '}
                  {lastSignIn(member)}
                </Text>
              </Stack>
              {actions(member)}
            </Group>
          </Card>
        ))}
      </Stack>
    );
  }

  return (
    <Stack gap="xs">
      {heading}
      <Card withBorder padding={0}>
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Commission share</Table.Th>
                <Table.Th>Last sign-in</Table.Th>
                {canManage && (
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.map((member) => (
                <Table.Tr key={member.id}>
                  <Table.Td fw={600}>
                    {memberName(member)}
                    {member.id === selfId && (
                      <Text span c="dimmed" fz="sm" fw={400}>
                        {' '}
                        (you)
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{member.email}</Table.Td>
                  <Table.Td>
                    <RoleBadge role={member.role} />
                  </Table.Td>
                  <Table.Td>
                    <MemberStatusBadge active={member.is_active} />
                  </Table.Td>
                  <Table.Td ta="right" style={TABULAR_FIGURES}>
                    {share(member)}
                    {shareNote(member, today) && (
                      <Text fz="xs" c="dimmed">
                        {shareNote(member, today)}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{lastSignIn(member)}</Table.Td>
                  {canManage && <Table.Td ta="right">{actions(member)}</Table.Td>}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
    </Stack>
  );
}

function MemberMenu({
  member,
  self,
  onChange,
}: {
  member: TeamMember;
  self: boolean;
  onChange(change: MemberChange, member: TeamMember): void;
}) {
  const device = useDevice();
  const size = device === 'mobile' ? 44 : 32;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size={size} aria-label={`Change ${memberName(member)}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {member.is_active && <Menu.Item onClick={() => onChange('role', member)}>Change role</Menu.Item>}
        <Menu.Item onClick={() => onChange('share', member)}>Edit commission share</Menu.Item>
        {member.is_active && !self && (
          <Menu.Item color="red" onClick={() => onChange('deactivate', member)}>
            Deactivate
          </Menu.Item>
        )}
        {!member.is_active && (
          <Menu.Item onClick={() => onChange('reactivate', member)}>Reactivate</Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
