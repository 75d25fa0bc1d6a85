import { describe, expect, it } from 'vitest';
import { setupSteps } from './setup-steps.js';

const nothing = { policyTypes: false, insurers: false, customers: false, policies: false };

describe('the setup steps of a new agency', () => {
  it('start with policy types while the agency has none', () => {
    const steps = setupSteps(nothing);
    expect(steps.map((step) => step.noun)).toEqual(['policy types', 'insurers', 'customers', 'policies']);
    expect(steps[0]?.to).toBe('/policy-types/create');
  });

  it('start with insurers once it has policy types', () => {
    expect(setupSteps({ ...nothing, policyTypes: true }).map((step) => step.noun)).toEqual([
      'insurers',
      'customers',
      'policies',
    ]);
  });
});
