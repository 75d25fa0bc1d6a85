import type { TeamAction } from '@coverdesk/contract';
import { Navigate, type RouteObject } from 'react-router';
import { ADMIN_SCREENS, type AdminPath } from './admin-screens.js';
import { RequireAuth } from './guards/require-auth.js';
import type { RouteHandle } from './route-handle.js';
import { type BuiltPath, SCREENS } from './screens.js';

type Lazy = RouteObject['lazy'];

/** A screen that is one page. */
const single = (lazy: Lazy): RouteObject[] => [{ index: true, lazy }];

/**
 * A page that changes records (a form): a role that may not do `action` sees the access gate's
 * notice instead, whether it followed a link or typed the address.
 */
const changing = (path: string, lazy: Lazy, action: TeamAction = 'work'): RouteObject => ({
  path,
  lazy,
  handle: { action } satisfies RouteHandle,
});

/**
 * The pages of every screen that works today, under its path. The type asks for exactly the screens
 * screens.ts lists as built: a module that lands loses its `coming` there and gains its pages here.
 */
const PAGES: Record<BuiltPath, RouteObject[]> = {
  '/dashboard': single(() => import('../features/dashboard/pages/dashboard-page.js')),
  '/customers': [
    { index: true, lazy: () => import('../features/customers/pages/customers-page.js') },
    changing('create', () => import('../features/customers/pages/customer-form-page.js')),
    { path: ':id', lazy: () => import('../features/customers/pages/customer-detail-page.js') },
    changing(':id/edit', () => import('../features/customers/pages/customer-form-page.js')),
  ],
  '/policies': [
    { index: true, lazy: () => import('../features/policies/pages/policies-page.js') },
    changing('create', () => import('../features/policies/pages/policy-form-page.js')),
    { path: ':id', lazy: () => import('../features/policies/pages/policy-detail-page.js') },
    changing(':id/edit', () => import('../features/policies/pages/policy-form-page.js')),
    changing(':id/renew', () => import('../features/policies/pages/policy-renew-page.js')),
  ],
  '/commission-report': single(() => import('../features/commission-report/pages/commission-report-page.js')),
  '/commission-statements': [
    { index: true, lazy: () => import('../features/commission-statements/pages/statements-page.js') },
    { path: ':id', lazy: () => import('../features/commission-statements/pages/statement-page.js') },
  ],
  '/customer-analytics': single(() => import('../features/analytics/pages/customer-analytics-page.js')),
  '/current-portfolio': single(() => import('../features/analytics/pages/current-portfolio-page.js')),
  '/portfolio-history': single(() => import('../features/analytics/pages/portfolio-history-page.js')),
  '/payments': [
    { index: true, lazy: () => import('../features/payments/pages/payments-page.js') },
    { path: 'policy/:id', lazy: () => import('../features/payments/pages/payments-page.js') },
  ],
  '/alerts': single(() => import('../features/alerts/pages/alerts-page.js')),
  '/calendar': single(() => import('../features/calendar/pages/calendar-page.js')),
  '/claims': [
    { index: true, lazy: () => import('../features/claims/pages/claims-page.js') },
    changing('create', () => import('../features/claims/pages/claim-form-page.js')),
    { path: ':id', lazy: () => import('../features/claims/pages/claim-detail-page.js') },
    changing(':id/edit', () => import('../features/claims/pages/claim-form-page.js')),
  ],
  '/leads': [
    { index: true, lazy: () => import('../features/leads/pages/leads-page.js') },
    changing('create', () => import('../features/leads/pages/lead-form-page.js')),
    { path: ':id', lazy: () => import('../features/leads/pages/lead-detail-page.js') },
    changing(':id/edit', () => import('../features/leads/pages/lead-form-page.js')),
  ],
  '/companies': [
    { index: true, lazy: () => import('../features/companies/pages/companies-page.js') },
    changing('create', () => import('../features/companies/pages/company-form-page.js'), 'insurers'),
    // Where every member reads an insurer: a role that may not change it gets the form read-only.
    { path: ':id/edit', lazy: () => import('../features/companies/pages/company-form-page.js') },
  ],
  '/policy-types': [
    { index: true, lazy: () => import('../features/policy-types/pages/policy-types-page.js') },
    changing(
      'create',
      () => import('../features/policy-types/pages/policy-type-form-page.js'),
      'agency_settings',
    ),
    // Read-only for a role that may not change it, as an insurer's is.
    { path: ':id/edit', lazy: () => import('../features/policy-types/pages/policy-type-form-page.js') },
  ],
  '/policy-import': single(() => import('../features/imports/pages/import-page.js')),
  '/billing': single(() => import('../features/billing/pages/billing-page.js')),
  '/notifications-settings': single(
    () => import('../features/notifications/pages/notification-settings-page.js'),
  ),
  '/notifications': single(() => import('../features/notifications/pages/notifications-page.js')),
  '/profile': single(() => import('../features/profile/pages/profile-page.js')),
  '/profile/settings': single(() => import('../features/profile/pages/profile-settings-page.js')),
  '/team': single(() => import('../features/team/pages/team-page.js')),
  '/support': [
    { index: true, lazy: () => import('../features/support/pages/support-page.js') },
    changing('new', () => import('../features/support/pages/new-ticket-page.js')),
    { path: ':id', lazy: () => import('../features/support/pages/ticket-page.js') },
  ],
};

