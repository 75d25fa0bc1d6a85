import type {
  Claim,
  ClaimBody,
  ClaimDetail,
  ClaimStats,
  ClaimStatus,
  ClaimTransitionBody,
  Paged,
  Policy,
} from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

// Claims have a zero lifetime (query-client.ts): every screen asks for them afresh.
const keys = {
  list: (query: Record<string, string | number>) => [...queryKeys.claims, 'list', query] as const,
  detail: (id: string) => [...queryKeys.claims, 'detail', id] as const,
  stats: (query: Record<string, string>) => [...queryKeys.claims, 'stats', query] as const,
  policyChoices: (search: string) => [...queryKeys.policies, 'claim-choices', search] as const,
  policy: (id: string) => [...queryKeys.policies, 'detail', id] as const,
};

/** Every claim change shows in the claim lists, details and stats. */
const affected = [queryKeys.claims];
/** Reporting, editing (its policy may change) or deleting a claim also changes the claims counted on a policy. */
const affectedWithPolicies = [queryKeys.claims, queryKeys.policies];

export function useClaims(query: Record<string, string | number>, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: keys.list(query),
    queryFn: ({ signal }) => api.get<Paged<Claim>>('/claims/', { query, signal }),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/** The claims counted and summed, for the same search and filters as the list (not its status). */
export function useClaimStats(query: Record<string, string>) {
  return useQuery({
    queryKey: keys.stats(query),
    queryFn: ({ signal }) => api.get<ClaimStats>('/claims/stats/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useClaim(id: string) {
  return useQuery({
    queryKey: keys.detail(id),
    queryFn: ({ signal }) => api.get<ClaimDetail>(`/claims/${id}/`, { signal }),
  });
}

/** Policies matching what the broker types (number or customer name), for the claim's policy picker. */
export function usePolicyChoices(search: string) {
  return useQuery({
    queryKey: keys.policyChoices(search),
    queryFn: async ({ signal }) =>
      (await api.get<Paged<Policy>>('/policies/', { query: { search, page_size: 20 }, signal })).results,
    placeholderData: keepPreviousData,
  });
}

/** The policy a claim is reported from (`?policy_id=`), so the picker can show it before any search. */
export function usePolicyChoice(id: string) {
  return useQuery({
    queryKey: keys.policy(id),
    queryFn: ({ signal }) => api.get<Policy>(`/policies/${id}/`, { signal }),
    enabled: id !== '',
  });
}

/** Reports a claim, or changes the one with `id`. */
export function useSaveClaim(id?: string) {
  const markChanged = useMarkChanged(affectedWithPolicies);
  return useMutation({
    mutationFn: (body: ClaimBody) =>
      id ? api.put<ClaimDetail>(`/claims/${id}/`, body) : api.post<ClaimDetail>('/claims/', body),
    onSuccess: () => markChanged(),
  });
}

export function useMoveClaim(id: string) {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (body: ClaimTransitionBody & { status: ClaimStatus }) =>
      api.post<ClaimDetail>(`/claims/${id}/transition/`, body),
    onSuccess: () => markChanged(),
  });
}

export function useAddClaimNote(id: string) {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (note: string) => api.post<ClaimDetail>(`/claims/${id}/notes/`, { note }),
    onSuccess: () => markChanged(),
  });
}

export function useDeleteClaim(id: string) {
  const markChanged = useMarkChanged(affectedWithPolicies);
  return useMutation({
    mutationFn: () => api.delete<void>(`/claims/${id}/`),
    onSuccess: () => markChanged({ deleted: true }),
  });
}
