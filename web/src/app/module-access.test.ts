import { describe, expect, it } from 'vitest';
import { canOpenModule } from './module-access.js';

const starter = {
  is_active: true,
  features: ['module_dashboard', 'module_customers', 'module_policies'] as const,
};

describe('the module gate', () => {
  it('keeps premium modules closed on a plan that excludes them', () => {
    expect(
      canOpenModule(false, { ...starter, features: [...starter.features] }, 'module_customer_analytics'),
    ).toBe(false);
    expect(canOpenModule(false, { ...starter, features: [...starter.features] }, 'module_customers')).toBe(
      true,
    );
  });

  it('closes every module without an active subscription or trial', () => {
    expect(canOpenModule(false, { is_active: false, features: [] }, 'module_dashboard')).toBe(false);
    expect(canOpenModule(false, undefined, 'module_dashboard')).toBe(false);
  });

  it('lets admins through whatever the plan', () => {
    expect(canOpenModule(true, undefined, 'module_portfolio_history')).toBe(true);
  });
});
