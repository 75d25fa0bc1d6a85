import type {
  AuditEntry,
  Paged,
  ProfileUpdateBody,
  RecoveryCodes,
  TotpSetup,
  UserProfile,
  UserSession,
} from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys, useMarkChanged } from '../../lib/query-keys.js';

export function useUpdateProfile() {
  // The agency's time zone decides which policies are active and which instalments overdue.
  const markChanged = useMarkChanged([queryKeys.policies, queryKeys.payments]);
  return useMutation({
    mutationFn: (body: ProfileUpdateBody) =>
      api.patch<{ user: UserProfile; message: string }>('/user/profile/', body),
    onSuccess: (_saved, body) => (body.time_zone === undefined ? undefined : markChanged()),
  });
}

const activityKeys = {
  list: (query: Record<string, string | number>) => [...queryKeys.activity, 'agency', query] as const,
  people: [...queryKeys.activity, 'agency-people'] as const,
};

/** The agency's activity log, for its owner. */
export function useAgencyActivity(query: Record<string, string | number>) {
  return useQuery({
    queryKey: activityKeys.list(query),
    queryFn: ({ signal }) => api.get<Paged<AuditEntry>>('/user/profile/audit/', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The agency's users, to filter its activity by who acted. */
export function useAgencyPeople() {
  return useQuery({
    queryKey: activityKeys.people,
    queryFn: ({ signal }) =>
      api.get<{ results: { id: string; email: string; name: string }[] }>('/user/profile/audit/users/', {
        signal,
      }),
  });
}

const securityKeys = { sessions: ['user', 'sessions'] as const };

/** A new secret to scan: two-step sign-in is on only once a right code confirms it. */
export function useTotpSetup() {
  return useMutation({ mutationFn: () => api.post<TotpSetup>('/user/mfa/totp/setup/') });
}

export function useTotpConfirm() {
  return useMutation({
    mutationFn: (code: string) => api.post<RecoveryCodes>('/user/mfa/totp/confirm/', { code }),
  });
}

export function useTotpDisable() {
  return useMutation({
    mutationFn: (body: { password: string; code: string }) =>
      api.post<{ detail: string }>('/user/mfa/totp/disable/', body),
  });
}

export function useRenewRecoveryCodes() {
  return useMutation({
    mutationFn: (code: string) => api.post<RecoveryCodes>('/user/mfa/recovery-codes/', { code }),
  });
}

/** The sessions signed in to the account; asked afresh whenever the card opens. */
export function useUserSessions() {
  return useQuery({
    queryKey: securityKeys.sessions,
    queryFn: ({ signal }) => api.get<{ results: UserSession[] }>('/user/sessions/', { signal }),
    staleTime: 0,
  });
}

export function useEndSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<null>(`/user/sessions/${id}/`),
    onSuccess: () => client.invalidateQueries({ queryKey: securityKeys.sessions }),
  });
}

export function useEndOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ detail: string }>('/user/sessions/end-others/'),
    onSuccess: () => client.invalidateQueries({ queryKey: securityKeys.sessions }),
  });
}
