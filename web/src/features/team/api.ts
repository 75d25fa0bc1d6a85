import type {
  CreatedInvitation,
  Invitation,
  InvitationBody,
  ReassignBody,
  ReassignResult,
  TeamMember,
  TeamMemberPatchBody,
  TeamSettings,
  TeamSettingsPatchBody,
} from '@coverdesk/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

const keys = {
  members: [...queryKeys.team, 'members'] as const,
  invitations: [...queryKeys.team, 'invitations'] as const,
  settings: [...queryKeys.team, 'settings'] as const,
};

export function useMembers() {
  return useQuery({
    queryKey: keys.members,
    queryFn: ({ signal }) => api.get<{ results: TeamMember[] }>('/team/members/', { signal }),
    select: (list) => list.results,
  });
}

/** Open invitations; only owners and managers may read them (`enabled` for the others is false). */
export function useInvitations(enabled: boolean) {
  return useQuery({
    queryKey: keys.invitations,
    queryFn: ({ signal }) => api.get<{ results: Invitation[] }>('/team/invitations/', { signal }),
    select: (list) => list.results,
    enabled,
  });
}

export function useTeamSettings() {
  return useQuery({
    queryKey: keys.settings,
    queryFn: ({ signal }) => api.get<TeamSettings>('/team/settings/', { signal }),
  });
}

/** A change to the team shows in its lists and in the plan's count of users. */
const affected = [queryKeys.team, queryKeys.usage];

export function useInvite() {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (body: InvitationBody) => api.post<CreatedInvitation>('/team/invitations/', body),
    onSuccess: () => markChanged(),
  });
}

/** A new link for an open invitation (the one before stops working); no email goes. */
export function useRenewInvitationLink() {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (id: string) => api.post<CreatedInvitation>(`/team/invitations/${id}/link/`),
    onSuccess: () => markChanged(),
  });
}

export function useWithdrawInvitation() {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/team/invitations/${id}/`),
    onSuccess: () => markChanged(),
  });
}

export function useChangeMember() {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: ({ id, ...body }: TeamMemberPatchBody & { id: string }) =>
      api.patch<TeamMember>(`/team/members/${id}/`, body),
    onSuccess: () => markChanged(),
  });
}

export function useSaveTeamSettings() {
  const markChanged = useMarkChanged([queryKeys.team]);
  return useMutation({
    mutationFn: (body: TeamSettingsPatchBody) => api.patch<TeamSettings>('/team/settings/', body),
    onSuccess: () => markChanged(),
  });
}

/** Hands the records named to one member (owners and managers). */
export function useReassign() {
  const markChanged = useMarkChanged([
    queryKeys.customers,
    queryKeys.policies,
    queryKeys.claims,
    queryKeys.leads,
    queryKeys.calendar,
  ]);
  return useMutation({
    mutationFn: (body: ReassignBody) => api.post<ReassignResult>('/team/reassign/', body),
    onSuccess: () => markChanged(),
  });
}
