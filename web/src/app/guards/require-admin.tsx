import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { isAdminHost, mainAppLoginUrl } from '../../lib/hosts.js';
import { useSession } from '../../lib/session-context.js';
import { NoAccess } from '../components/no-access.js';
import { PageLoader } from './page-loader.js';

/** The admin portal needs `is_admin` from the profile; on the admin host anyone else is sent away. */
export function Component() {
  const { session, state } = useSession();
  const onAdminHost = isAdminHost(window.location.hostname);
  const isAdmin = state.user?.is_admin ?? false;

  useEffect(() => {
    if (onAdminHost && !isAdmin) {
      void session.logout().then(() => window.location.assign(mainAppLoginUrl(window.location)));
    }
  }, [onAdminHost, isAdmin, session]);

  if (isAdmin) return <Outlet />;
  if (onAdminHost) return <PageLoader />;
  return (
    <NoAccess
      title="Admins only"
      message="The admin portal is for Coverdesk platform administrators."
      action={{ label: 'Back to the dashboard', to: '/dashboard' }}
    />
  );
}
