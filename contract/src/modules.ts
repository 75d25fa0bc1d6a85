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
