import { TEAM_ROLE_LABELS, type TeamMember, type TeamRole } from '@coverdesk/contract';
import { Badge } from '@mantine/core';

/** One colour per role on the team screen; the label always says it, so colour is never alone. */
const COLORS: Record<TeamRole, string> = {
  owner: 'violet',
  manager: 'indigo',
  agent: 'teal',
  viewer: 'gray',
};

export function RoleBadge({ role }: { role: TeamRole }) {
  return (
    <Badge color={COLORS[role]} miw="max-content">
      {TEAM_ROLE_LABELS[role]}
    </Badge>
  );
}

/** Active members sign in; deactivated ones keep their history but not their access. */
export function MemberStatusBadge({ active }: { active: boolean }) {
  return (
    <Badge color={active ? 'green' : 'gray'} miw="max-content">
      {active ? 'Active' : 'Deactivated'}
    </Badge>
  );
}

/** "Dana Levi", or the email for a member with no name. */
export const memberName = (member: Pick<TeamMember, 'first_name' | 'last_name' | 'email'>) =>
  `${member.first_name} ${member.last_name}`.trim() || member.email;
