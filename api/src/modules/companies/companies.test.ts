import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPolicyParties, insertPolicy } from '../../../test/insert-policy.js';
import {
  addPlanWithout,
  createTestApp,
  setSubscription,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { policies } from '../policies/tables.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const agency = () => signedInAgency(t.app);

type Caller = Awaited<ReturnType<typeof agency>>['as'];

async function addPolicyType(as: Caller, name: string, category = 'auto'): Promise<string> {
  const response = await as.post('/api/policy-types/', { name, category });
  expect(response.statusCode).toBe(201);
  return response.json().id;
}

async function addCompany(as: Caller, body: Record<string, unknown>) {
  const response = await as.post('/api/companies/', body);
  expect(response.statusCode).toBe(201);
  return response.json();
}

const names = (page: { results: { name: string }[] }) => page.results.map((company) => company.name);
const missing = '01900000-0000-7000-8000-000000000000';

describe('companies', () => {
  it('adds an insurer with its rates and reads it back', async () => {
    const { as } = await agency();
    const motor = await addPolicyType(as, 'Motor');
    const home = await addPolicyType(as, 'Home contents', 'home');

    const created = await as.post('/api/companies/', {
      name: 'Harel',
      contact_person: 'Dana Levi',
      email: 'Dana@Harel.example',
      website: 'https://harel.example',
      commission_payment_method: 'pro_rata',
      policy_types: [
        { policy_type_id: motor, custom_name: 'Harel Drive', commission_percentage: 12.5 },
        { policy_type_id: home, commission_percentage: '7' },
      ],
    });
    expect(created.statusCode).toBe(201);
    const company = created.json();
    expect(company).toMatchObject({
      id: expect.any(String),
      name: 'Harel',
      contact_person: 'Dana Levi',
      email: 'dana@harel.example',
      phone: '',
      commission_type: 'percentage',
      commission_payment_method: 'pro_rata',
      policy_types: [
        { policy_type_id: home, name: 'Home contents', custom_name: '', commission_percentage: '7.00' },
        { policy_type_id: motor, name: 'Motor', custom_name: 'Harel Drive', commission_percentage: '12.50' },
      ],
    });

    const read = await as.get(`/api/companies/${company.id}/?_t=1718000000000`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(company);
  });

  it('lists a page at a time with search, filters and sort on the server', async () => {
    const { as } = await agency();
    const life = await addPolicyType(as, 'Term life', 'life');
    await addCompany(as, { name: 'Migdal', contact_person: 'Avi Cohen' });
    await addCompany(as, {
      name: 'clal',
      email: 'office@clal.example',
      commission_payment_method: 'pro_rata',
    });
    await addCompany(as, {
      name: 'Phoenix',
      policy_types: [{ policy_type_id: life, commission_percentage: 20 }],
    });
    await addCompany(as, { name: 'Harel', contact_person: 'Ruth Cohen' });
    const list = async (query: string) => {
      const response = await as.get(`/api/companies/?${query}`);
      expect(response.statusCode).toBe(200);
      return response.json();
    };

    expect(names(await list(''))).toEqual(['clal', 'Harel', 'Migdal', 'Phoenix']);
    expect(names(await list('ordering=-name'))).toEqual(['Phoenix', 'Migdal', 'Harel', 'clal']);
    expect(names(await list('ordering=-created_at'))).toEqual(['Harel', 'Phoenix', 'clal', 'Migdal']);
    expect(names(await list('search=COHEN'))).toEqual(['Harel', 'Migdal']);
    expect(names(await list('search=clal.example'))).toEqual(['clal']);
    expect(names(await list('commission_payment_method=pro_rata'))).toEqual(['clal']);
    const sellers = await list(`policy_type_id=${life}`);
    expect(names(sellers)).toEqual(['Phoenix']);
    expect(sellers.results[0].policy_types).toEqual([
      expect.objectContaining({ policy_type_id: life, name: 'Term life', commission_percentage: '20.00' }),
    ]);

    // The web client busts caches with `_t`; it is not a filter.
    const first = await list('page_size=3&_t=1718000000000');
    expect(first).toMatchObject({
      count: 4,
      previous: null,
      next: '/api/companies/?page_size=3&_t=1718000000000&page=2',
    });
    expect(names(first)).toEqual(['clal', 'Harel', 'Migdal']);
    const second = (await as.get(first.next)).json();
    expect(names(second)).toEqual(['Phoenix']);
    expect(second).toMatchObject({
      next: null,
      previous: '/api/companies/?page_size=3&_t=1718000000000&page=1',
    });
  });

  it('replaces an insurer and exactly the rates it pays', async () => {
    const { as } = await agency();
    const motor = await addPolicyType(as, 'Motor');
    const home = await addPolicyType(as, 'Home contents', 'home');
    const travel = await addPolicyType(as, 'Travel', 'travel');
    const company = await addCompany(as, {
      name: 'Menora',
      phone: '03-555-0100',
      policy_types: [
        { policy_type_id: motor, commission_percentage: 10 },
        { policy_type_id: home, commission_percentage: 8 },
      ],
    });

    const changed = await as.put(`/api/companies/${company.id}/`, {
      name: 'Menora Mivtachim',
      commission_payment_method: 'pro_rata',
      policy_types: [
        { policy_type_id: motor, custom_name: 'Menora Car', commission_percentage: '11.25' },
        { policy_type_id: travel, commission_percentage: 15 },
      ],
    });
    expect(changed.statusCode).toBe(200);
    const body = changed.json();
    expect(body).toMatchObject({
      id: company.id,
      name: 'Menora Mivtachim',
      phone: '',
      commission_payment_method: 'pro_rata',
    });
    expect(
      body.policy_types.map((rate: { name: string; custom_name: string; commission_percentage: string }) => [
        rate.name,
        rate.custom_name,
        rate.commission_percentage,
      ]),
    ).toEqual([
      ['Motor', 'Menora Car', '11.25'],
      ['Travel', '', '15.00'],
    ]);
    expect((await as.get(`/api/companies/${company.id}/`)).json()).toEqual(body);
    expect((await as.get(`/api/policy-types/${home}/`)).json().companies_count).toBe(0);
  });

  it('deletes an insurer along with its rates', async () => {
    const { as } = await agency();
    const motor = await addPolicyType(as, 'Motor');
    const company = await addCompany(as, {
      name: 'Ayalon',
      policy_types: [{ policy_type_id: motor, commission_percentage: 9 }],
    });

    const deleted = await as.delete(`/api/companies/${company.id}/`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await as.get(`/api/companies/${company.id}/`)).statusCode).toBe(404);
    expect((await as.delete(`/api/companies/${company.id}/`)).statusCode).toBe(404);
    expect((await as.get(`/api/policy-types/${motor}/`)).json().companies_count).toBe(0);
  });

  it('shows zero figures and no policies for a new insurer', async () => {
    const { as } = await agency();
    const company = await addCompany(as, { name: 'Shirbit' });

    const stats = await as.get(`/api/companies/${company.id}/stats/`);
    expect(stats.statusCode).toBe(200);
    expect(stats.json()).toEqual({
      company_id: company.id,
      policy_count: 0,
      active_policy_count: 0,
      active_premium: '0.00',
      expected_commission: '0.00',
      received_commission: '0.00',
    });
    const policies = await as.get(`/api/companies/${company.id}/policies/`);
    expect(policies.statusCode).toBe(200);
    expect(policies.json()).toEqual({ count: 0, next: null, previous: null, results: [] });

    expect((await as.get(`/api/companies/${missing}/stats/`)).statusCode).toBe(404);
    expect((await as.get(`/api/companies/${missing}/policies/`)).statusCode).toBe(404);
  });

  it('refuses bad input with a message for each field', async () => {
    const { as } = await agency();
    const motor = await addPolicyType(as, 'Motor');

    const invalid = await as.post('/api/companies/', {
      email: 'not-an-address',
      phone: '1-800-INSURE',
      policy_types: [
        { policy_type_id: motor, commission_percentage: '100.5' },
        { policy_type_id: '', commission_percentage: '-3' },
      ],
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({
      name: ['This field is required.'],
      email: ['Enter a valid email address.'],
      phone: ['Use digits, spaces, +, - and parentheses, and "ext." before an extension.'],
      'policy_types.0.commission_percentage': ['A percentage cannot be more than 100.'],
      'policy_types.1.policy_type_id': ['Choose a policy type.'],
      'policy_types.1.commission_percentage': ['This cannot be negative.'],
    });

    const twice = await as.post('/api/companies/', {
      name: 'Harel',
      policy_types: [
        { policy_type_id: motor, commission_percentage: 10 },
        { policy_type_id: motor, commission_percentage: 12 },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toEqual({ policy_types: ['Each policy type can be listed only once.'] });

    const unknown = await as.post('/api/companies/', {
      name: 'Harel',
      policy_types: [
        { policy_type_id: motor, commission_percentage: 10 },
        { policy_type_id: missing, commission_percentage: 12 },
      ],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ 'policy_types.1.policy_type_id': ['No policy type with this id.'] });
    expect((await as.get('/api/companies/')).json().count).toBe(0);
  });

  it('refuses a second insurer with the same name, whatever its case', async () => {
    const { as } = await agency();
    const first = await addCompany(as, { name: 'Harel' });
    const again = await as.post('/api/companies/', { name: 'HAREL' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ name: ['An insurer with this name already exists.'] });

    const other = await addCompany(as, { name: 'Clal' });
    const renamed = await as.put(`/api/companies/${other.id}/`, { name: 'harel' });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json()).toEqual({ name: ['An insurer with this name already exists.'] });
    expect((await as.get(`/api/companies/${first.id}/`)).json().name).toBe('Harel');
  });

  it("answers 404 for another agency's insurer and never sells another agency's type", async () => {
    const owner = await agency();
    const other = await agency();
    const theirType = await addPolicyType(owner.as, 'Motor');
    const company = await addCompany(owner.as, {
      name: 'Harel',
      policy_types: [{ policy_type_id: theirType, commission_percentage: 10 }],
    });
    const url = `/api/companies/${company.id}/`;

    expect((await other.as.get(url)).statusCode).toBe(404);
    expect((await other.as.put(url, { name: 'Taken over' })).statusCode).toBe(404);
    expect((await other.as.delete(url)).statusCode).toBe(404);
    expect((await other.as.get(`${url}policies/`)).statusCode).toBe(404);
    expect((await other.as.get(`${url}stats/`)).statusCode).toBe(404);
    expect((await other.as.get('/api/companies/')).json().count).toBe(0);

    const borrowing = await other.as.post('/api/companies/', {
      name: 'Harel',
      policy_types: [{ policy_type_id: theirType, commission_percentage: 10 }],
    });
    expect(borrowing.statusCode).toBe(400);
    expect(borrowing.json()).toEqual({ 'policy_types.0.policy_type_id': ['No policy type with this id.'] });
    expect((await owner.as.get(url)).json()).toEqual(company);
  });

  it('needs a signed-in user whose plan includes Companies', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/companies/' })).statusCode).toBe(401);

    const lapsed = await agency();
    await setSubscription(t, lapsed.user.tenant_id, { status: 'expired' });
    const expired = await lapsed.as.get('/api/companies/');
    expect(expired.statusCode).toBe(402);
    expect(expired.json().detail).toMatch(/Billing page/);

    const limited = await agency();
    await setSubscription(t, limited.user.tenant_id, {
      plan: await addPlanWithout(t, 'module_companies'),
      status: 'active',
    });
    const refused = await limited.as.post('/api/companies/', { name: 'Harel' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toMatch(/Test plan does not include Companies/);
    expect((await limited.as.get('/api/policy-types/')).statusCode).toBe(200);
  });
});

describe('deleting an insurer with policies', () => {
  it('refuses while policies point at the insurer, and names how many', async () => {
    const { as, user } = await agency();
    const parties = await addPolicyParties(as, { company: 'Harel' });
    await insertPolicy(t, user.tenant_id, parties);
    const url = `/api/companies/${parties.companyId}/`;

    const refused = await as.delete(url);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: 'Harel has 1 policy. Delete or move it first.' });
    expect((await as.get(url)).statusCode).toBe(200);

    await withTenant(t.database.db, user.tenant_id, (tx) =>
      tx.delete(policies).where(eq(policies.companyId, parties.companyId)),
    );
    expect((await as.delete(url)).statusCode).toBe(204);
  });
});