/** What a screen on its way shows, for its whole path ("/leads/create" too). */
const onItsWay: Lazy = () => import('./components/on-its-way.js');

/** Each screen of screens.ts, carrying its entry as the route's handle, and its aliases. */
const screenRoutes: RouteObject[] = SCREENS.flatMap((screen) => [
  {
    path: screen.path.slice(1),
    handle: screen satisfies RouteHandle,
    children:
      'coming' in screen
        ? [
            { index: true, lazy: onItsWay },
            { path: '*', lazy: onItsWay },
          ]
        : PAGES[screen.path],
  },
  ...('aliases' in screen ? screen.aliases : []).map((alias) => ({
    path: alias.slice(1),
    element: <Navigate to={screen.path} replace />,
  })),
]);

const adminPage = (lazy: Lazy): RouteObject[] => [{ index: true, lazy }];

/** The pages of every admin screen, under its path. */
const ADMIN_PAGES: Record<AdminPath, RouteObject[]> = {
  '/admin': adminPage(() => import('../features/admin/pages/admin-dashboard-page.js')),
  '/admin/tenants': [
    { index: true, lazy: () => import('../features/admin/pages/tenants-page.js') },
    { path: ':id', lazy: () => import('../features/admin/pages/tenant-page.js') },
    { path: ':id/subscription', lazy: () => import('../features/admin/pages/tenant-subscription-page.js') },
    { path: ':id/usage', lazy: () => import('../features/admin/pages/tenant-usage-page.js') },
  ],
  '/admin/users': adminPage(() => import('../features/admin/pages/users-page.js')),
  '/admin/super-admin': adminPage(() => import('../features/admin/pages/super-admin-page.js')),
  '/admin/support': [
    { index: true, lazy: () => import('../features/support/pages/admin-support-page.js') },
    { path: ':id', lazy: () => import('../features/support/pages/admin-ticket-page.js') },
  ],
  '/admin/user-activity': adminPage(() => import('../features/audit/pages/user-activity-page.js')),
  '/admin/billing': adminPage(() => import('../features/admin/pages/billing-page.js')),
  '/admin/revenue-analytics': adminPage(() => import('../features/admin/pages/revenue-page.js')),
  '/admin/analytics': adminPage(() => import('../features/admin/pages/analytics-page.js')),
  '/admin/system-health': adminPage(() => import('../features/admin/pages/system-health-page.js')),
  '/admin/performance': adminPage(() => import('../features/admin/pages/performance-page.js')),
  '/admin/cache': adminPage(() => import('../features/admin/pages/cache-page.js')),
  '/admin/settings': adminPage(() => import('../features/admin/pages/settings-page.js')),
  '/admin/email-setup': adminPage(() => import('../features/admin/pages/email-setup-page.js')),
  '/admin/paddle-setup': adminPage(() => import('../features/admin/pages/paddle-setup-page.js')),
};

/** Each admin screen, under /admin, carrying its entry as the route's handle. */
const adminRoutes: RouteObject[] = ADMIN_SCREENS.map((screen) => ({
  // The portal's first screen is the index of /admin; the others sit under it.
  path: screen.path === '/admin' ? undefined : screen.path.slice('/admin/'.length),
  handle: screen satisfies RouteHandle,
  children: ADMIN_PAGES[screen.path],
}));

/** The signed-in app's screens, added under the root route on first use (see routes.tsx). */
export const appRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        lazy: () => import('./layouts/app-layout.js'),
        children: [
          { lazy: () => import('./guards/access-gate.js'), children: screenRoutes },
          {
            path: 'admin',
            lazy: () => import('./guards/require-admin.js'),
            children: [...adminRoutes, { path: 'dashboard', element: <Navigate to="/admin" replace /> }],
          },
          // Diagnostics a support engineer opens by URL on the agency they are signed in to; not
          // in the menus, and refused to brokers like the admin portal.
          {
            lazy: () => import('./guards/require-admin.js'),
            children: [
              {
                path: 'performance-test',
                handle: {
                  title: 'Performance test',
                  subtitle: 'How fast this agency’s main calls answer',
                } satisfies RouteHandle,
                lazy: () => import('../features/diagnostics/pages/performance-test-page.js'),
              },
              {
                path: 'commission-aggregation-test',
                handle: {
                  title: 'Commission aggregation test',
                  subtitle: 'The report’s totals recomputed from its rows and the policy pages',
                } satisfies RouteHandle,
                lazy: () => import('../features/diagnostics/pages/commission-aggregation-test-page.js'),
              },
              {
                path: 'analytics-summaries-test',
                handle: {
                  title: 'Analytics summaries test',
                  subtitle: 'The analytics totals checked against their parts and the lists',
                } satisfies RouteHandle,
                lazy: () => import('../features/diagnostics/pages/analytics-summaries-test-page.js'),
              },
            ],
          },
        ],
      },
    ],
  },
];
