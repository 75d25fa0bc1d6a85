import type { Dashboard, SetupStatus, UsageSummary } from '@coverdesk/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.js';
import { queryKeys } from '../../lib/query-keys.js';

/** Which of the first records the agency has: the dashboard's setup steps. */
export interface AgencySetup {
  policyTypes: boolean;
  insurers: boolean;
  customers: boolean;
  policies: boolean;
}

/** Read from the setup check and the plan usage, which count without any module's gate. */
export function useAgencySetup() {
  return useQuery({
    queryKey: queryKeys.setup,
    queryFn: async ({ signal }): Promise<AgencySetup> => {
      const [status, usage] = await Promise.all([
        api.get<SetupStatus>('/setup/status/', { signal }),
        api.get<UsageSummary>('/billing/usage/summary/', { signal }),
      ]);
      return {
        policyTypes: status.hasPolicyTypes,
        insurers: status.hasCompanies,
        customers: usage.customers.current_value > 0,
        policies: usage.policies.current_value > 0,
      };
    },
  });
}

/**
 * Every figure and list of the dashboard in one call; never kept (the spec's zero lifetime). Asked
 * only when shown: an agency still setting up sees what the figures will be instead.
 */
export function useDashboard(enabled: boolean) {
  return useQuery({
    queryKey: [...queryKeys.dashboard, 'figures'],
    queryFn: ({ signal }) => api.get<Dashboard>('/dashboard/', { signal }),
    enabled,
  });
}
