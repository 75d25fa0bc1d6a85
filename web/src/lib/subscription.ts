import type { BillingProvider, Plan, SubscriptionState } from '@coverdesk/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client.js';

export const billingKeys = {
  plans: ['billing', 'plans'] as const,
  status: ['billing', 'status'] as const,
};

interface PlanCatalogue {
  plans: Plan[];
  /** Who takes payment for a plan: Paddle when the server has it set up, otherwise manual. */
  provider: BillingProvider;
}

/** The plans on sale and the payment provider, read once for both. */
function usePlanCatalogue<Selected>(select: (catalogue: PlanCatalogue) => Selected) {
  return useQuery({
    queryKey: billingKeys.plans,
    queryFn: async (): Promise<PlanCatalogue> => {
      const body = await api.get<{ results?: Plan[]; plans?: Plan[]; provider?: BillingProvider } | Plan[]>(
        '/billing/plans/',
      );
      const plans = Array.isArray(body) ? body : (body.results ?? body.plans ?? []);
      return {
        plans: plans.filter((plan) => Boolean(plan?.id && plan?.name)),
        provider: (!Array.isArray(body) && body.provider) || 'manual',
      };
    },
    select,
  });
}

/** Plans on sale; entries without an id or a name are discarded. */
export const usePlans = () => usePlanCatalogue((catalogue) => catalogue.plans);

export const usePaymentProvider = () => usePlanCatalogue((catalogue) => catalogue.provider);

/** The agency's subscription. Admins skip billing, so it is not fetched for them. */
export function useSubscriptionStatus(enabled: boolean) {
  return useQuery({
    queryKey: billingKeys.status,
    queryFn: () => api.get<SubscriptionState>('/billing/subscriptions/status/'),
    enabled,
  });
}
