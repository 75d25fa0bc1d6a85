import type { Paged, PolicyType, PolicyTypeBody } from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys } from '../../lib/query-keys.js';

const keys = {
  list: (query: Record<string, string | number>) => [...queryKeys.policyTypes, 'list', query] as const,
  detail: (id: string) => [...queryKeys.policyTypes, 'detail', id] as const,
};

export function usePolicyTypes(query: Record<string, string | number>) {
  return useQuery({
    queryKey: keys.list(query),
    queryFn: ({ signal }) => api.get<Paged<PolicyType>>('/policy-types/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function usePolicyType(id: string) {
  return useQuery({
    queryKey: keys.detail(id),
    queryFn: ({ signal }) => api.get<PolicyType>(`/policy-types/${id}/`, { signal }),
  });
}

/** After a change: the catalogue, the insurers that show type names, and the setup guide. */
function useRefreshAfterChange() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [queryKeys.policyTypes, queryKeys.companies, queryKeys.setupStatus].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );
}

/** Creates a type, or changes the one with `id`. */
export function useSavePolicyType(id?: string) {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (body: PolicyTypeBody) =>
      id ? api.put<PolicyType>(`/policy-types/${id}/`, body) : api.post<PolicyType>('/policy-types/', body),
    onSuccess: refresh,
  });
}

export function useDeletePolicyType() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/policy-types/${id}/`),
    onSuccess: refresh,
  });
}
