import { MODULE_LABELS } from '@coverdesk/contract';
import { Navigate, Outlet } from 'react-router';
import { useAccess } from '../access.js';
import { NoAccess } from '../components/no-access.js';
import { useRouteHandle } from '../route-handle.js';
import { PageLoader } from './page-loader.js';

const EXPIRED = '/billing?expired=true';

/**
 * The subscription and plan gate for the screen being opened: without an active subscription or
 * trial only billing and profile screens open; a module outside the plan says why and how to get it.
 */
export function Component() {
  const access = useAccess();
  const handle = useRouteHandle();
  if (access.isAdmin) return <Outlet />;
  if (access.isLoading) return <PageLoader />;
  const active = !access.isError && Boolean(access.subscription?.is_active);
  if (!active && !handle.allowWithoutSubscription) return <Navigate to={EXPIRED} replace />;
  if (handle.module && !access.canOpen(handle.module)) {
    return (
      <NoAccess
        title={`${MODULE_LABELS[handle.module]} is not in your plan`}
        message={`Your ${access.subscription?.plan_details.display_name ?? 'current'} plan does not include ${MODULE_LABELS[handle.module]}. Upgrade your plan to use it.`}
        action={{ label: 'See plans', to: '/billing' }}
      />
    );
  }
  return <Outlet />;
}
