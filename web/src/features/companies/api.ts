import {
  type Company,
  type CompanyBody,
  type CompanyStats,
  MAX_PAGE_SIZE,
  type Paged,
  type PolicyType,
} from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

const keys = {
  list: (query: Record<string, string | number>) => [...queryKeys.companies, 'list', query] as const,
  detail: (id: string) => [...queryKeys.companies, 'detail', id] as const,
  stats: (id: string) => [...queryKeys.companies, 'stats', id] as const,
  sellable: [...queryKeys.policyTypes, 'sellable'] as const,
};

/** The spec's cache-busting parameter on company list and detail calls; the query key leaves it out. */
const cacheBuster = () => ({ _t: Date.now() });

export function useCompanies(query: Record<string, string | number>) {
  return useQuery({
    queryKey: keys.list(query),
    queryFn: ({ signal }) =>
      api.get<Paged<Company>>('/companies/', { query: { ...query, ...cacheBuster() }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useCompany(id: string) {
  return useQuery({
    queryKey: keys.detail(id),
    queryFn: ({ signal }) => api.get<Company>(`/companies/${id}/`, { query: cacheBuster(), signal }),
  });
}

export function useCompanyStats(id: string) {
  return useQuery({
    queryKey: keys.stats(id),
    queryFn: ({ signal }) => api.get<CompanyStats>(`/companies/${id}/stats/`, { signal }),
  });
}

/** The whole catalogue of policy types, page after page, for choosing what an insurer sells. */
export function useSellablePolicyTypes() {
  return useQuery({
    queryKey: keys.sellable,
    queryFn: async ({ signal }) => {
      const types: PolicyType[] = [];
      for (let page = 1; ; page++) {
        const found = await api.get<Paged<PolicyType>>('/policy-types/', {
          query: { page, page_size: MAX_PAGE_SIZE },
          signal,
        });
        types.push(...found.results);
        if (!found.next) return types;
      }
    },
  });
}

/** A change shows among the insurers and in the type catalogue, which counts them. */
const affected = [queryKeys.companies, queryKeys.policyTypes];

/** Creates an insurer, or changes the one with `id`. */
export function useSaveCompany(id?: string) {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: async (body: CompanyBody) => {
      if (id) return api.put<Company>(`/companies/${id}/`, body);
      const created = await api.post<Company>('/companies/', body);
      if (!created?.id) throw new Error('Invalid response from server');
      return created;
    },
    onSuccess: () => markChanged(),
  });
}

export function useDeleteCompany() {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/companies/${id}/`),
    onSuccess: () => markChanged({ deleted: true }),
  });
}
