import { TEAM_ROLE_DESCRIPTIONS, TEAM_ROLE_LABELS, TEAM_ROLES, type TeamRole } from '@coverdesk/contract';

/**
 * The roles a member may hand out: making someone an owner takes an owner (the API's rule on
 * ownership, which the roles table leaves to it).
 */
export function rolesToGive(actorRole: TeamRole | undefined): { value: TeamRole; label: string }[] {
  return TEAM_ROLES.filter((role) => role !== 'owner' || actorRole === 'owner').map((role) => ({
    value: role,
    label: TEAM_ROLE_LABELS[role],
  }));
}

/** Whether this member may change someone with `role` (an owner's role or status takes an owner). */
export const mayChange = (actorRole: TeamRole | undefined, role: TeamRole) =>
  role !== 'owner' || actorRole === 'owner';

export const roleDescription = (role: string | null) =>
  role && role in TEAM_ROLE_DESCRIPTIONS ? TEAM_ROLE_DESCRIPTIONS[role as TeamRole] : undefined;
