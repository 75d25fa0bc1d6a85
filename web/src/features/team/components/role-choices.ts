import {
  mayHandleRole,
  TEAM_ROLE_DESCRIPTIONS,
  TEAM_ROLE_LABELS,
  TEAM_ROLES,
  type TeamRole,
} from '@coverdesk/contract';

/** Whether this member may change someone with `role`, by the API's own rule on ownership. */
export const mayChange = (actorRole: TeamRole | undefined, role: TeamRole) =>
  actorRole !== undefined && mayHandleRole(actorRole, role);

/** The roles a member may hand out: making someone an owner takes an owner. */
export function rolesToGive(actorRole: TeamRole | undefined): { value: TeamRole; label: string }[] {
  return TEAM_ROLES.filter((role) => mayChange(actorRole, role)).map((role) => ({
    value: role,
    label: TEAM_ROLE_LABELS[role],
  }));
}

export const roleDescription = (role: string | null) =>
  role && role in TEAM_ROLE_DESCRIPTIONS ? TEAM_ROLE_DESCRIPTIONS[role as TeamRole] : undefined;
