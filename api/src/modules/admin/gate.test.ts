import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerAgency, type TestApp } from '../../../test/test-app.js';

/**
 * Every route under /api/admin/, read from the API's own route table (its OpenAPI document), so a
 * route added later is covered without touching this file.
 */
let t: TestApp;
let brokerToken: string;
let adminRoutes: { method: string; url: string }[];
beforeAll(async () => {
  t = await createTestApp({ adminEmails: ['ops@coverdesk.test'] });
  await t.app.ready();
  brokerToken = (await registerAgency(t.app)).access;
  const document = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  adminRoutes = Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/api/admin/'))
    .flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => ({
        method: method.toUpperCase(),
        // Any well-formed id: the gate answers before the route looks anything up.
        url: path.replace(/\{[^}]+\}/g, '0190a0a0-0000-7000-8000-000000000000'),
      })),
    );
});
afterAll(() => t.close());

describe('the admin API', () => {
  it('has routes to guard', () => {
    expect(adminRoutes.length).toBeGreaterThan(0);
  });

  it('answers 401 to anonymous callers on every route', async () => {
    const answers = await Promise.all(
      adminRoutes.map(async (route) => {
        const response = await t.app.inject({ method: route.method as 'GET', url: route.url, payload: {} });
        return `${route.method} ${route.url} ${response.statusCode}`;
      }),
    );
    expect(answers).toEqual(adminRoutes.map((route) => `${route.method} ${route.url} 401`));
  });

  it('answers 403 to a broker on every route, whatever the body', async () => {
    const answers = await Promise.all(
      adminRoutes.map(async (route) => {
        const response = await t.app.inject({
          method: route.method as 'GET',
          url: route.url,
          headers: bearer(brokerToken),
          payload: {},
        });
        return `${route.method} ${route.url} ${response.statusCode}`;
      }),
    );
    expect(answers).toEqual(adminRoutes.map((route) => `${route.method} ${route.url} 403`));
  });
});
