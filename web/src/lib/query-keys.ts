/**
 * Query keys of every resource, in one place so a change in one feature can refresh what it affects
 * in another (a renamed policy type shows in the insurer list) without the features importing each
 * other. The first element is the resource in the lifetimes table of query-client.ts.
 */
export const queryKeys = {
  policyTypes: ['policy-types'] as const,
  companies: ['companies'] as const,
  customers: ['customers'] as const,
  setupStatus: ['setup', 'status'] as const,
  usage: ['billing', 'usage'] as const,
};
