import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../../lib/session-context.js';
import { PageLoader } from './page-loader.js';

/** Login-required screens: anonymous visitors go to /login and come back after signing in. */
export function RequireAuth() {
  const { state } = useSession();
  const location = useLocation();
  if (state.status !== 'stable') return <PageLoader />;
  if (!state.user) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/login?next=${encodeURIComponent(next)}`} replace />;
  }
  return <Outlet />;
}
