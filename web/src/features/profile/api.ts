import type { AuditEntry, Paged, ProfileUpdateBody, UserProfile } from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

export function useUpdateProfile() {
  // The agency's time zone decides which policies are active and which instalments overdue.
  const markChanged = useMarkChanged([queryKeys.policies, queryKeys.payments]);
  return useMutation({
    mutationFn: (body: ProfileUpdateBody) =>
      api.patch<{ user: UserProfile; message: string }>('/user/profile/', body),
    onSuccess: (_saved, body) => (body.time_zone === undefined ? undefined : markChanged()),
  });
}

const activityKeys = {
  list: (query: Record<string, string | number>) => [...queryKeys.activity, 'agency', query] as const,
  people: [...queryKeys.activity, 'agency-people'] as const,
};

/** The agency's activity log, for its owner. */
export function useAgencyActivity(query: Record<string, string | number>) {
  return useQuery({
    queryKey: activityKeys.list(query),
    queryFn: ({ signal }) => api.get<Paged<AuditEntry>>('/user/profile/audit/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The agency's users, to filter its activity by who acted. */
export function useAgencyPeople() {
  return useQuery({
    queryKey: activityKeys.people,
    queryFn: ({ signal }) =>
      api.get<{ results: { id: string; email: string; name: string }[] }>('/user/profile/audit/users/', {
        signal,
      }),
  });
}
