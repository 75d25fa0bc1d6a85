import { Navigate, Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { isAdminHost } from '../../lib/hosts.js';
import { AdminPortalStrip } from './admin-portal-strip.js';
import classes from './root-layout.module.css';

/** On an admin host only the admin portal and sign-in are served. */
const ADMIN_HOST_PATHS = ['/admin', '/login', '/forgot-password', '/reset-password'];

export function RootLayout() {
  const location = useLocation();
  // A screen's code loads on first visit; the bar shows that the click was heard.
  const loadingScreen = useNavigation().state === 'loading';
  const adminHost = isAdminHost(window.location.hostname);
  if (adminHost && !ADMIN_HOST_PATHS.some((path) => location.pathname.startsWith(path))) {
    return <Navigate to="/admin" replace />;
  }
  return (
    <>
      {loadingScreen && <div className={classes.progress} role="progressbar" aria-label="Loading page" />}
      {adminHost && <AdminPortalStrip />}
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
