// After a new version is deployed, a tab opened before it still asks for the old version's page
// chunks, which are gone: the import fails. Reloading fetches the new version's pages. A tab that
// reloaded for this moments ago does not reload again: a chunk that still fails (the server is
// down) shows the error screen rather than a reload loop.

const RELOADED_AT_KEY = 'coverdesk.reloaded-for-new-version-at';
/** A second failure within this long of the reload is not a stale tab. */
const LOOP_GUARD_MS = 30_000;

/** What browsers and Vite say when a page's code cannot be fetched. */
const CHUNK_FAILURE =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading chunk \S+ failed/i;

export const isChunkLoadError = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'ChunkLoadError' || CHUNK_FAILURE.test(error.message));

/**
 * Reloads the page when `error` is page code that failed to load, unless this tab reloaded for the
 * same reason moments ago. True when it reloads.
 */
export function reloadForNewVersion(
  error: unknown,
  storage: Pick<Storage, 'getItem' | 'setItem'> = sessionStorage,
  reload: () => void = () => window.location.reload(),
  now = Date.now(),
): boolean {
  if (!isChunkLoadError(error)) return false;
  const last = Number(storage.getItem(RELOADED_AT_KEY) ?? 0);
  if (now - last < LOOP_GUARD_MS) return false;
  storage.setItem(RELOADED_AT_KEY, String(now));
  reload();
  return true;
}
