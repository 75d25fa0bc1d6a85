import {
  IconBuildingStore,
  IconChartLine,
  IconCreditCard,
  IconDatabase,
  IconGauge,
  IconHeartbeat,
  IconLayoutDashboard,
  IconLifebuoy,
  IconListSearch,
  IconMail,
  IconReportMoney,
  IconSettings,
  IconShieldLock,
  IconUsers,
  IconWallet,
} from '@tabler/icons-react';
import type { Screen } from './screens.js';

/** A screen of the admin portal: its path under /admin, its header, and its group in the admin menu. */
export interface AdminScreen extends Pick<Screen, 'title' | 'subtitle' | 'icon'> {
  path: '/admin' | `/admin/${string}`;
  group: (typeof ADMIN_GROUPS)[number];
}

/** The admin menu's headings, in order. */
export const ADMIN_GROUPS = ['Platform', 'Agencies and people', 'Money', 'Operations', 'Setup'] as const;

/** Every screen of the admin portal, in menu order. The router and the admin menu both read it. */
export const ADMIN_SCREENS = [
  {
    path: '/admin',
    title: 'Admin portal',
    subtitle: 'The Coverdesk platform at a glance',
    icon: IconLayoutDashboard,
    group: 'Platform',
  },
  {
    path: '/admin/tenants',
    title: 'Agencies',
    subtitle: 'Every agency on Coverdesk, its plan and its people',
    icon: IconBuildingStore,
    group: 'Agencies and people',
  },
  {
    path: '/admin/users',
    title: 'Users',
    subtitle: 'Everyone who signs in to Coverdesk',
    icon: IconUsers,
    group: 'Agencies and people',
  },
  {
    path: '/admin/super-admin',
    title: 'Platform admins',
    subtitle: 'Who may open this portal',
    icon: IconShieldLock,
    group: 'Agencies and people',
  },
  {
    path: '/admin/support',
    title: 'Support inbox',
    subtitle: 'Tickets from agencies and messages from the contact form',
    icon: IconLifebuoy,
    group: 'Agencies and people',
  },
  {
    path: '/admin/user-activity',
    title: 'User activity',
    subtitle: 'Who did what, and when',
    icon: IconListSearch,
    group: 'Agencies and people',
  },
  {
    path: '/admin/billing',
    title: 'Billing',
    subtitle: 'Subscriptions by state, past-due agencies and billing events',
    icon: IconCreditCard,
    group: 'Money',
  },
  {
    path: '/admin/revenue-analytics',
    title: 'Revenue',
    subtitle: 'Recurring revenue by month and by plan',
    icon: IconReportMoney,
    group: 'Money',
  },
  {
    path: '/admin/analytics',
    title: 'Feature usage',
    subtitle: 'What agencies keep in Coverdesk, and who uses it',
    icon: IconChartLine,
    group: 'Money',
  },
  {
    path: '/admin/system-health',
    title: 'System health',
    subtitle: 'Database, jobs, email and the server',
    icon: IconHeartbeat,
    group: 'Operations',
  },
  {
    path: '/admin/performance',
    title: 'Performance',
    subtitle: 'How fast each route answers',
    icon: IconGauge,
    group: 'Operations',
  },
  {
    path: '/admin/cache',
    title: 'Caches',
    subtitle: 'What the server keeps in memory',
    icon: IconDatabase,
    group: 'Operations',
  },
  {
    path: '/admin/settings',
    title: 'Platform settings',
    subtitle: 'Sign-ups, the demo and trials',
    icon: IconSettings,
    group: 'Setup',
  },
  {
    path: '/admin/email-setup',
    title: 'Email setup',
    subtitle: 'The mail server Coverdesk sends through',
    icon: IconMail,
    group: 'Setup',
  },
  {
    path: '/admin/paddle-setup',
    title: 'Paddle setup',
    subtitle: 'Card payments for subscriptions',
    icon: IconWallet,
    group: 'Setup',
  },
] as const satisfies readonly AdminScreen[];

export type AdminPath = (typeof ADMIN_SCREENS)[number]['path'];
