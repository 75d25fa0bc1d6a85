import type { AdminAuditEntry, Paged } from '@coverdesk/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys } from '../../lib/query-keys.js';

const keys = {
  list: (query: Record<string, string | number>) => [...queryKeys.activity, 'platform', query] as const,
  agencies: (search: string) => [...queryKeys.activity, 'agencies', search] as const,
};

/** Every agency's activity and every admin action, filtered. */
export function useUserActivity(query: Record<string, string | number>) {
  return useQuery({
    queryKey: keys.list(query),
    queryFn: ({ signal }) => api.get<Paged<AdminAuditEntry>>('/admin/user-activity/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Agencies whose name contains the text, for the filter by agency. */
export function useActivityAgencies(search: string) {
  return useQuery({
    queryKey: keys.agencies(search),
    queryFn: ({ signal }) =>
      api.get<{ results: { id: string; name: string }[] }>('/admin/user-activity/agencies/', {
        query: search ? { search } : {},
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}
