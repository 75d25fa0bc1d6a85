import type {
  Lead,
  LeadActivity,
  LeadActivityBody,
  LeadAssignee,
  LeadBody,
  LeadConversion,
  LeadConversionBody,
  LeadDetail,
  LeadMatch,
  LeadMatchQuery,
  LeadStats,
  LeadStatus,
  Paged,
  PolicyType,
} from '@coverdesk/contract';
import { MAX_PAGE_SIZE } from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

const keys = {
  lists: [...queryKeys.leads, 'list'] as const,
  list: (query: Record<string, string | number>) => [...keys.lists, query] as const,
  detail: (id: string) => [...queryKeys.leads, 'detail', id] as const,
  activities: (id: string) => [...queryKeys.leads, 'activities', id] as const,
  matches: (query: LeadMatchQuery) => [...queryKeys.leads, 'matches', query] as const,
  assignees: [...queryKeys.leads, 'assignees'] as const,
  stats: [...queryKeys.leads, 'stats'] as const,
  types: [...queryKeys.policyTypes, 'active'] as const,
};

export function useLeads(query: Record<string, string | number>, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: keys.list(query),
    queryFn: ({ signal }) => api.get<Paged<Lead>>('/leads/', { query, signal }),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/** One column of the board: the first hundred leads in a status, next follow-up first. */
export function useLeadColumn(
  status: LeadStatus,
  filters: Record<string, string | number>,
  enabled: boolean,
) {
  return useLeads(
    { ...filters, status, page_size: MAX_PAGE_SIZE, ordering: 'next_follow_up_at' },
    { enabled },
  );
}

export function useLead(id: string) {
  return useQuery({
    queryKey: keys.detail(id),
    queryFn: ({ signal }) => api.get<LeadDetail>(`/leads/${id}/`, { signal }),
  });
}

export function useLeadActivities(id: string) {
  return useQuery({
    queryKey: keys.activities(id),
    queryFn: async ({ signal }) =>
      (await api.get<{ results: LeadActivity[] }>(`/leads/${id}/activities/`, { signal })).results,
  });
}

export function useLeadStats() {
  return useQuery({
    queryKey: keys.stats,
    queryFn: ({ signal }) => api.get<LeadStats>('/leads/stats/', { signal }),
  });
}

/** The agency's users, for the assignee choice. */
export function useAssignees() {
  return useQuery({
    queryKey: keys.assignees,
    queryFn: async ({ signal }) =>
      (await api.get<{ results: LeadAssignee[] }>('/leads/assignees/', { signal })).results,
  });
}

/** The agency's active policy types, for the interest choice. */
export function usePolicyTypeChoices() {
  return useQuery({
    queryKey: keys.types,
    queryFn: async ({ signal }) =>
      (
        await api.get<Paged<PolicyType>>('/policy-types/', {
          query: { page_size: MAX_PAGE_SIZE, is_active: 'true' },
          signal,
        })
      ).results,
  });
}

/**
 * Customers and leads sharing an email or phone with `query`; none while it names none. A failed
 * check only loses a hint, so it shows nothing rather than an error.
 */
export function useLeadMatches(query: LeadMatchQuery): LeadMatch[] {
  const asked = Boolean(query.email || query.phone);
  const matches = useQuery({
    queryKey: keys.matches(query),
    queryFn: ({ signal }) => api.get<{ results: LeadMatch[] }>('/leads/duplicates/', { query, signal }),
    enabled: asked,
    placeholderData: keepPreviousData,
  });
  return asked ? (matches.data?.results ?? []) : [];
}

/** A change shows in the lead lists, board, stats and the plan usage. */
const affected = [queryKeys.leads, queryKeys.usage];

/** Creates a lead, or replaces the one with `id`. */
export function useSaveLead(id?: string) {
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (body: LeadBody) =>
      id ? api.put<LeadDetail>(`/leads/${id}/`, body) : api.post<LeadDetail>('/leads/', body),
    onSuccess: () => markChanged(),
  });
}

/** Moves a lead to another status (a lost one with its reason). */
export function useMoveLead() {
  const client = useQueryClient();
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: ({ id, ...change }: { id: string; status: LeadStatus; lost_reason?: string }) =>
      api.patch<LeadDetail>(`/leads/${id}/`, change),
    onSuccess: (lead) => {
      client.setQueryData(keys.detail(lead.id), lead);
      return markChanged();
    },
  });
}

export function useLogActivity(id: string) {
  const markChanged = useMarkChanged([keys.activities(id)]);
  return useMutation({
    mutationFn: (body: LeadActivityBody) => api.post<LeadActivity>(`/leads/${id}/activities/`, body),
    onSuccess: () => markChanged(),
  });
}

/**
 * Converting adds a customer too, or links the lead to `customerId`, one the agency already has:
 * the customer lists, their analytics and the usage change.
 */
export function useConvertLead(id: string) {
  const markChanged = useMarkChanged([...affected, queryKeys.customers, queryKeys.analytics]);
  return useMutation({
    mutationFn: (customerId?: string) =>
      api.post<LeadConversion>(
        `/leads/${id}/convert/`,
        customerId ? ({ customer_id: customerId } satisfies LeadConversionBody) : undefined,
      ),
    onSuccess: () => markChanged(),
  });
}

export function useDeleteLead() {
  const client = useQueryClient();
  const markChanged = useMarkChanged(affected);
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/leads/${id}/`),
    onSuccess: (_, id) => {
      // The list shown next keeps its cached rows while it reloads; the deleted one must not be among them.
      client.setQueriesData<Paged<Lead>>({ queryKey: keys.lists }, (page) =>
        page?.results.some((row) => row.id === id)
          ? { ...page, count: page.count - 1, results: page.results.filter((row) => row.id !== id) }
          : page,
      );
      return markChanged({ deleted: true });
    },
  });
}
