import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { column, day, expectFormatAndGate, exportBoth, xlsxFormats } from '../../../test/export-file.js';
import { addPolicyParties, insertPolicy } from '../../../test/insert-policy.js';
import { createTestApp, setSubscription, signedInAgency, type TestApp } from '../../../test/test-app.js';
import { withTenant } from '../../db/tenant.js';
import { policies } from '../policies/tables.js';
import { customers } from './tables.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const agency = () => signedInAgency(t.app);

/** Fills an agency's book straight in the database, for tests about how many customers it has. */
async function insertCustomers(tenantId: string, count: number) {
  await withTenant(t.database.db, tenantId, (tx) =>
    tx
      .insert(customers)
      .values(
        Array.from({ length: count }, (_, index) => ({ tenantId, firstName: 'Bulk', lastName: `${index}` })),
      ),
  );
}

const dana = { first_name: 'Dana', last_name: 'Levi', email: 'dana@example.com', phone: '052-123-4567' };

const names = (response: { json(): { results: { display_name: string }[] } }) =>
  response.json().results.map((customer) => customer.display_name);

describe('customers', () => {
  it('adds a customer with defaults for what was left out, and reads it back', async () => {
    const { as } = await agency();
    const created = await as.post('/api/customers/', { ...dana, email: ' Dana@Example.COM ' });
    expect(created.statusCode).toBe(201);
    const customer = created.json();
    expect(customer).toMatchObject({
      ...dana,
      policy_count: 0,
      customer_type: 'individual',
      display_name: 'Dana Levi',
      business_name: '',
      date_of_birth: null,
      preferred_contact: 'email',
      tags: [],
      status: 'active',
    });

    const read = await as.get(`/api/customers/${customer.id}/`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(customer);
  });

  it('needs a business name for a business, and lists the business by it', async () => {
    const { as } = await agency();
    const business = { first_name: 'Avi', last_name: 'Cohen', customer_type: 'business' };
    const refused = await as.post('/api/customers/', business);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ business_name: ['This field is required.'] });

    const created = await as.post('/api/customers/', { ...business, business_name: 'Cohen Logistics' });
    expect(created.statusCode).toBe(201);
    expect(created.json().display_name).toBe('Cohen Logistics');
  });

  it('refuses bad input with a message for each field', async () => {
    const { as } = await agency();
    const response = await as.post('/api/customers/', {
      first_name: 'Dana',
      email: 'dana@',
      phone: 'call me after 5',
      customer_type: 'business',
      date_of_birth: '2199-01-01',
      tags: ['x'.repeat(41)],
    });
    expect(response.statusCode).toBe(400);
    // The rules across fields (a business needs its name, a birth date is past) come with the rest.
    expect(response.json()).toEqual({
      last_name: ['This field is required.'],
      email: ['Enter a valid email address.'],
      phone: ['Use digits, spaces, +, - and parentheses, and "ext." before an extension.'],
      business_name: ['This field is required.'],
      date_of_birth: ['A date of birth cannot be in the future.'],
      'tags.0': ['A tag has at most 40 characters.'],
    });
    for (const phone of ['052.123.4567', '052/1234567', '+1 555 0100 #2']) {
      const refused = await as.post('/api/customers/', { ...dana, email: '', phone });
      expect(refused.json(), phone).toEqual({
        phone: ['Use digits, spaces, +, - and parentheses, and "ext." before an extension.'],
      });
    }
    for (const phone of ['+972 (52) 123-4567 ext. 12', '03 555 1234 x9', '(312) 555-0140']) {
      const saved = await as.post('/api/customers/', { ...dana, email: '', phone });
      expect(saved.statusCode, phone).toBe(201);
      expect(saved.json().phone).toBe(phone);
      await as.delete(`/api/customers/${saved.json().id}/`);
    }

    const unborn = await as.post('/api/customers/', { ...dana, date_of_birth: '2199-01-01' });
    expect(unborn.statusCode).toBe(400);
    expect(unborn.json()).toEqual({ date_of_birth: ['A date of birth cannot be in the future.'] });
    expect((await as.post('/api/customers/', [])).statusCode).toBe(400);
    expect((await as.get('/api/customers/')).json().count).toBe(0);
  });

  it('replaces a customer with PUT', async () => {
    const { as } = await agency();
    const { id } = (await as.post('/api/customers/', { ...dana, tags: ['vip'], city: 'Haifa' })).json();
    const replaced = await as.put(`/api/customers/${id}/`, { first_name: 'Dana', last_name: 'Mizrahi' });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({
      display_name: 'Dana Mizrahi',
      email: '',
      city: '',
      tags: [],
    });
  });

  it('changes only the fields a PATCH names, and checks the result as a whole', async () => {
    const { as } = await agency();
    const stored = (
      await as.post('/api/customers/', {
        ...dana,
        date_of_birth: '1985-04-12',
        preferred_contact: 'whatsapp',
        tags: ['vip'],
        status: 'inactive',
      })
    ).json();

    const patched = await as.patch(`/api/customers/${stored.id}/`, {
      phone: '054-765-4321',
      city: 'Tel Aviv',
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toEqual({
      ...stored,
      phone: '054-765-4321',
      city: 'Tel Aviv',
      updated_at: expect.any(String),
    });

    const noBusinessName = await as.patch(`/api/customers/${stored.id}/`, { customer_type: 'business' });
    expect(noBusinessName.statusCode).toBe(400);
    expect(noBusinessName.json()).toEqual({ business_name: ['This field is required.'] });
    const badEmail = await as.patch(`/api/customers/${stored.id}/`, { email: 'nope', last_name: 'Katz' });
    expect(badEmail.json()).toEqual({ email: ['Enter a valid email address.'] });
    expect((await as.get(`/api/customers/${stored.id}/`)).json().last_name).toBe('Levi');
    expect((await as.patch(`/api/customers/${stored.id}/`, ['phone'])).statusCode).toBe(400);
  });

  it('deletes a customer', async () => {
    const { as } = await agency();
    const { id } = (await as.post('/api/customers/', dana)).json();
    expect((await as.delete(`/api/customers/${id}/`)).statusCode).toBe(204);
    expect((await as.get(`/api/customers/${id}/`)).statusCode).toBe(404);
    expect((await as.delete(`/api/customers/${id}/`)).statusCode).toBe(404);
  });

  it('lists a page at a time with search, filters and sort on the server', async () => {
    const { as } = await agency();
    for (const body of [
      { ...dana, city: 'Haifa', tags: ['vip', 'motor'] },
      {
        first_name: 'Yossi',
        last_name: 'Ben David',
        email: 'yossi@mail.co.il',
        phone: '03 555 1234',
        city: 'Eilat',
      },
      {
        customer_type: 'business',
        first_name: 'Avi',
        last_name: 'Cohen',
        business_name: 'Cohen Logistics',
        national_id: '514-123-456',
        city: 'Ashdod',
        tags: ['motor'],
        status: 'inactive',
      },
      { first_name: 'michal', last_name: 'Adler', phone: '+972 52 999 0000', city: 'Tel Aviv' },
    ]) {
      expect((await as.post('/api/customers/', body)).statusCode).toBe(201);
    }
    const list = async (query: string) => names(await as.get(`/api/customers/?${query}`));

    expect(await list('')).toEqual(['Cohen Logistics', 'Dana Levi', 'michal Adler', 'Yossi Ben David']);
    expect(await list('ordering=-name')).toEqual([
      'Yossi Ben David',
      'michal Adler',
      'Dana Levi',
      'Cohen Logistics',
    ]);
    expect(await list('ordering=city')).toEqual([
      'Cohen Logistics',
      'Yossi Ben David',
      'Dana Levi',
      'michal Adler',
    ]);
    expect(await list('ordering=-created_at')).toEqual([
      'michal Adler',
      'Cohen Logistics',
      'Yossi Ben David',
      'Dana Levi',
    ]);

    expect(await list('search=levi')).toEqual(['Dana Levi']);
    expect(await list('search=avi')).toEqual(['Cohen Logistics', 'Yossi Ben David']);
    expect(await list('search=MAIL.CO')).toEqual(['Yossi Ben David']);
    expect(await list(`search=${encodeURIComponent('052 123')}`)).toEqual(['Dana Levi']);
    expect(await list('search=5551234')).toEqual(['Yossi Ben David']);
    expect(await list('search=514-123')).toEqual(['Cohen Logistics']);
    expect(await list('search=100%25')).toEqual([]);

    expect(await list('status=inactive')).toEqual(['Cohen Logistics']);
    expect(await list('customer_type=individual&status=active')).toEqual([
      'Dana Levi',
      'michal Adler',
      'Yossi Ben David',
    ]);
    expect(await list('tag=motor')).toEqual(['Cohen Logistics', 'Dana Levi']);
    expect(await list('tag=vip&search=dana')).toEqual(['Dana Levi']);
    expect((await as.get('/api/customers/?ordering=email')).statusCode).toBe(400);

    const first = (await as.get('/api/customers/?page_size=2&status=active')).json();
    expect(first).toMatchObject({
      count: 3,
      previous: null,
      next: '/api/customers/?page_size=2&status=active&page=2',
    });
    const second = await as.get(first.next);
    expect(names(second)).toEqual(['Yossi Ben David']);
    expect(second.json().next).toBeNull();
  });

  it('finds existing customers with the same email, phone or national id', async () => {
    const { as } = await agency();
    const levi = (await as.post('/api/customers/', { ...dana, national_id: '012345678' })).json();
    const other = (
      await as.post('/api/customers/', { first_name: 'Ron', last_name: 'Levi', national_id: 'ab-12 34' })
    ).json();
    const duplicates = async (query: string) =>
      (await as.get(`/api/customers/duplicates/?${query}`)).json().results;

    expect(await duplicates('email=DANA@example.com')).toEqual([
      {
        id: levi.id,
        display_name: 'Dana Levi',
        email: 'dana@example.com',
        phone: '052-123-4567',
        national_id: '012345678',
        matched_on: ['email'],
      },
    ]);
    expect(await duplicates(`phone=${encodeURIComponent('(052) 1234567')}`)).toMatchObject([
      { id: levi.id, matched_on: ['phone'] },
    ]);
    expect(await duplicates('national_id=AB1234')).toMatchObject([
      { id: other.id, matched_on: ['national_id'] },
    ]);
    expect(await duplicates('email=dana@example.com&phone=0521234567&national_id=012-345-678')).toMatchObject(
      [{ id: levi.id, matched_on: ['email', 'phone', 'national_id'] }],
    );
    expect(await duplicates('email=dana@example.com&national_id=ab1234')).toMatchObject([
      { id: levi.id, matched_on: ['email'] },
      { id: other.id, matched_on: ['national_id'] },
    ]);

    expect(await duplicates(`email=dana@example.com&exclude_id=${levi.id}`)).toEqual([]);
    expect(await duplicates('phone=05212')).toEqual([]);
    expect(await duplicates('email=&phone=&national_id=')).toEqual([]);
    expect(await duplicates('')).toEqual([]);
    expect((await as.get('/api/customers/duplicates/?exclude_id=nope')).statusCode).toBe(400);
  });

  it('lists at most five duplicates', async () => {
    const { as } = await agency();
    for (let index = 0; index < 6; index += 1) {
      await as.post('/api/customers/', { ...dana, last_name: `Levi ${index}` });
    }
    expect((await as.get('/api/customers/duplicates/?email=dana@example.com')).json().results).toHaveLength(
      5,
    );
  });

  it("answers 404 for another agency's customer, and never lists it or matches it as a duplicate", async () => {
    const owner = await agency();
    const other = await agency();
    const { id } = (await owner.as.post('/api/customers/', dana)).json();

    expect((await other.as.get(`/api/customers/${id}/`)).statusCode).toBe(404);
    expect((await other.as.put(`/api/customers/${id}/`, { ...dana, last_name: 'Taken' })).statusCode).toBe(
      404,
    );
    expect((await other.as.patch(`/api/customers/${id}/`, { last_name: 'Taken' })).statusCode).toBe(404);
    expect((await other.as.delete(`/api/customers/${id}/`)).statusCode).toBe(404);
    expect((await other.as.get('/api/customers/?search=dana')).json().count).toBe(0);
    const duplicates = await other.as.get(
      '/api/customers/duplicates/?email=dana@example.com&phone=0521234567',
    );
    expect(duplicates.json()).toEqual({ results: [] });
    expect((await owner.as.get(`/api/customers/${id}/`)).json().last_name).toBe('Levi');
  });

  it('needs a signed-in user with an active plan', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/customers/' })).statusCode).toBe(401);
    const lapsed = await agency();
    await setSubscription(t, lapsed.user.tenant_id, { status: 'expired' });
    for (const refused of [
      await lapsed.as.get('/api/customers/'),
      await lapsed.as.post('/api/customers/', dana),
      await lapsed.as.get('/api/customers/duplicates/?email=dana@example.com'),
    ]) {
      expect(refused.statusCode).toBe(402);
      expect(refused.json().detail).toMatch(/Billing page/);
    }
  });

  it('refuses a customer beyond the number the plan allows', async () => {
    const { as, user } = await agency();
    await setSubscription(t, user.tenant_id, { plan: 'starter', status: 'active' });
    await insertCustomers(user.tenant_id, 250);

    const refused = await as.post('/api/customers/', dana);
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({
      detail:
        'Your Starter plan allows up to 250 customers; Professional allows 1,000. Upgrade your plan on the Billing page to add more.',
    });
    expect((await as.get('/api/customers/')).json().count).toBe(250);

    await setSubscription(t, user.tenant_id, { plan: 'professional' });
    expect((await as.post('/api/customers/', dana)).statusCode).toBe(201);
  });

  it('formats the limit in the message of a larger plan', async () => {
    const { as, user } = await agency();
    await insertCustomers(user.tenant_id, 1000);
    const refused = await as.post('/api/customers/', dana);
    expect(refused.json().detail).toBe(
      'Your Professional plan allows up to 1,000 customers; Agency allows 10,000. Upgrade your plan on the Billing page to add more.',
    );
  });

  it('lets only one of several parallel requests take the last place', async () => {
    const { as, user } = await agency();
    await setSubscription(t, user.tenant_id, { plan: 'starter', status: 'active' });
    await insertCustomers(user.tenant_id, 249);

    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        as.post('/api/customers/', { ...dana, last_name: `Levi ${index}` }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 402, 402, 402, 402, 402]);
    expect((await as.get('/api/customers/')).json().count).toBe(250);
  });
});

