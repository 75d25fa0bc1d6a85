import { describe, expect, it, vi } from 'vitest';
import { isChunkLoadError, reloadForNewVersion } from './stale-code.js';

/** sessionStorage as a tab keeps it across its own reloads. */
function tabStorage() {
  const kept = new Map<string, string>();
  return {
    getItem: (key: string) => kept.get(key) ?? null,
    setItem: (key: string, value: string) => kept.set(key, value),
  };
}

const chromeFailure = new TypeError(
  'Failed to fetch dynamically imported module: https://app.example/assets/policies-page-OLD.js',
);

describe('a tab whose page code is gone after a new version', () => {
  it('tells a missing chunk from other failures', () => {
    expect(isChunkLoadError(chromeFailure)).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: x.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error("Cannot read properties of undefined (reading 'map')"))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });

  it('reloads once, and shows the error when the code still fails right after', () => {
    const storage = tabStorage();
    const reload = vi.fn();
    expect(reloadForNewVersion(chromeFailure, storage, reload, 1_000_000)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
    // The reloaded tab fails again at once: no loop.
    expect(reloadForNewVersion(chromeFailure, storage, reload, 1_002_000)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    // The next deploy, much later, reloads again.
    expect(reloadForNewVersion(chromeFailure, storage, reload, 1_000_000 + 3_600_000)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('never reloads for a screen that failed for another reason', () => {
    const reload = vi.fn();
    expect(reloadForNewVersion(new Error('boom'), tabStorage(), reload, 1)).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });
});
