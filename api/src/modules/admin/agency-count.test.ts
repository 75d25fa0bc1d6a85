import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, createTestApp, registerAgency, type TestApp } from '../../../test/test-app.js';
import { tenants } from '../tenants/tables.js';

// The dashboard's count of agencies is the count of the agencies list it leads to: both leave the
// demo agency out, whose records its visitors make up, unless the list is asked for it.

let t: TestApp;
let admin: ReturnType<typeof apiAs>;

beforeAll(async () => {
  t = await createTestApp({ adminEmails: ['ops@coverdesk.test'] });
  admin = apiAs(
    t.app,
    (await registerAgency(t.app, { email: 'ops@coverdesk.test', company_name: 'Coverdesk Ops' })).access,
  );
  await registerAgency(t.app, { company_name: 'Harbour Brokers' });
  await registerAgency(t.app, { company_name: 'Quay Insurance' });
});
afterAll(() => t.close());

async function dashboardAgencies(): Promise<number> {
  const response = await admin.get('/api/admin/dashboard/');
  expect(response.statusCode).toBe(200);
  return response.json().agencies.total;
}

async function listedAgencies(query = ''): Promise<{ count: number; names: string[] }> {
  const response = await admin.get(`/api/admin/tenants/?page_size=100${query}`);
  expect(response.statusCode).toBe(200);
  const page = response.json();
  return { count: page.count, names: page.results.map((row: { name: string }) => row.name) };
}

describe("the dashboard's count of agencies", () => {
  it('is the count of the agencies list, with and without a demo agency on the platform', async () => {
    expect(await dashboardAgencies()).toBe(3);
    expect((await listedAgencies()).count).toBe(3);

    await t.database.db.insert(tenants).values({ name: 'Demo Agency', isDemo: true });
    const listed = await listedAgencies();
    expect(await dashboardAgencies()).toBe(3);
    expect(listed.count).toBe(3);
    expect(listed.names).not.toContain('Demo Agency');

    const withDemo = await listedAgencies('&include_demo=true');
    expect(withDemo.count).toBe(4);
    expect(withDemo.names).toContain('Demo Agency');
  });

  it('refuses a demo filter that is not true or false', async () => {
    const response = await admin.get('/api/admin/tenants/?include_demo=yes');
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json())).toEqual(['include_demo']);
  });
});