describe('deleting a customer with policies', () => {
  it('refuses while policies point at the customer, and names how many', async () => {
    const { as, user } = await agency();
    const parties = await addPolicyParties(as, { customer: ['Dana', 'Levi'] });
    for (let index = 0; index < 3; index++) await insertPolicy(t, user.tenant_id, parties);
    const url = `/api/customers/${parties.customerId}/`;

    const refused = await as.delete(url);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: 'Dana Levi has 3 policies. Delete or move them first.' });
    expect((await as.get(url)).statusCode).toBe(200);

    await withTenant(t.database.db, user.tenant_id, (tx) =>
      tx.delete(policies).where(eq(policies.customerId, parties.customerId)),
    );
    expect((await as.delete(url)).statusCode).toBe(204);
  });

  it('tells, in the customer read alone, how many policies stand in the way, as deletion counts them', async () => {
    const { as, user } = await agency();
    const parties = await addPolicyParties(as, { customer: ['Dana', 'Levi'] });
    const url = `/api/customers/${parties.customerId}/`;
    expect((await as.get(url)).json().policy_count).toBe(0);

    await insertPolicy(t, user.tenant_id, parties);
    // A cancelled policy counts as much as an open one: it still points at the customer.
    const cancelled = await insertPolicy(t, user.tenant_id, parties);
    const cancel = { cancelled_at: '2026-02-01', reason: 'Sold the car' };
    expect((await as.post(`/api/policies/${cancelled.id}/cancel/`, cancel)).statusCode).toBe(200);
    const other = await addPolicyParties(as, { customer: ['Avi', 'Cohen'], company: 'Clal' });
    await insertPolicy(t, user.tenant_id, other);

    expect((await as.get(url)).json().policy_count).toBe(2);
    expect((await as.patch(url, { city: 'Haifa' })).json().policy_count).toBe(2);
    expect((await as.delete(url)).json()).toEqual({
      detail: 'Dana Levi has 2 policies. Delete or move them first.',
    });
    // The list does not count them for every row.
    expect((await as.get('/api/customers/')).json().results[0]).not.toHaveProperty('policy_count');
  });
});

