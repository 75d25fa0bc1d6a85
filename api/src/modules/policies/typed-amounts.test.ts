import { moneyInput, percentage, readAmount } from '@coverdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseCalendar, signedInAgency, type TestApp } from '../../../test/test-app.js';

let t: TestApp;
let day: (days: number) => string;
beforeAll(async () => {
  t = await createTestApp();
  ({ day } = await databaseCalendar(t));
});
afterAll(() => t.close());

describe('amounts as a broker types them', () => {
  it.each([
    ['1,200', '1200'],
    ['1 200', '1200'],
    ['1\u00a0200,50', '1200.50'],
    ['€1,234.50', '1234.50'],
    ['1.234,50', '1234.50'],
    ["1'250'000", '1250000'],
    ['USD 1,250.5', '1250.5'],
    ['1.250.000', '1250000'],
    ['12,5', '12.5'],
    ['1250.5', '1250.5'],
    ['0.500', '0.500'],
  ])('reads %j as %j', (typed, read) => {
    expect(readAmount(typed)).toBe(read);
  });

  it.each(['ten', '12abc', '1,2,3', '1,234,5', '1.', '1..2'])(
    'leaves %j for the field to refuse',
    (typed) => {
      expect(readAmount(typed)).toBe(typed);
    },
  );

  it('gives the usual messages for what still is not an amount', () => {
    const message = (value: string) => moneyInput.safeParse(value).error?.issues[0]?.message;
    expect(message('1,234.567')).toBe('Use at most two decimal places.');
    expect(message('-1,200')).toBe('This cannot be negative.');
    expect(message('1,2,3')).toBe('Enter an amount, like 1250.00.');
    expect(percentage.parse('12,5%')).toBe('12.50');
  });

  it('saves a policy, a payment, a lead and a claim with grouped thousands', async () => {
    const { as } = await signedInAgency(t.app);
    const motor = (await as.post('/api/policy-types/', { name: 'Motor', category: 'auto' })).json();
    const harel = await as.post('/api/companies/', {
      name: 'Harel',
      policy_types: [{ policy_type_id: motor.id, commission_percentage: '12,5 %' }],
    });
    expect(harel.statusCode, harel.body).toBe(201);
    const customer = (await as.post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' })).json();
    const policy = await as.post('/api/policies/', {
      policy_number: 'HM-1',
      customer_id: customer.id,
      company_id: harel.json().id,
      policy_type_id: motor.id,
      start_date: day(-10),
      end_date: day(354),
      total_premium: '1,200',
      net_premium: '1 000',
      commission_percentage: '12,5',
      sum_insured: '€250.000',
      deductible: '1.500,00',
    });
    expect(policy.statusCode, policy.body).toBe(201);
    expect(policy.json()).toMatchObject({
      total_premium: '1200.00',
      net_premium: '1000.00',
      commission_percentage: '12.50',
      sum_insured: '250000.00',
      deductible: '1500.00',
    });

    const schedule = (await as.get(`/api/policies/${policy.json().id}/installments/`)).json();
    const paid = await as.post(`/api/installments/${schedule.results[0].id}/payment/`, {
      amount: '1 200',
      payment_method: 'cash',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().amount_paid).toBe('1200.00');

    const lead = await as.post('/api/leads/', {
      first_name: 'Omer',
      last_name: 'Katz',
      estimated_premium: '2,500',
    });
    expect(lead.statusCode, lead.body).toBe(201);
    expect(lead.json().estimated_premium).toBe('2500.00');

    const claim = await as.post('/api/claims/', {
      policy_id: policy.json().id,
      incident_date: day(-2),
      claim_type: 'accident',
      description: 'Rear-ended at a light',
      amount_claimed: '3 400,50',
    });
    expect(claim.statusCode, claim.body).toBe(201);
    expect(claim.json().amount_claimed).toBe('3400.50');
  });
});
