import { describe, expect, it } from 'vitest';
import { policyPrefill } from './prefill.js';

const customer = '01a211e9-d1fb-75da-802d-c3292113aa0f';
const type = '01a211e9-d1c0-709d-af57-905c3f971486';

describe('policyPrefill', () => {
  it('takes the customer, type of cover and premium a converted lead brings to a new policy', () => {
    const params = new URLSearchParams({
      customer_id: customer,
      policy_type_id: type,
      total_premium: '1250.5',
    });
    expect(policyPrefill(params)).toEqual({
      customer_id: customer,
      policy_type_id: type,
      total_premium: '1250.50',
    });
  });

  it('leaves out what is missing, and ignores what is not an id or an amount', () => {
    expect(policyPrefill(new URLSearchParams({ customer_id: customer }))).toEqual({
      customer_id: customer,
      policy_type_id: '',
      total_premium: '',
    });
    const tampered = new URLSearchParams({ customer_id: 'x', policy_type_id: '1', total_premium: '-5' });
    expect(policyPrefill(tampered)).toEqual({ customer_id: '', policy_type_id: '', total_premium: '' });
    expect(policyPrefill(new URLSearchParams({ total_premium: '12.3456' })).total_premium).toBe('');
  });
});
