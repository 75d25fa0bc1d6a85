import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPolicyParties, insertPolicy } from '../../../test/insert-policy.js';
import {
  addPlanWithout,
  createTestApp,
  setSubscription,
  signedInAgency,
  type TestApp,
} from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const agency = () => signedInAgency(t.app);

const motor = { name: 'Motor', category: 'auto', description: 'Private cars and vans' };

describe('policy types', () => {
  it('adds a type to the catalogue and reads it back', async () => {
    const { as } = await agency();
    const created = await as.post('/api/policy-types/', motor);
    expect(created.statusCode).toBe(201);
    const type = created.json();
    expect(type).toMatchObject({ ...motor, is_active: true, companies_count: 0 });

    const read = await as.get(`/api/policy-types/${type.id}/`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(type);
  });

  it('lists a page at a time with search, filters and sort on the server', async () => {
    const { as } = await agency();
    for (const [name, category] of [
      ['Home contents', 'home'],
      ['Term life', 'life'],
      ['Motor', 'auto'],
      ['Fleet motor', 'auto'],
    ]) {
      expect((await as.post('/api/policy-types/', { name, category })).statusCode).toBe(201);
    }
    const names = async (query: string) =>
      (await as.get(`/api/policy-types/?${query}`)).json().results.map((type: { name: string }) => type.name);

    expect(await names('')).toEqual(['Fleet motor', 'Home contents', 'Motor', 'Term life']);
    expect(await names('ordering=-name')).toEqual(['Term life', 'Motor', 'Home contents', 'Fleet motor']);
    expect(await names('search=MOTOR')).toEqual(['Fleet motor', 'Motor']);
    expect(await names('category=life')).toEqual(['Term life']);

    const first = (await as.get('/api/policy-types/?page_size=3&search=m')).json();
    expect(first).toMatchObject({
      count: 4,
      previous: null,
      next: '/api/policy-types/?page_size=3&search=m&page=2',
    });
    const second = (await as.get(first.next)).json();
    expect(second.results.map((type: { name: string }) => type.name)).toEqual(['Term life']);
    expect(second.next).toBeNull();
  });

  it('changes a type, and can deactivate it', async () => {
    const { as } = await agency();
    const { id } = (await as.post('/api/policy-types/', motor)).json();
    const changed = await as.put(`/api/policy-types/${id}/`, {
      ...motor,
      name: 'Private motor',
      is_active: false,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Private motor', is_active: false });
    expect((await as.get('/api/policy-types/?is_active=true')).json().count).toBe(0);
    expect((await as.get('/api/policy-types/?is_active=false')).json().count).toBe(1);
  });

  it('refuses bad input with a message for each field', async () => {
    const { as } = await agency();
    const response = await as.post('/api/policy-types/', { name: '  ', category: 'boats' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      name: ['This field may not be blank.'],
      category: ['Choose a category.'],
    });
    expect((await as.post('/api/policy-types/', [])).statusCode).toBe(400);
  });

  it('refuses a second type with the same name, whatever its case', async () => {
    const { as } = await agency();
    await as.post('/api/policy-types/', motor);
    const again = await as.post('/api/policy-types/', { ...motor, name: 'MOTOR' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ name: ['A policy type with this name already exists.'] });
  });

  it('deletes an unused type, and explains why a type an insurer sells cannot go', async () => {
    const { as } = await agency();
    const unused = (await as.post('/api/policy-types/', { name: 'Travel', category: 'travel' })).json();
    expect((await as.delete(`/api/policy-types/${unused.id}/`)).statusCode).toBe(204);
    expect((await as.get(`/api/policy-types/${unused.id}/`)).statusCode).toBe(404);

    const sold = (await as.post('/api/policy-types/', motor)).json();
    const company = (await as.post('/api/companies/', { name: 'Harel' })).json();
    const link = await as.post('/api/policy-types/', { company_id: company.id, policy_type_id: sold.id });
    expect(link.statusCode).toBe(201);

    const refused = await as.delete(`/api/policy-types/${sold.id}/`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      companies: [{ id: company.id, name: 'Harel' }],
      detail: expect.stringContaining('Deactivate it instead'),
    });
    expect((await as.get(`/api/policy-types/${sold.id}/`)).json().companies_count).toBe(1);
  });

  it('counts the policies of a type, which keep it from being deleted', async () => {
    const { as, user } = await agency();
    const parties = await addPolicyParties(as);
    await insertPolicy(t, user.tenant_id, parties);
    await insertPolicy(t, user.tenant_id, parties);

    const refused = await as.delete(`/api/policy-types/${parties.policyTypeId}/`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      companies: [],
      policies_count: 2,
      detail: expect.stringContaining('cannot be deleted: 2 policies use it'),
    });
  });

  it('lets an insurer sell a type under its own name and rate, and lists what it sells', async () => {
    const { as } = await agency();
    const type = (await as.post('/api/policy-types/', motor)).json();
    const company = (await as.post('/api/companies/', { name: 'Clal' })).json();

    const linked = await as.post('/api/policy-types/', {
      company_id: company.id,
      policy_type_id: type.id,
      custom_name: 'Clal Drive',
      commission_percentage: 12.5,
    });
    expect(linked.statusCode).toBe(201);
    expect(linked.json()).toMatchObject({
      company_id: company.id,
      policy_type_id: type.id,
      name: 'Motor',
      custom_name: 'Clal Drive',
      commission_percentage: '12.50',
    });

    // Linking again changes what the call names, keeps the rest, and adds no second row.
    await as.post('/api/policy-types/', { company_id: company.id, policy_type_id: type.id, custom_name: '' });
    const sold = await as.get(`/api/policy-types/by_company/?company_id=${company.id}`);
    expect(sold.statusCode).toBe(200);
    expect(sold.json().results).toEqual([
      expect.objectContaining({ policy_type_id: type.id, custom_name: '', commission_percentage: '12.50' }),
    ]);
    await as.post('/api/policy-types/', {
      company_id: company.id,
      policy_type_id: type.id,
      commission_percentage: '7',
    });
    expect((await as.get(`/api/policy-types/by_company/?company_id=${company.id}`)).json().results).toEqual([
      expect.objectContaining({ custom_name: '', commission_percentage: '7.00' }),
    ]);
  });

  it('checks both ends of a link', async () => {
    const { as } = await agency();
    const type = (await as.post('/api/policy-types/', motor)).json();
    const company = (await as.post('/api/companies/', { name: 'Migdal' })).json();
    const missing = '01900000-0000-7000-8000-000000000000';

    const noCompany = await as.post('/api/policy-types/', { company_id: missing, policy_type_id: type.id });
    expect(noCompany.statusCode).toBe(400);
    expect(noCompany.json()).toEqual({ company_id: ['No insurer with this id.'] });
    const noType = await as.post('/api/policy-types/', { company_id: company.id, policy_type_id: missing });
    expect(noType.json()).toEqual({ policy_type_id: ['No policy type with this id.'] });
    const badRate = await as.post('/api/policy-types/', {
      company_id: company.id,
      policy_type_id: type.id,
      commission_percentage: '100.01',
    });
    expect(badRate.json()).toEqual({ commission_percentage: ['A percentage cannot be more than 100.'] });
    expect((await as.get(`/api/policy-types/by_company/?company_id=${missing}`)).statusCode).toBe(404);
  });

  it("answers 404 for another agency's type, and never lets it be changed, deleted or linked", async () => {
    const owner = await agency();
    const other = await agency();
    const type = (await owner.as.post('/api/policy-types/', motor)).json();
    const theirCompany = (await other.as.post('/api/companies/', { name: 'Phoenix' })).json();

    expect((await other.as.get(`/api/policy-types/${type.id}/`)).statusCode).toBe(404);
    expect(
      (await other.as.put(`/api/policy-types/${type.id}/`, { ...motor, name: 'Taken' })).statusCode,
    ).toBe(404);
    expect((await other.as.delete(`/api/policy-types/${type.id}/`)).statusCode).toBe(404);
    const link = await other.as.post('/api/policy-types/', {
      company_id: theirCompany.id,
      policy_type_id: type.id,
    });
    expect(link.statusCode).toBe(400);
    expect((await other.as.get('/api/policy-types/')).json().count).toBe(0);
    expect((await owner.as.get(`/api/policy-types/${type.id}/`)).json().name).toBe('Motor');
  });

  it('keeps what insurers sell to plans with the companies module', async () => {
    const { as, user } = await agency();
    const type = (await as.post('/api/policy-types/', motor)).json();
    const company = (await as.post('/api/companies/', { name: 'Ayalon' })).json();
    await setSubscription(t, user.tenant_id, { plan: await addPlanWithout(t, 'module_companies') });
    expect((await as.get('/api/policy-types/')).statusCode).toBe(200);
    expect((await as.get(`/api/policy-types/by_company/?company_id=${company.id}`)).statusCode).toBe(403);
    const link = await as.post('/api/policy-types/', { company_id: company.id, policy_type_id: type.id });
    expect(link.statusCode).toBe(403);
  });

  it('needs a signed-in user with an active plan', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/policy-types/' })).statusCode).toBe(401);
    const lapsed = await agency();
    await setSubscription(t, lapsed.user.tenant_id, { status: 'expired' });
    const refused = await lapsed.as.get('/api/policy-types/');
    expect(refused.statusCode).toBe(402);
    expect(refused.json().detail).toMatch(/Billing page/);
  });
});
