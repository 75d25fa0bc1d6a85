import type { Company, Paged } from '@coverdesk/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client.js';
import { queryKeys } from './query-keys.js';

/**
 * The agency's insurers with the types they sell and their rates: the policy form's choices and
 * every list's insurer filter. `enabled` is false where the plan has no insurers to ask for.
 */
export function useInsurerChoices(enabled = true) {
  return useQuery({
    queryKey: [...queryKeys.companies, 'choices'],
    queryFn: async ({ signal }) =>
      (await api.get<Paged<Company>>('/companies/', { query: { page_size: 100, _t: Date.now() }, signal }))
        .results,
    enabled,
  });
}
