import type { Query, QueryClient } from '@tanstack/react-query';
import {
  type PersistedClient,
  type Persister,
  persistQueryClient,
} from '@tanstack/react-query-persist-client';
import {
  CACHE_MAX_AGE,
  CACHE_STORAGE_KEY,
  DEFAULT_STALE_TIME,
  type Resource,
  STALE_TIMES,
} from './query-client.js';

// The query cache on disk. The app loads this module on its own after the first screen, so the
// persistence library stays out of the initial download.

const SECOND = 1000;

/** Bump when the shape of cached data changes, so old caches are thrown away. */
export const CACHE_VERSION = '1';

/** Only successful data with a lifetime goes to disk. */
export function shouldPersist(query: Query): boolean {
  const resource = query.queryKey[0] as string;
  const staleTime = resource in STALE_TIMES ? STALE_TIMES[resource as Resource] : DEFAULT_STALE_TIME;
  return query.state.status === 'success' && staleTime > 0;
}

/** The query cache in localStorage, written at most once a second and when the page goes away. */
export function createLocalPersister(
  storage: Storage = localStorage,
  page: Pick<Window, 'addEventListener'> | undefined = globalThis.window,
): Persister {
  let pending: ReturnType<typeof setTimeout> | undefined;
  let unsaved: PersistedClient | undefined;
  const save = () => {
    clearTimeout(pending);
    if (!unsaved) return;
    try {
      storage.setItem(CACHE_STORAGE_KEY, JSON.stringify(unsaved));
    } catch {
      // A full or unavailable storage only costs the next visit a refetch.
    }
    unsaved = undefined;
  };
  // A reload or a closed tab within the wait must not lose the last change.
  page?.addEventListener('pagehide', save);
  return {
    persistClient(client: PersistedClient) {
      unsaved = client;
      clearTimeout(pending);
      pending = setTimeout(save, SECOND);
    },
    restoreClient() {
      const saved = storage.getItem(CACHE_STORAGE_KEY);
      if (!saved) return undefined;
      try {
        return JSON.parse(saved) as PersistedClient;
      } catch {
        return undefined;
      }
    },
    removeClient() {
      clearTimeout(pending);
      unsaved = undefined;
      storage.removeItem(CACHE_STORAGE_KEY);
    },
  };
}

let persister: Persister | undefined;
const localPersister = () => {
  persister ??= createLocalPersister();
  return persister;
};

/** Restores the cache saved by the last visit, then keeps the saved copy in step. */
export function persistCache(client: QueryClient): void {
  persistQueryClient({
    queryClient: client,
    persister: localPersister(),
    maxAge: CACHE_MAX_AGE,
    buster: CACHE_VERSION,
    dehydrateOptions: { shouldDehydrateQuery: shouldPersist },
  });
}

/** Someone else's data must not stay on disk after sign-out. */
export const forgetPersistedCache = () => localPersister().removeClient();
