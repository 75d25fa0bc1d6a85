/** Every module a plan can include or exclude; the names are the spec's feature flags. */
export const MODULES = [
  'module_dashboard',
  'module_customers',
  'module_policies',
  'module_commission_reports',
  'module_customer_analytics',
  'module_portfolio_analytics',
  'module_portfolio_history',
  'module_payments',
  'module_alerts',
  'module_calendar',
  'module_leads',
  'module_claims',
  'module_companies',
  'module_notifications',
] as const;

export type ModuleName = (typeof MODULES)[number];

/** The analytics modules sold only on the higher plans. */
export const PREMIUM_MODULES = [
  'module_customer_analytics',
  'module_portfolio_analytics',
  'module_portfolio_history',
] as const satisfies readonly ModuleName[];

/** How each module is named on screen and in messages. */
export const MODULE_LABELS: Record<ModuleName, string> = {
  module_dashboard: 'Dashboard',
  module_customers: 'Customers',
  module_policies: 'Policies',
  module_commission_reports: 'Commission Reports',
  module_customer_analytics: 'Customer Analytics',
  module_portfolio_analytics: 'Current Portfolio',
  module_portfolio_history: 'Portfolio History',
  module_payments: 'Payments',
  module_alerts: 'Expiring Policies',
  module_calendar: 'Calendar',
  module_leads: 'Leads',
  module_claims: 'Claims',
  module_companies: 'Companies',
  module_notifications: 'Notifications',
};
