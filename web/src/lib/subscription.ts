import type { Plan, SubscriptionState } from '@coverdesk/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client.js';

export const billingKeys = {
  plans: ['billing', 'plans'] as const,
  status: ['billing', 'status'] as const,
};

/** Plans on sale; entries without an id or a name are discarded. */
export function usePlans() {
  return useQuery({
    queryKey: billingKeys.plans,
    queryFn: async () => {
      const body = await api.get<{ results?: Plan[]; plans?: Plan[] } | Plan[]>('/billing/plans/');
      const plans = Array.isArray(body) ? body : (body.results ?? body.plans ?? []);
      return plans.filter((plan) => Boolean(plan?.id && plan?.name));
    },
  });
}

/** The agency's subscription. Admins skip billing, so it is not fetched for them. */
export function useSubscriptionStatus(enabled: boolean) {
  return useQuery({
    queryKey: billingKeys.status,
    queryFn: () => api.get<SubscriptionState>('/billing/subscriptions/status/'),
    enabled,
  });
}
