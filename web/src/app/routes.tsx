import type { PatchRoutesOnNavigationFunction, RouteObject } from 'react-router';
import { HomeRoute, RedirectSignedIn } from './guards/home-route.js';
import { PageLoader } from './guards/page-loader.js';
import { AuthLayout } from './layouts/auth-layout.js';
import { RootLayout } from './layouts/root-layout.js';
import { RouteError } from './route-error.js';

/** The root route, under which the signed-in screens of app-routes.tsx are added. */
const ROOT_ID = 'root';

/**
 * The route table of the public and sign-in screens. The signed-in app's routes (app-routes.tsx)
 * join the table on the first navigation into it, so the first screen a visitor loads carries
 * none of them. Every screen is its own chunk, loaded when first visited.
 */
export const routes: RouteObject[] = [
  {
    id: ROOT_ID,
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
          // Unknown paths show the home view: the home page for visitors, the app for signed-in users.
          { path: '*', element: <HomeRoute /> },
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
          { path: 'invite/:token', lazy: () => import('../features/team/pages/invite-page.js') },
        ],
      },
    ],
  },
];

let appRoutesAdded = false;

/**
 * React Router asks this for any path it cannot place precisely (the public catch-all answers
 * everything else), so the signed-in routes are added before the first navigation that needs them.
 */
export const addAppRoutes: PatchRoutesOnNavigationFunction = async ({ patch }) => {
  if (appRoutesAdded) return;
  const { appRoutes } = await import('./app-routes.js');
  if (appRoutesAdded) return;
  appRoutesAdded = true;
  patch(ROOT_ID, appRoutes);
};

/**
 * Fetches the code of the signed-in app's frame and of the dashboard while a sign-in is on its way,
 * so the dashboard opens as soon as the sign-in answers instead of downloading four chunks one
 * after another. A failure here is left to the navigation, which shows it.
 */
export function preloadDashboard(): void {
  const quietly = (load: Promise<unknown>) => void load.catch(() => undefined);
  quietly(import('./app-routes.js'));
  quietly(import('./layouts/app-layout.js'));
  quietly(import('./guards/access-gate.js'));
  quietly(import('../features/dashboard/pages/dashboard-page.js'));
}
