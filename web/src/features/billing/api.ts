import type { UsageSummary } from '@coverdesk/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys } from '../../lib/query-keys.js';

/** How much of each plan limit the agency uses. */
export function useUsageSummary() {
  return useQuery({
    queryKey: queryKeys.usage,
    queryFn: ({ signal }) => api.get<UsageSummary>('/billing/usage/summary/', { signal }),
  });
}
