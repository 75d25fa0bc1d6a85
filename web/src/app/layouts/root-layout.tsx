import { type Location, Navigate, Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { isAdminHost } from '../../lib/hosts.js';
import { AdminPortalStrip } from './admin-portal-strip.js';
import classes from './root-layout.module.css';

/** On an admin host only the admin portal and sign-in are served. */
const ADMIN_HOST_PATHS = ['/admin', '/login', '/forgot-password', '/reset-password'];

/**
 * Where a screen's scroll is remembered: by history entry, as the router does; but every page loaded
 * anew (an address typed, a link from an email) has the same entry key, so those go by their address.
 * Otherwise a page opened anew came up scrolled as far as the last page opened anew had been, with
 * its banners under the header.
 */
const scrollKey = (location: Location) =>
  location.key === 'default' ? `${location.pathname}${location.search}` : location.key;

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
      <ScrollRestoration getKey={scrollKey} />
    </>
  );
}
