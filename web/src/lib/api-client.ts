import { createHttpClient } from './http.js';
import { createTokenStore } from './tokens.js';

export const tokens = createTokenStore(localStorage);

const sessionEndedListeners = new Set<() => void>();

/** Lets the app react (sign out, go to /login) when the client gives up on the session. */
export function onSessionEnded(listener: () => void): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

const notifySessionEnded = () => {
  for (const listener of sessionEndedListeners) listener();
};

/** The main API client: 30 s timeout, refresh-and-retry on 401. */
export const api = createHttpClient({ tokens, timeoutMs: 30_000, onSessionEnded: notifySessionEnded });

/** For background calls (polling, counters): 10 s timeout, a 401 signs out. */
export const secondaryApi = createHttpClient({
  tokens,
  timeoutMs: 10_000,
  secondary: true,
  onSessionEnded: notifySessionEnded,
});
