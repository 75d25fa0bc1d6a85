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
  /** A view of the policies: any policy change (a renewal, a mark) changes it too. */
  expiringPolicies: ['policies', 'expiring'] as const,
  leads: ['leads'] as const,
  payments: ['payments'] as const,
  /** Claims are never kept: always asked afresh (a zero lifetime). */
  claims: ['claims'] as const,
  /** Sums of policies and payments: any change to either changes the report. */
  commissionReport: ['commission-report'] as const,
  /** Customer and portfolio analytics: sums of customers, policies and payments. */
  analytics: ['analytics'] as const,
  usage: ['billing', 'usage'] as const,
  /** The dashboard's figures: sums of everything, so always asked afresh (a zero lifetime). */
  dashboard: ['dashboard'] as const,
  /** Events read from policies, payments, leads and claims, and meetings: never kept. */
  calendar: ['calendar'] as const,
  /** Imports: polled while they run, never kept. */
  imports: ['imports'] as const,
  /** Global search answers, kept two minutes (the spec's search lifetime). */
  search: ['search'] as const,
  /** The bell, its settings and history: polled, never kept (a zero lifetime). */
  notifications: ['notifications'] as const,
  /** Audit logs, the agency's and the platform's: never kept (a zero lifetime). */
  activity: ['activity'] as const,
  /** How far the agency's setup has got; a dashboard resource, so always asked afresh. */
  setup: ['dashboard', 'setup'] as const,
  /** Support tickets, the agency's and the admins' inbox: conversations, never kept. */
  support: ['support'] as const,
  /** The platform's settings (sign-ups, the demo, email, Paddle): an admin's change shows at once. */
  platform: ['platform'] as const,
  /** The agency's members (whom records are assigned to), invitations and team rules. */
  team: ['team'] as const,
  /** Documents on customers, policies, claims and leads: another member may have added one. */
  documents: ['documents'] as const,
  /** Insurers' commission statements: another manager may be reviewing the same one. */
  commissionStatements: ['commission-statements'] as const,
};

/**
 * Brings what a change affected up to date. What is on screen reloads in place (after a deletion it
 * is only marked out of date: the screen still open would ask for the row just deleted). What is not
 * on screen is dropped rather than kept: kept, the list opened next would first show its old rows
 * ("1–1 of 1" right after the second insurer was added) until its reload came back; dropped, it
 * loads afresh.
 */
export function useMarkChanged(affected: readonly (readonly string[])[]) {
  const client = useQueryClient();
  return ({ deleted = false } = {}) =>
    Promise.all(
      affected.map((queryKey) => {
        client.removeQueries({ queryKey, type: 'inactive' });
        return client.invalidateQueries({ queryKey, refetchType: deleted ? 'none' : 'active' });
      }),
    );
}
