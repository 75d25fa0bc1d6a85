import { Navigate, type RouteObject } from 'react-router';
import { RequireAuth } from './guards/require-auth.js';
import type { RouteHandle } from './route-handle.js';

const handle = (value: RouteHandle) => value;

/**
 * The signed-in app's screens, added under the root route on first use (see routes.tsx). A module
 * screen names its plan feature in `handle.module`; the sidebar shows it once its route is here.
 */
export const appRoutes: RouteObject[] = [
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
                path: 'customers',
                handle: handle({
                  title: 'Customers',
                  subtitle: 'The people and businesses you insure',
                  module: 'module_customers',
                }),
                children: [
                  { index: true, lazy: () => import('../features/customers/pages/customers-page.js') },
                  {
                    path: 'create',
                    lazy: () => import('../features/customers/pages/customer-form-page.js'),
                  },
                  {
                    path: ':id',
                    lazy: () => import('../features/customers/pages/customer-detail-page.js'),
                  },
                  {
                    path: ':id/edit',
                    lazy: () => import('../features/customers/pages/customer-form-page.js'),
                  },
                ],
              },
              {
                path: 'policies',
                handle: handle({
                  title: 'Policies',
                  subtitle: 'What you sold, what has been paid and what it earns',
                  module: 'module_policies',
                }),
                children: [
                  { index: true, lazy: () => import('../features/policies/pages/policies-page.js') },
                  { path: 'create', lazy: () => import('../features/policies/pages/policy-form-page.js') },
                  { path: ':id', lazy: () => import('../features/policies/pages/policy-detail-page.js') },
                  { path: ':id/edit', lazy: () => import('../features/policies/pages/policy-form-page.js') },
                  {
                    path: ':id/renew',
                    lazy: () => import('../features/policies/pages/policy-renew-page.js'),
                  },
                ],
              },
              {
                path: 'payments',
                handle: handle({
                  title: 'Payments Management',
                  subtitle: 'Instalments due, overdue and paid',
                  module: 'module_payments',
                }),
                children: [
                  { index: true, lazy: () => import('../features/payments/pages/payments-page.js') },
                  { path: 'policy/:id', lazy: () => import('../features/payments/pages/payments-page.js') },
                ],
              },
              {
                path: 'companies',
                handle: handle({
                  title: 'Companies',
                  subtitle: 'The insurers you work with and the commission they pay',
                  module: 'module_companies',
                }),
                children: [
                  { index: true, lazy: () => import('../features/companies/pages/companies-page.js') },
                  {
                    path: 'create',
                    lazy: () => import('../features/companies/pages/company-form-page.js'),
                  },
                  {
                    path: ':id/edit',
                    lazy: () => import('../features/companies/pages/company-form-page.js'),
                  },
                ],
              },
              {
                path: 'policy-types',
                handle: handle({
                  title: 'Policy types',
                  subtitle: 'The products your agency sells',
                }),
                children: [
                  {
                    index: true,
                    lazy: () => import('../features/policy-types/pages/policy-types-page.js'),
                  },
                  {
                    path: 'create',
                    lazy: () => import('../features/policy-types/pages/policy-type-form-page.js'),
                  },
                  {
                    path: ':id/edit',
                    lazy: () => import('../features/policy-types/pages/policy-type-form-page.js'),
                  },
                ],
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
];
