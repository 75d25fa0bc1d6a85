import type { ExpiringCounts, ExpiringPolicy, NotRenewingBody, Paged, Policy } from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

type Query = Record<string, string | number>;

const keys = {
  list: (query: Query) => [...queryKeys.expiringPolicies, 'list', query] as const,
  counts: (query: Query) => [...queryKeys.expiringPolicies, 'counts', query] as const,
};

export function useExpiringPolicies(query: Query) {
  return useQuery({
    queryKey: keys.list(query),
    queryFn: ({ signal }) => api.get<Paged<ExpiringPolicy>>('/alerts/expiring/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** How many policies each window holds, under the list's insurer, Mine and search. */
export function useExpiringCounts(query: Query) {
  return useQuery({
    queryKey: keys.counts(query),
    queryFn: ({ signal }) => api.get<ExpiringCounts>('/alerts/expiring/counts/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The mark is the policy's: its page, the policy lists and this list all show it. */
export function useMarkNotRenewing(id: string) {
  const markChanged = useMarkChanged([queryKeys.policies]);
  return useMutation({
    mutationFn: (body: NotRenewingBody) => api.post<Policy>(`/policies/${id}/not-renewing/`, body),
    onSuccess: () => markChanged(),
  });
}
