import { MODULE_LABELS, TEAM_ROLE_LABELS } from '@coverdesk/contract';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../../lib/session-context.js';
import { useCan } from '../../lib/use-can.js';
import { useAccess } from '../access.js';
import { NoAccess } from '../components/no-access.js';
import { useRequiredAction, useRouteHandle } from '../route-handle.js';
import { PageLoader } from './page-loader.js';

const EXPIRED = '/billing?expired=true';

/**
 * The subscription, plan and role gate for the screen being opened: without an active subscription
 * or trial only billing and profile screens open; a module outside the plan says why and how to get
 * it; a page that changes records (its route's `action`) tells a role that may not so, in place of
 * a form it could not save.
 */
export function Component() {
  const access = useAccess();
  const handle = useRouteHandle();
  const action = useRequiredAction();
  const allowed = useCan(action ?? 'read');
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
  if (!allowed) return <ReadOnlyRole />;
  return <Outlet />;
}

/** In place of a form the member's role may not use: why, and the way back to what they can read. */
function ReadOnlyRole() {
  const role = useSession().state.user?.role;
  const { pathname } = useLocation();
  // "/policies/1/edit" -> "/policies/1", "/customers/create" -> "/customers".
  const back = pathname.replace(/\/+$/, '').replace(/\/[^/]+$/, '') || '/dashboard';
  // A viewer changes nothing; another role is refused only these records (an agent, insurers).
  const message =
    role && role !== 'viewer'
      ? `Your role (${TEAM_ROLE_LABELS[role]}) can view but not change these. Ask an owner or manager.`
      : 'Your role can view but not change records. Ask an owner or manager.';
  return <NoAccess title="View only" message={message} action={{ label: 'Back', to: back }} />;
}
