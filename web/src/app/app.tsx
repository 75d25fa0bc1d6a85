import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import '@mantine/notifications/styles.css';
import './touch.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { onSessionEnded } from '../lib/api-client.js';
import { CACHE_STORAGE_KEY, createQueryClient } from '../lib/query-client.js';
import { Session } from '../lib/session.js';
import { SessionProvider } from '../lib/session-context.js';
import { addAppRoutes, routes } from './routes.js';
import { cssVariablesResolver, theme } from './theme.js';

// Toasts are rare and never needed for the first paint: their container loads on its own.
const Notifications = lazy(() =>
  import('@mantine/notifications').then((m) => ({ default: m.Notifications })),
);

const queryClient = createQueryClient();
// The cache on disk is restored and then kept in step from a chunk of its own, off the first
// screen's critical path; screens that ask before it arrives simply fetch.
const persistence = import('../lib/query-persistence.js');
void persistence.then(({ persistCache }) => persistCache(queryClient)).catch(() => {});
const forgetCacheDirectly = () => localStorage.removeItem(CACHE_STORAGE_KEY);
const session = new Session(async () => {
  queryClient.clear();
  // Without the persistence chunk (offline, say), the saved copy is removed directly.
  await persistence.then(({ forgetPersistedCache }) => forgetPersistedCache()).catch(forgetCacheDirectly);
});
const router = createBrowserRouter(routes, { patchRoutesOnNavigation: addAppRoutes });

export function App() {
  useEffect(() => {
    void session.initialise();
    // The HTTP client gave up on the session (refresh failed): sign out. A login-required screen
    // then sends the user to sign in; a public one (a reset link, say) stays where it is.
    return onSessionEnded(() => void session.logout());
  }, []);

  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <Suspense fallback={null}>
        {/* Bottom right: at the top they covered the page's buttons and filters. Three seconds, two
            at a time (the rest wait their turn): each says in a few words what just happened, and a
            pile of them covered half a phone's screen. */}
        <Notifications position="bottom-right" autoClose={3000} limit={2} />
      </Suspense>
      <QueryClientProvider client={queryClient}>
        <SessionProvider session={session}>
          <RouterProvider router={router} />
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
