import { QueryClient } from '@tanstack/react-query';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/**
 * How long each kind of data stays fresh (the spec's data lifetimes). A query key starts with its
 * resource name, so `['companies', id]` is fresh for 15 minutes. Zero means always refetched and
 * never kept on disk.
 */
export const STALE_TIMES = {
  profile: 5 * MINUTE,
  billing: 60 * SECOND,
  navigation: 30 * SECOND,
  'policy-types': 30 * MINUTE,
  companies: 15 * MINUTE,
  customers: 5 * MINUTE,
  policies: 3 * MINUTE,
  leads: 5 * MINUTE,
  search: 2 * MINUTE,
  analytics: 5 * MINUTE,
  // A report like the analytics, kept no longer; payments and policy changes refresh it sooner.
  'commission-report': 5 * MINUTE,
  claims: 0,
  calendar: 0,
  notifications: 0,
  payments: 0,
  dashboard: 0,
  imports: 0,
  support: 0,
  // Who did what: read afresh each time, and never kept on disk.
  activity: 0,
  platform: 0,
  // Who is in the team and with which role: another manager may have changed it a moment ago.
  team: 0,
  documents: 0,
  'commission-statements': 0,
} as const;

export type Resource = keyof typeof STALE_TIMES;

/** Anything not in the table: fresh for 70% of the local cache's default ten-minute lifetime. */
export const DEFAULT_STALE_TIME = 7 * MINUTE;
const DEFAULT_CACHE_TIME = 10 * MINUTE;

/** Where the query cache is saved between visits (lib/query-persistence.ts). */
export const CACHE_STORAGE_KEY = 'coverdesk.query-cache';

/** The whole local cache is discarded after a day. */
export const CACHE_MAX_AGE = 24 * 60 * MINUTE;

export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: DEFAULT_STALE_TIME,
        gcTime: CACHE_MAX_AGE,
        // The HTTP client already retries network errors and 5xx with backoff.
        retry: false,
        refetchOnWindowFocus: false,
      },
    },
  });
  for (const [resource, staleTime] of Object.entries(STALE_TIMES)) {
    client.setQueryDefaults([resource], { staleTime, gcTime: staleTime === 0 ? 0 : DEFAULT_CACHE_TIME });
  }
  return client;
}
