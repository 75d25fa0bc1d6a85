import { Navigate, type RouteObject } from 'react-router';
import { HomeRoute, RedirectSignedIn } from './guards/home-route.js';
import { PageLoader } from './guards/page-loader.js';
import { RequireAuth } from './guards/require-auth.js';
import { AuthLayout } from './layouts/auth-layout.js';
import { RootLayout } from './layouts/root-layout.js';
import { RouteError } from './route-error.js';
import type { RouteHandle } from './route-handle.js';

const handle = (value: RouteHandle) => value;

/**
 * The one route table. Every screen is its own chunk, loaded when first visited. A module screen
 * names its plan feature in `handle.module`; the sidebar shows it once its route is here.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageLoader />,
    children: [
      { path: 'app', element: <RedirectSignedIn /> },
      {
        lazy: () => import('./layouts/public-layout.js'),
        children: [
          { index: true, element: <HomeRoute /> },
          { path: 'features', lazy: () => import('../features/public/pages/features-page.js') },
          { path: 'pricing', lazy: () => import('../features/public/pages/pricing-page.js') },
          { path: 'about', lazy: () => import('../features/public/pages/about-page.js') },
          { path: 'terms', lazy: () => import('../features/public/pages/terms-page.js') },
          { path: 'contact', lazy: () => import('../features/public/pages/contact-page.js') },
          { path: 'checkout', lazy: () => import('../features/public/pages/checkout-page.js') },
          { path: '*', lazy: () => import('../features/public/pages/home-page.js') },
        ],
      },
      {
        element: <AuthLayout />,
        children: [
          { path: 'login', lazy: () => import('../features/auth/pages/login-page.js') },
          { path: 'register', lazy: () => import('../features/auth/pages/register-page.js') },
          { path: 'forgot-password', lazy: () => import('../features/auth/pages/forgot-password-page.js') },
          {
            path: 'reset-password/:token',
            lazy: () => import('../features/auth/pages/reset-password-page.js'),
          },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            lazy: () => import('./layouts/app-layout.js'),
            children: [
              {
                lazy: () => import('./guards/access-gate.js'),
                children: [
                  {
                    path: 'dashboard',
                    handle: handle({
                      title: 'Dashboard',
                      subtitle: 'Your agency at a glance',
                      module: 'module_dashboard',
                    }),
                    lazy: () => import('../features/dashboard/pages/dashboard-page.js'),
                  },
                  {
                    path: 'billing',
                    handle: handle({
                      title: 'Billing',
                      subtitle: 'Your plan, trial and subscription',
                      allowWithoutSubscription: true,
                    }),
                    lazy: () => import('../features/billing/pages/billing-page.js'),
                  },
                  {
                    path: 'profile',
                    handle: handle({
                      title: 'Profile',
                      subtitle: 'Who you are in Coverdesk',
                      allowWithoutSubscription: true,
                    }),
                    lazy: () => import('../features/profile/pages/profile-page.js'),
                  },
                  {
                    path: 'profile/settings',
                    handle: handle({
                      title: 'Profile settings',
                      subtitle: 'Your name, agency and password',
                      allowWithoutSubscription: true,
                    }),
                    lazy: () => import('../features/profile/pages/profile-settings-page.js'),
                  },
                ],
              },
              {
                path: 'admin',
                lazy: () => import('./guards/require-admin.js'),
                children: [
                  {
                    index: true,
                    handle: handle({ title: 'Admin portal', subtitle: 'The Coverdesk platform' }),
                    lazy: () => import('../features/admin/pages/admin-dashboard-page.js'),
                  },
                  { path: 'dashboard', element: <Navigate to="/admin" replace /> },
                ],
              },
            ],
          },
        ],
      },
    ],
  },
];

/** Paths that exist as screens, for showing navigation entries only when their screen is here. */
export function collectPaths(table: RouteObject[], prefix = ''): Set<string> {
  const paths = new Set<string>();
  for (const route of table) {
    const path = route.path ? `${prefix}/${route.path}`.replace(/\/+/g, '/') : prefix;
    if (route.path && route.path !== '*') paths.add(path);
    if (route.children) for (const child of collectPaths(route.children, path)) paths.add(child);
  }
  return paths;
}
