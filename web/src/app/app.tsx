import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { lazy, Suspense, useEffect } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { onSessionEnded } from '../lib/api-client.js';
import {
  CACHE_MAX_AGE,
  CACHE_VERSION,
  createLocalPersister,
  createQueryClient,
  shouldPersist,
} from '../lib/query-client.js';
import { Session } from '../lib/session.js';
import { SessionProvider } from '../lib/session-context.js';
import { routes } from './routes.js';
import { cssVariablesResolver, theme } from './theme.js';

// Toasts are rare and never needed for the first paint: their container loads on its own.
const Notifications = lazy(() =>
  import('@mantine/notifications').then((m) => ({ default: m.Notifications })),
);

const queryClient = createQueryClient();
const persister = createLocalPersister();
const session = new Session(async () => {
  queryClient.clear();
  await persister.removeClient();
});
const router = createBrowserRouter(routes);

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
        <Notifications position="top-right" />
      </Suspense>
      <PersistQueryClientProvider
        client={queryClient}
        persistOptions={{
          persister,
          maxAge: CACHE_MAX_AGE,
          buster: CACHE_VERSION,
          dehydrateOptions: { shouldDehydrateQuery: shouldPersist },
        }}
      >
        <SessionProvider session={session}>
          <RouterProvider router={router} />
        </SessionProvider>
      </PersistQueryClientProvider>
    </MantineProvider>
  );
}
