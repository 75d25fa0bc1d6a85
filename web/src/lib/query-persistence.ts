import type { Query, QueryClient } from '@tanstack/react-query';
import {
  type PersistedClient,
  type Persister,
  persistQueryClient,
} from '@tanstack/react-query-persist-client';
import { CACHE_MAX_AGE, DEFAULT_STALE_TIME, type Resource, STALE_TIMES } from './query-client.js';

// The query cache on disk. The app loads this module on its own after the first screen, so the
// persistence library stays out of the initial download.

const SECOND = 1000;

/** Bump when the shape of cached data changes, so old caches are thrown away. */
export const CACHE_VERSION = '1';
const STORAGE_KEY = 'coverdesk.query-cache';

/** Only successful data with a lifetime goes to disk. */
export function shouldPersist(query: Query): boolean {
  const resource = query.queryKey[0] as string;
  const staleTime = resource in STALE_TIMES ? STALE_TIMES[resource as Resource] : DEFAULT_STALE_TIME;
  return query.state.status === 'success' && staleTime > 0;
}

/** The query cache in localStorage, written at most once a second. */
export function createLocalPersister(storage: Storage = localStorage): Persister {
  let pending: ReturnType<typeof setTimeout> | undefined;
  return {
    persistClient(client: PersistedClient) {
      clearTimeout(pending);
      pending = setTimeout(() => {
        try {
          storage.setItem(STORAGE_KEY, JSON.stringify(client));
        } catch {
          // A full or unavailable storage only costs the next visit a refetch.
        }
      }, SECOND);
    },
    restoreClient() {
      const saved = storage.getItem(STORAGE_KEY);
      if (!saved) return undefined;
      try {
        return JSON.parse(saved) as PersistedClient;
      } catch {
        return undefined;
      }
    },
    removeClient() {
      clearTimeout(pending);
      storage.removeItem(STORAGE_KEY);
    },
  };
}

const persister = createLocalPersister();

/** Restores the cache saved by the last visit, then keeps the saved copy in step. */
export function persistCache(client: QueryClient): void {
  persistQueryClient({
    queryClient: client,
    persister,
    maxAge: CACHE_MAX_AGE,
    buster: CACHE_VERSION,
    dehydrateOptions: { shouldDehydrateQuery: shouldPersist },
  });
}

/** Someone else's data must not stay on disk after sign-out. */
export const forgetPersistedCache = () => persister.removeClient();
