import type {
  AdminCancelBody,
  AdminChangePlanBody,
  AdminSubscriptionResult,
  AdminTenantDetail,
  AdminTenantRow,
  AdminTenantUsage,
  AdminUser,
  CompPeriodBody,
  ExtendTrialBody,
  GrantAdminBody,
  Paged,
  Plan,
  SuperAdmin,
} from '@coverdesk/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';

/** The admin portal's data: never kept, so what an admin sees is what the platform holds now. */
const keys = {
  all: ['admin'] as const,
  tenants: (query: Record<string, string | number>) => ['admin', 'tenants', query] as const,
  tenant: (id: string) => ['admin', 'tenant', id] as const,
  usage: (id: string) => ['admin', 'tenant', id, 'usage'] as const,
  users: (query: Record<string, string | number>) => ['admin', 'users', query] as const,
  superAdmins: ['admin', 'super-admins'] as const,
  plans: ['admin', 'plans'] as const,
};

const ALWAYS_FRESH = { staleTime: 0, gcTime: 0 } as const;

export function useAdminTenants(query: Record<string, string | number>) {
  return useQuery({
    queryKey: keys.tenants(query),
    queryFn: ({ signal }) => api.get<Paged<AdminTenantRow>>('/admin/tenants/', { query, signal }),
    placeholderData: keepPreviousData,
    ...ALWAYS_FRESH,
  });
}

export function useAdminTenant(id: string) {
  return useQuery({
    queryKey: keys.tenant(id),
    queryFn: ({ signal }) => api.get<AdminTenantDetail>(`/admin/tenants/${id}/`, { signal }),
    ...ALWAYS_FRESH,
  });
}

export function useAdminTenantUsage(id: string) {
  return useQuery({
    queryKey: keys.usage(id),
    queryFn: ({ signal }) => api.get<AdminTenantUsage>(`/admin/tenants/${id}/usage/`, { signal }),
    ...ALWAYS_FRESH,
  });
}

export function useAdminUsers(query: Record<string, string | number>) {
  return useQuery({
    queryKey: keys.users(query),
    queryFn: ({ signal }) => api.get<Paged<AdminUser>>('/admin/users/', { query, signal }),
    placeholderData: keepPreviousData,
    ...ALWAYS_FRESH,
  });
}

export function useSuperAdmins() {
  return useQuery({
    queryKey: keys.superAdmins,
    queryFn: ({ signal }) => api.get<{ results: SuperAdmin[] }>('/admin/super-admins/', { signal }),
    ...ALWAYS_FRESH,
  });
}

/** The plans on sale, for the plan filter and the change-plan choice. */
export function usePlans() {
  return useQuery({
    queryKey: keys.plans,
    queryFn: async ({ signal }) =>
      (await api.get<{ results: Plan[] }>('/billing/plans/', { signal })).results,
  });
}

/** An admin action: everything the portal shows may have changed, so all of it is read again. */
function useAdminAction<Body, Result>(send: (body: Body) => Promise<Result>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}

export type SubscriptionAction = 'extend-trial' | 'change-plan' | 'comp-period' | 'cancel';
type SubscriptionBody = ExtendTrialBody | AdminChangePlanBody | CompPeriodBody | AdminCancelBody;

export function useSubscriptionAction(tenantId: string, action: SubscriptionAction) {
  return useAdminAction((body: SubscriptionBody) =>
    api.post<AdminSubscriptionResult>(`/admin/tenants/${tenantId}/subscription/${action}/`, body),
  );
}

/** Each is POSTed to `/admin/users/<id>/<action>/` with the admin's reason. */
export type UserAction = 'disable' | 'enable' | 'sign-out' | 'password-reset' | 'mfa/reset';

export function useUserAction(action: UserAction) {
  return useAdminAction(({ userId, reason }: { userId: string; reason: string }) =>
    api.post<AdminUser | { detail: string }>(`/admin/users/${userId}/${action}/`, { reason }),
  );
}

export function useGrantAdmin() {
  return useAdminAction((body: GrantAdminBody) => api.post<AdminUser>('/admin/super-admins/grant/', body));
}

export function useRevokeAdmin() {
  return useAdminAction(({ userId, reason }: { userId: string; reason: string }) =>
    api.post<AdminUser>(`/admin/super-admins/${userId}/revoke/`, { reason }),
  );
}
