import { lazy, Suspense } from 'react';
import { Navigate } from 'react-router';
import { isAdminHost } from '../../lib/hosts.js';
import { useSession } from '../../lib/session-context.js';
import { PageLoader } from './page-loader.js';

const HomePage = lazy(() =>
  import('../../features/public/pages/home-page.js').then((m) => ({ default: m.Component })),
);

const signedInHome = () => (isAdminHost(window.location.hostname) ? '/admin' : '/dashboard');

/** `/`: the home page for visitors, the app for signed-in users. */
export function HomeRoute() {
  const { state } = useSession();
  if (state.status !== 'stable') return <PageLoader />;
  if (state.user) return <Navigate to={signedInHome()} replace />;
  return (
    <Suspense fallback={<PageLoader />}>
      <HomePage />
    </Suspense>
  );
}

/** `/app`: straight into the app, or to sign-in first. */
export function RedirectSignedIn() {
  const { state } = useSession();
  if (state.status !== 'stable') return <PageLoader />;
  return <Navigate to={state.user ? signedInHome() : '/login'} replace />;
}
