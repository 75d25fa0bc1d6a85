import type { Paged, PolicyType, PolicyTypeBody } from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

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

/** A change shows in the catalogue and in the insurers that list type names. */
const affected = [queryKeys.policyTypes, queryKeys.companies];

/** Creates a type, or changes the one with `id`. */
export function useSavePolicyType(id?: string) {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (body: PolicyTypeBody) =>
      id ? api.put<PolicyType>(`/policy-types/${id}/`, body) : api.post<PolicyType>('/policy-types/', body),
    onSuccess: () => markChanged(),
  });
}

export function useDeletePolicyType() {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/policy-types/${id}/`),
    onSuccess: () => markChanged({ deleted: true }),
  });
}
