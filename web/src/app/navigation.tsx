import type { ModuleName } from '@coverdesk/contract';
import {
  IconAlarm,
  IconBell,
  IconBuildingBank,
  IconCalendar,
  IconCash,
  IconChartBar,
  IconChartPie,
  IconFileCertificate,
  IconHistory,
  IconLayoutDashboard,
  IconReceipt,
  IconShieldCheck,
  IconTargetArrow,
  IconUsers,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { appRoutes } from './app-routes.js';
import { collectPaths } from './routes.js';

export interface NavItem {
  path: string;
  label: string;
  module?: ModuleName;
  icon: ComponentType<{ size?: number; stroke?: number }>;
}

/** The main navigation, in the spec's order; an entry appears once its screen is in the route table. */
const MAIN_NAVIGATION: NavItem[] = [
  { path: '/dashboard', label: 'Dashboard', module: 'module_dashboard', icon: IconLayoutDashboard },
  { path: '/customers', label: 'Customers', module: 'module_customers', icon: IconUsers },
  { path: '/policies', label: 'Policies', module: 'module_policies', icon: IconFileCertificate },
  {
    path: '/commission-report',
    label: 'Commission Report',
    module: 'module_commission_reports',
    icon: IconReceipt,
  },
  {
    path: '/customer-analytics',
    label: 'Customer Analytics',
    module: 'module_customer_analytics',
    icon: IconChartBar,
  },
  {
    path: '/current-portfolio',
    label: 'Current Portfolio',
    module: 'module_portfolio_analytics',
    icon: IconChartPie,
  },
  {
    path: '/portfolio-history',
    label: 'Portfolio History',
    module: 'module_portfolio_history',
    icon: IconHistory,
  },
  { path: '/payments', label: 'Payments Management', module: 'module_payments', icon: IconCash },
  { path: '/alerts', label: 'Expiring Policies', module: 'module_alerts', icon: IconAlarm },
  { path: '/calendar', label: 'Calendar', module: 'module_calendar', icon: IconCalendar },
  { path: '/leads', label: 'Leads', module: 'module_leads', icon: IconTargetArrow },
  { path: '/claims', label: 'Claims', module: 'module_claims', icon: IconShieldCheck },
  { path: '/companies', label: 'Companies', module: 'module_companies', icon: IconBuildingBank },
  {
    path: '/notifications-settings',
    label: 'Notification Settings',
    module: 'module_notifications',
    icon: IconBell,
  },
];

export interface MenuEntry {
  path: string;
  label: string;
  module?: ModuleName;
}

/** The user menu (desktop dropdown and mobile profile menu), before "Sign out". */
const USER_MENU: MenuEntry[] = [
  { path: '/profile/settings', label: 'Profile Settings' },
  { path: '/companies', label: 'Companies', module: 'module_companies' },
  { path: '/policy-types', label: 'Policy Types' },
  { path: '/support', label: 'Support' },
  { path: '/billing', label: 'Billing' },
  { path: '/policy-import', label: 'Policy Import' },
];

const existingPaths = collectPaths(appRoutes);
const hasScreen = (path: string) => existingPaths.has(path);

/** What a user may open: admins everything, others what their plan includes. */
export type ModuleAccess = (module: ModuleName | undefined) => boolean;

export function mainNavigation(canOpen: ModuleAccess): NavItem[] {
  return MAIN_NAVIGATION.filter((item) => hasScreen(item.path) && canOpen(item.module));
}

export function userMenu(canOpen: ModuleAccess, device: 'desktop' | 'mobile'): MenuEntry[] {
  // The mobile profile menu has no Policy Import entry.
  const entries =
    device === 'mobile' ? USER_MENU.filter((entry) => entry.path !== '/policy-import') : USER_MENU;
  return entries.filter((entry) => hasScreen(entry.path) && canOpen(entry.module));
}
