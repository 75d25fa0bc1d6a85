import type {
  Customer,
  CustomerBody,
  CustomerDetail,
  CustomerDuplicate,
  CustomerDuplicateQuery,
  Lead,
  Paged,
  Policy,
} from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

const keys = {
  lists: [...queryKeys.customers, 'list'] as const,
  list: (query: Record<string, string | number>) => [...keys.lists, query] as const,
  detail: (id: string) => [...queryKeys.customers, 'detail', id] as const,
  duplicates: (query: CustomerDuplicateQuery) => [...queryKeys.customers, 'duplicates', query] as const,
};

export function useCustomers(query: Record<string, string | number>) {
  return useQuery({
    queryKey: keys.list(query),
    queryFn: ({ signal }) => api.get<Paged<Customer>>('/customers/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The customer's policies, most recent first (the first page). */
export function useCustomerPolicies(customerId: string) {
  return useQuery({
    queryKey: [...queryKeys.policies, 'customer', customerId],
    queryFn: ({ signal }) =>
      api.get<Paged<Policy>>('/policies/', { query: { customer_id: customerId, page_size: 20 }, signal }),
  });
}

/**
 * The lead the customer was converted from, or null. Without leads in the plan the call is refused;
 * the customer page then simply shows no lead.
 */
export function useCustomerLead(customerId: string) {
  return useQuery({
    queryKey: [...queryKeys.leads, 'customer', customerId],
    queryFn: async ({ signal }) =>
      (await api.get<Paged<Lead>>('/leads/', { query: { customer_id: customerId, page_size: 1 }, signal }))
        .results[0] ?? null,
  });
}

export function useCustomer(id: string) {
  return useQuery({
    queryKey: keys.detail(id),
    queryFn: ({ signal }) => api.get<CustomerDetail>(`/customers/${id}/`, { signal }),
  });
}

/**
 * Existing customers sharing an email, phone or national id with `query`; none while it names none.
 * A failed check only loses a hint, so it shows nothing rather than an error.
 */
export function useCustomerDuplicates(query: CustomerDuplicateQuery): CustomerDuplicate[] {
  const asked = Boolean(query.email || query.phone || query.national_id);
  const duplicates = useQuery({
    queryKey: keys.duplicates(query),
    queryFn: ({ signal }) =>
      api.get<{ results: CustomerDuplicate[] }>('/customers/duplicates/', { query, signal }),
    enabled: asked,
    // The warning must not blink away while the next keystrokes are being checked.
    placeholderData: keepPreviousData,
  });
  return asked ? (duplicates.data?.results ?? []) : [];
}

/** A change shows in the customer lists, the plan usage and the customer analytics' counts. */
const affected = [queryKeys.customers, queryKeys.usage, queryKeys.analytics];

/** Creates a customer, or changes the one with `id`. */
export function useSaveCustomer(id?: string) {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (body: CustomerBody) =>
      id ? api.put<CustomerDetail>(`/customers/${id}/`, body) : api.post<CustomerDetail>('/customers/', body),
    onSuccess: () => markChanged(),
  });
}

export function useDeleteCustomer() {
  const client = useQueryClient();
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/customers/${id}/`),
    onSuccess: (_, id) => {
      // The list shown next keeps its cached rows while it reloads; the deleted one must not be among them.
      client.setQueriesData<Paged<Customer>>({ queryKey: keys.lists }, (page) =>
        page?.results.some((row) => row.id === id)
          ? { ...page, count: page.count - 1, results: page.results.filter((row) => row.id !== id) }
          : page,
      );
      return markChanged({ deleted: true });
    },
  });
}
