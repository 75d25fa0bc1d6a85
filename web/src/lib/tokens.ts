/** The signed-in user's tokens, kept in localStorage so a reload stays signed in. */
const ACCESS_KEY = 'coverdesk.access';
const REFRESH_KEY = 'coverdesk.refresh';

export interface TokenStore {
  access(): string | null;
  refresh(): string | null;
  set(tokens: { access: string; refresh?: string }): void;
  clear(): void;
}

export function createTokenStore(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>): TokenStore {
  return {
    access: () => storage.getItem(ACCESS_KEY),
    refresh: () => storage.getItem(REFRESH_KEY),
    set({ access, refresh }) {
      storage.setItem(ACCESS_KEY, access);
      if (refresh) storage.setItem(REFRESH_KEY, refresh);
    },
    clear() {
      storage.removeItem(ACCESS_KEY);
      storage.removeItem(REFRESH_KEY);
    },
  };
}