describe('customers export', () => {
  it('holds exactly the customers the list shows, in its order, as CSV and XLSX', async () => {
    const { as } = await agency();
    const other = await agency();
    await other.as.post('/api/customers/', { first_name: 'Elsewhere', last_name: 'Vip', tags: ['vip'] });
    for (const customer of [
      { first_name: 'Dana', last_name: 'Levi', tags: ['vip'], city: 'Haifa', date_of_birth: '1980-02-03' },
      { first_name: 'Avi', last_name: 'Cohen', tags: ['vip', 'fleet'], email: 'avi@example.com' },
      { first_name: 'Noa', last_name: 'Bar', tags: ['vip'], status: 'inactive' },
      { first_name: 'Tal', last_name: 'Ron' },
    ]) {
      expect((await as.post('/api/customers/', customer)).statusCode).toBe(201);
    }

    const query = 'status=active&tag=vip&ordering=-name';
    const listed = names(await as.get(`/api/customers/?${query}`));
    expect(listed).toEqual(['Dana Levi', 'Avi Cohen']);
    const { csv, xlsx, xlsxFile, fileName } = await exportBoth(as, '/api/customers/export/', query);
    expect(fileName).toMatch(/^customers-\d{4}-\d\d-\d\d$/);
    expect(column(csv, 'Name')).toEqual(listed);
    expect(column(xlsx, 'Name')).toEqual(listed);
    expect(xlsx[0]).toEqual(csv[0]);
    expect(csv[0]?.slice(0, 7)).toEqual([
      'Name',
      'Type',
      'First name',
      'Last name',
      'Business name',
      'Email',
      'Phone',
    ]);
    expect(column(csv, 'Tags')).toEqual(['vip', 'vip, fleet']);
    expect(column(csv, 'Date of birth')).toEqual(['1980-02-03', '']);
    expect(column(xlsx, 'Date of birth')).toEqual([day('1980-02-03'), null]);
    const dateColumn = csv[0]?.indexOf('Date of birth') ?? -1;
    expect((await xlsxFormats(xlsxFile))[dateColumn]).toBe('yyyy-mm-dd');
    expect(column(xlsx, 'Email')).toEqual([null, 'avi@example.com']);
    expect(column(csv, 'Type')).toEqual(['Individual', 'Individual']);
    expect(column(xlsx, 'Status')).toEqual(['Active', 'Active']);
  });

  it('writes a name a spreadsheet would run as text in both files', async () => {
    const { as } = await agency();
    const sly = { first_name: '=HYPERLINK("http://x")', last_name: 'Cohen, Jr', status: 'inactive' };
    expect((await as.post('/api/customers/', sly)).statusCode).toBe(201);
    const { csv, xlsx } = await exportBoth(as, '/api/customers/export/', 'status=inactive');
    expect(column(csv, 'First name')).toEqual([`'=HYPERLINK("http://x")`]);
    expect(column(csv, 'Last name')).toEqual(['Cohen, Jr']);
    // In the workbook it is a string cell, never a formula.
    expect(column(xlsx, 'First name')).toEqual(['=HYPERLINK("http://x")']);
  });

  it('refuses an unknown format or filter and holds the plan gate', async () => {
    const broker = await agency();
    expect((await broker.as.get('/api/customers/export/?ordering=age')).statusCode).toBe(400);
    await expectFormatAndGate(t, broker, '/api/customers/export/', 'module_customers');
  });
});
