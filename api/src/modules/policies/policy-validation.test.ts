import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInAgency, type TestApp } from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** An agency with one customer, and Harel selling Motor. */
async function setUp() {
  const agency = await signedInAgency(t.app);
  const { as } = agency;
  const motor = (await as.post('/api/policy-types/', { name: 'Motor', category: 'auto' })).json();
  const harel = (
    await as.post('/api/companies/', {
      name: 'Harel',
      policy_types: [{ policy_type_id: motor.id, commission_percentage: '12.5' }],
    })
  ).json();
  const customer = (await as.post('/api/customers/', { first_name: 'Dana', last_name: 'Levi' })).json();
  const base = {
    policy_number: 'POL-1',
    customer_id: customer.id,
    company_id: harel.id,
    policy_type_id: motor.id,
    start_date: '2027-01-01',
    end_date: '2027-12-31',
    total_premium: '1000.00',
  };
  return { as, base, motor, harel };
}

describe('policy validation', () => {
  it('asks for each choice a broker has not made, in words', async () => {
    const { as } = await setUp();
    const empty = await as.post('/api/policies/', { customer_id: '', company_id: 'not-an-id' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({
      policy_number: ['This field is required.'],
      customer_id: ['Choose a customer.'],
      company_id: ['Choose an insurer.'],
      policy_type_id: ['Choose a policy type.'],
      start_date: ['This field is required.'],
      end_date: ['This field is required.'],
      total_premium: ['This field is required.'],
    });
  });

  it('shows the rules across fields together with every other problem on the first submit', async () => {
    const { as, base } = await setUp();
    const response = await as.post('/api/policies/', {
      ...base,
      policy_number: '',
      company_id: undefined,
      start_date: '2027-06-01',
      end_date: '2027-01-01',
      total_premium: '100.00',
      net_premium: '150.00',
      payment_frequency: 'custom',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      policy_number: ['This field may not be blank.'],
      company_id: ['Choose an insurer.'],
      end_date: ['The policy must end after it starts.'],
      net_premium: ['The net premium cannot be more than the total premium.'],
      custom_installments: ['How many instalments?'],
    });
    const negative = await as.post('/api/policies/', {
      ...base,
      policy_type_id: 'x',
      total_premium: '-100',
      end_date: '2026-01-01',
    });
    expect(negative.json()).toEqual({
      policy_type_id: ['Choose a policy type.'],
      total_premium: ['This cannot be negative.'],
      end_date: ['The policy must end after it starts.'],
    });
    const zero = await as.post('/api/policies/', { ...base, total_premium: 0 });
    expect(zero.json()).toEqual({ total_premium: ['The premium must be more than zero.'] });
  });

  it('answers broken parts of a cross-field rule with field messages, never a server error', async () => {
    const { as, base } = await setUp();
    const badEnd = await as.post('/api/policies/', {
      ...base,
      end_date: '2027-02-30',
      payment_frequency: 'custom',
      custom_installments: 2,
    });
    expect(badEnd.statusCode).toBe(400);
    expect(badEnd.json()).toEqual({ end_date: ['Enter a valid date (YYYY-MM-DD).'] });
    const wrongTypes = await as.post('/api/policies/', {
      ...base,
      start_date: 20270101,
      end_date: ['2027-12-31'],
      total_premium: { amount: 1 },
      net_premium: true,
      payment_frequency: 'custom',
      custom_installments: 'many',
    });
    expect(wrongTypes.statusCode).toBe(400);
    expect(Object.keys(wrongTypes.json()).sort()).toEqual([
      'custom_installments',
      'end_date',
      'net_premium',
      'start_date',
      'total_premium',
    ]);
    for (const body of [null, [], 42]) {
      const response = await as.post('/api/policies/', body as object);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('refuses dates outside 1900-2200 and text with a NUL character, with field messages', async () => {
    const { as, base } = await setUp();
    const yearZero = await as.post('/api/policies/', { ...base, start_date: '0000-01-01' });
    expect(yearZero.statusCode).toBe(400);
    expect(yearZero.json()).toEqual({ start_date: ['Enter a date between 1900 and 2200.'] });
    const far = await as.post('/api/policies/', { ...base, end_date: '9999-12-31' });
    expect(far.json()).toEqual({ end_date: ['Enter a date between 1900 and 2200.'] });
    const nul = await as.post('/api/policies/', { ...base, policy_number: 'POL\u00001', notes: 'a\u0000b' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toEqual({
      policy_number: ['This text contains a character that cannot be saved.'],
      notes: ['This text contains a character that cannot be saved.'],
    });
    const search = await as.get(`/api/policies/?search=${encodeURIComponent('a\u0000')}`);
    expect(search.statusCode).toBe(400);
    expect(search.json()).toEqual({ search: ['This text contains a character that cannot be saved.'] });
    const customers = await as.get(`/api/customers/?search=%00&tag=%00`);
    expect(customers.statusCode).toBe(400);
  });

  it("finds the agency's other policies with a number, under any insurer, to warn before saving", async () => {
    const { as, base, motor } = await setUp();
    const migdal = (
      await as.post('/api/companies/', {
        name: 'Migdal',
        policy_types: [{ policy_type_id: motor.id, commission_percentage: '10' }],
      })
    ).json();
    const first = (await as.post('/api/policies/', { ...base, policy_number: 'HR-100' })).json();
    const numbered = async (query: string) => {
      const response = await as.get(`/api/policies/numbered/?${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().results;
    };
    expect(await numbered('policy_number=hr-100')).toEqual([
      {
        id: first.id,
        policy_number: 'HR-100',
        customer_name: 'Dana Levi',
        company_name: 'Harel',
        start_date: '2027-01-01',
        end_date: '2027-12-31',
      },
    ]);
    // The policy being edited is not its own duplicate.
    expect(await numbered(`policy_number=HR-100&exclude_id=${first.id}`)).toEqual([]);
    expect(await numbered('policy_number=HR-10')).toEqual([]);
    expect(await numbered('policy_number=')).toEqual([]);
    // Another insurer may use the same number: saving is allowed, and both are then found.
    const second = await as.post('/api/policies/', {
      ...base,
      company_id: migdal.id,
      policy_number: 'HR-100',
    });
    expect(second.statusCode).toBe(201);
    expect(
      (await numbered(`policy_number=HR-100&exclude_id=${second.json().id}`)).map(
        (p: { id: string }) => p.id,
      ),
    ).toEqual([first.id]);

    const other = await signedInAgency(t.app);
    expect((await other.as.get('/api/policies/numbered/?policy_number=HR-100')).json()).toEqual({
      results: [],
    });
  });
});
