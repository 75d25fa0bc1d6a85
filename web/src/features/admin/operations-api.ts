import type {
  PerformanceReport,
  PerformanceWindow,
  ServerCache,
  ServerCacheList,
  SystemHealth,
} from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';

/** How the server runs right now: never kept, always asked afresh. */
const keys = {
  health: ['admin', 'system-health'] as const,
  performance: (window: PerformanceWindow) => ['admin', 'performance', window] as const,
  caches: ['admin', 'cache'] as const,
};
const live = { staleTime: 0, gcTime: 0 } as const;

export function useSystemHealth() {
  return useQuery({
    queryKey: keys.health,
    queryFn: ({ signal }) => api.get<SystemHealth>('/admin/system-health/', { signal }),
    ...live,
  });
}

export function usePerformance(window: PerformanceWindow) {
  return useQuery({
    queryKey: keys.performance(window),
    queryFn: ({ signal }) => api.get<PerformanceReport>('/admin/performance/', { query: { window }, signal }),
    placeholderData: keepPreviousData,
    ...live,
  });
}

export function useServerCaches() {
  return useQuery({
    queryKey: keys.caches,
    queryFn: ({ signal }) => api.get<ServerCacheList>('/admin/cache/', { signal }),
    ...live,
  });
}

export function useClearCache() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post<ServerCache>(`/admin/cache/${encodeURIComponent(name)}/clear/`),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.caches }),
  });
}
