import type { ModuleName, TeamAction } from '@coverdesk/contract';
import {
  type Icon,
  IconAlarm,
  IconBell,
  IconBellCog,
  IconBuildingBank,
  IconCalendar,
  IconCash,
  IconCategory,
  IconChartBar,
  IconChartPie,
  IconCreditCard,
  IconFileCertificate,
  IconFileImport,
  IconFileInvoice,
  IconHistory,
  IconLayoutDashboard,
  IconLifebuoy,
  IconReceipt,
  IconSettings,
  IconShieldCheck,
  IconTargetArrow,
  IconUserCircle,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';

/**
 * A screen of the signed-in app: a module's first page, with the pages under its path ("/customers"
 * holds "/customers/create"). The router, the header, the access gate and the menus all read it here.
 */
export interface Screen {
  path: `/${string}`;
  /** The header's title and one-line subtitle. */
  title: string;
  subtitle: string;
  /** Its name in the menus, where the spec's wording differs from the title. */
  label?: string;
  icon: Icon;
  /** The plan feature that opens it. */
  module?: ModuleName;
  /** Reachable without an active subscription or trial. */
  allowWithoutSubscription?: boolean;
  /**
   * What the screen's page does, when it changes records (a form, an import): a role that may not
   * (`TEAM_ACTIONS`) is shown a notice in its place by the access gate. A form under a screen of
   * reads names its own on its route (app-routes.tsx).
   */
  action?: TeamAction;
  /** Listed in the main navigation (the desk's sidebar, the phone's slide-out menu). */
  inSidebar?: boolean;
  /** Listed in the user menu: on every device, or on a desk only. */
  inUserMenu?: 'always' | 'desktop';
  /** Other paths the spec gives it; they lead here. */
  aliases?: readonly `/${string}`[];
  /**
   * While its module is being built: what it will do, told on its screen and on the public features
   * page. Removed when the module lands, and the compiler then asks for its pages in app-routes.tsx.
   */
  coming?: string;
}

/**
 * Every screen of the broker's app, in the spec's order for both menus: the main navigation's list,
 * and the user menu's, which meet at Companies (the one entry in both).
 */
export const SCREENS = [
  {
    path: '/dashboard',
    title: 'Dashboard',
    subtitle: 'Your agency at a glance',
    icon: IconLayoutDashboard,
    module: 'module_dashboard',
    inSidebar: true,
  },
  {
    path: '/customers',
    title: 'Customers',
    subtitle: 'The people and businesses you insure',
    icon: IconUsers,
    module: 'module_customers',
    inSidebar: true,
  },
  {
    path: '/policies',
    title: 'Policies',
    subtitle: 'What you sold, what has been paid and what it earns',
    icon: IconFileCertificate,
    module: 'module_policies',
    inSidebar: true,
  },
  {
    path: '/commission-report',
    title: 'Commission Report',
    subtitle: 'What each insurer owes you',
    icon: IconReceipt,
    module: 'module_commission_reports',
    inSidebar: true,
  },
  {
    path: '/commission-statements',
    title: 'Commission Statements',
    subtitle: "Insurers' statements, checked line by line",
    icon: IconFileInvoice,
    module: 'module_commission_reports',
    inSidebar: true,
  },
  {
    path: '/customer-analytics',
    title: 'Customer Analytics',
    subtitle: 'Who your book is made of',
    icon: IconChartBar,
    module: 'module_customer_analytics',
    inSidebar: true,
  },
  {
    path: '/current-portfolio',
    title: 'Current Portfolio',
    subtitle: 'Your book as it stands today',
    icon: IconChartPie,
    module: 'module_portfolio_analytics',
    inSidebar: true,
    aliases: ['/portfolio-analytics'],
  },
  {
    path: '/portfolio-history',
    title: 'Portfolio History',
    subtitle: 'How your book has changed',
    icon: IconHistory,
    module: 'module_portfolio_history',
    inSidebar: true,
  },
  {
    path: '/payments',
    title: 'Payments Management',
    subtitle: 'Instalments due, overdue and paid',
    icon: IconCash,
    module: 'module_payments',
    inSidebar: true,
  },
  {
    path: '/alerts',
    title: 'Expiring Policies',
    subtitle: 'Policies to renew before they lapse',
    icon: IconAlarm,
    module: 'module_alerts',
    inSidebar: true,
  },
  {
    path: '/calendar',
    title: 'Calendar',
    subtitle: 'Renewals, due dates and appointments',
    icon: IconCalendar,
    module: 'module_calendar',
    inSidebar: true,
  },
  {
    path: '/leads',
    title: 'Leads',
    subtitle: 'Prospects and where each one stands',
    icon: IconTargetArrow,
    module: 'module_leads',
    inSidebar: true,
  },
  {
    path: '/claims',
    title: 'Claims',
    subtitle: 'Claims from report to settlement',
    icon: IconShieldCheck,
    module: 'module_claims',
    inSidebar: true,
  },
  {
    path: '/profile/settings',
    title: 'Profile settings',
    subtitle: 'Your name, agency, password and sign-in',
    label: 'Profile Settings',
    icon: IconSettings,
    allowWithoutSubscription: true,
    inUserMenu: 'always',
  },
  {
    path: '/companies',
    title: 'Companies',
    subtitle: 'The insurers you work with and the commission they pay',
    icon: IconBuildingBank,
    module: 'module_companies',
    inSidebar: true,
    inUserMenu: 'always',
  },
  {
    path: '/policy-types',
    title: 'Policy types',
    subtitle: 'The products your agency sells',
    label: 'Policy Types',
    icon: IconCategory,
    inUserMenu: 'always',
  },
  {
    path: '/support',
    title: 'Support',
    subtitle: 'Help with Coverdesk',
    icon: IconLifebuoy,
    allowWithoutSubscription: true,
    inUserMenu: 'always',
  },
  {
    path: '/billing',
    title: 'Billing',
    subtitle: 'Your plan, trial and subscription',
    icon: IconCreditCard,
    allowWithoutSubscription: true,
    inUserMenu: 'always',
  },
  {
    path: '/policy-import',
    title: 'Policy Import',
    subtitle: 'Your existing book, brought in at once',
    icon: IconFileImport,
    module: 'module_policies',
    action: 'work',
    inUserMenu: 'desktop',
  },
  {
    path: '/notifications-settings',
    title: 'Notification Settings',
    subtitle: 'Which reminders you get, and how',
    icon: IconBellCog,
    module: 'module_notifications',
    inSidebar: true,
    aliases: ['/notification-settings'],
  },
  {
    path: '/team',
    title: 'Team',
    subtitle: 'Who works in your agency, and what each one may do',
    icon: IconUsersGroup,
    inSidebar: true,
  },
  {
    path: '/notifications',
    title: 'Notifications',
    subtitle: 'Your reminders of payments, renewals and meetings',
    icon: IconBell,
    module: 'module_notifications',
  },
  {
    path: '/profile',
    title: 'Profile',
    subtitle: 'Who you are in Coverdesk',
    icon: IconUserCircle,
    allowWithoutSubscription: true,
  },
] as const satisfies readonly Screen[];

/** The screens that work today, by path. */
export type BuiltPath = Exclude<(typeof SCREENS)[number], { coming: string }>['path'];

/** A plan module works once one of its screens does (policies work, their import is still coming). */
export function isModuleComing(module: ModuleName): boolean {
  return !(SCREENS as readonly Screen[]).some((screen) => screen.module === module && !screen.coming);
}

/** The entry of a screen that works today. */
export function screenAt(path: BuiltPath): Screen {
  const screen = (SCREENS as readonly Screen[]).find((candidate) => candidate.path === path);
  if (!screen) throw new Error(`no screen at ${path}`);
  return screen;
}
