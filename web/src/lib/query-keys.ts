import { useQueryClient } from '@tanstack/react-query';

/**
 * Query keys of every resource, in one place so a change in one feature can refresh what it affects
 * in another (a renamed policy type shows in the insurer list) without the features importing each
 * other. The first element is the resource in the lifetimes table of query-client.ts.
 */
export const queryKeys = {
  policyTypes: ['policy-types'] as const,
  companies: ['companies'] as const,
  customers: ['customers'] as const,
  policies: ['policies'] as const,
  payments: ['payments'] as const,
  usage: ['billing', 'usage'] as const,
};

/**
 * Marks what a change affected as out of date. After a deletion nothing is refetched at once: the
 * screen still open would ask for the row just deleted; each query reloads when next shown.
 */
export function useMarkChanged(affected: readonly (readonly string[])[]) {
  const client = useQueryClient();
  return ({ deleted = false } = {}) =>
    Promise.all(
      affected.map((queryKey) =>
        client.invalidateQueries({ queryKey, refetchType: deleted ? 'none' : 'active' }),
      ),
    );
}
