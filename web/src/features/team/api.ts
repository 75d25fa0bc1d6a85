import type { ReassignBody, ReassignResult, TeamMember } from '@coverdesk/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

/** The agency's members, owners first; every member may read them. */
export function useTeamMembers() {
  return useQuery({
    queryKey: [...queryKeys.team, 'members'],
    queryFn: ({ signal }) => api.get<{ results: TeamMember[] }>('/team/members/', { signal }),
    select: (data) => data.results,
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
