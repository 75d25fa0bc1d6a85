import type {
  CancelBody,
  Customer,
  Installment,
  Paged,
  Policy,
  PolicyBody,
  PolicyDetail,
  PolicyNumberMatch,
  RenewalPreview,
  RenewBody,
} from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

const keys = {
  list: (query: Record<string, string | number>) => [...queryKeys.policies, 'list', query] as const,
  detail: (id: string) => [...queryKeys.policies, 'detail', id] as const,
  installments: (id: string) => [...queryKeys.policies, 'installments', id] as const,
  numbered: (policyNumber: string, excludeId: string) =>
    [...queryKeys.policies, 'numbered', policyNumber, excludeId] as const,
  customers: (search: string) => [...queryKeys.customers, 'choices', search] as const,
  renewalPreview: (id: string, start: string) =>
    [...queryKeys.policies, 'renewal-preview', id, start] as const,
};

/**
 * A policy change shows in the policy lists, the insurers' figures, customers' balances, plan usage,
 * the commission report and the analytics.
 */
const affected = [
  queryKeys.policies,
  queryKeys.companies,
  queryKeys.customers,
  queryKeys.usage,
  queryKeys.commissionReport,
  queryKeys.analytics,
];

export function usePolicies(query: Record<string, string | number>) {
  return useQuery({
    queryKey: keys.list(query),
    queryFn: ({ signal }) => api.get<Paged<Policy>>('/policies/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function usePolicy(id: string) {
  return useQuery({
    queryKey: keys.detail(id),
    queryFn: ({ signal }) => api.get<PolicyDetail>(`/policies/${id}/`, { signal }),
  });
}

export function usePolicyInstallments(id: string) {
  return useQuery({
    queryKey: keys.installments(id),
    queryFn: async ({ signal }) =>
      (await api.get<{ results: Installment[] }>(`/policies/${id}/installments/`, { signal })).results,
  });
}

/** The agency's other policies with this number (any insurer), for a warning while the broker types. */
export function usePoliciesNumbered(policyNumber: string, excludeId = ''): PolicyNumberMatch[] {
  const matches = useQuery({
    queryKey: keys.numbered(policyNumber, excludeId),
    queryFn: ({ signal }) =>
      api.get<{ results: PolicyNumberMatch[] }>('/policies/numbered/', {
        query: excludeId
          ? { policy_number: policyNumber, exclude_id: excludeId }
          : { policy_number: policyNumber },
        signal,
      }),
    enabled: policyNumber !== '',
    // The warning must not blink away while the next keystrokes are being checked.
    placeholderData: keepPreviousData,
  });
  return policyNumber ? (matches.data?.results ?? []) : [];
}

/** Customers matching what the broker types into the customer picker (the first 20). */
export function useCustomerChoices(search: string) {
  return useQuery({
    queryKey: keys.customers(search),
    queryFn: async ({ signal }) =>
      (await api.get<Paged<Customer>>('/customers/', { query: { search, page_size: 20 }, signal })).results,
    placeholderData: keepPreviousData,
  });
}

/** Creates a policy, or changes the one with `id`. */
export function useSavePolicy(id?: string) {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (body: PolicyBody) =>
      id ? api.put<Policy>(`/policies/${id}/`, body) : api.post<Policy>('/policies/', body),
    onSuccess: () => markChanged(),
  });
}

export function useCancelPolicy(id: string) {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (body: CancelBody) => api.post<Policy>(`/policies/${id}/cancel/`, body),
    onSuccess: () => markChanged(),
  });
}

export function useRenewPolicy(id: string) {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (body: RenewBody) => api.post<Policy>(`/policies/${id}/renew/`, body),
    onSuccess: () => markChanged(),
  });
}

/**
 * What renewing from `start` does to the term (ends it early, and what it then earns); asked only for
 * a valid day on or before the term's end, when there is something to tell.
 */
export function useRenewalPreview(id: string, start: string | undefined) {
  return useQuery({
    queryKey: keys.renewalPreview(id, start ?? ''),
    queryFn: ({ signal }) =>
      api.get<RenewalPreview>(`/policies/${id}/renewal-preview/`, {
        query: { start_date: start ?? '' },
        signal,
      }),
    enabled: start !== undefined,
  });
}

/** Takes back a "not renewing" mark: the policy is on the expiring-policies list again while it is due. */
export function useUndoNotRenewing(id: string) {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: () => api.delete<Policy>(`/policies/${id}/not-renewing/`),
    onSuccess: () => markChanged(),
  });
}

/** Deletes a policy after the broker re-entered their password. */
export function useSecureDeletePolicy(id: string) {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (password: string) => api.post<void>(`/policies/${id}/secure-delete/`, { password }),
    onSuccess: () => markChanged({ deleted: true }),
  });
}
