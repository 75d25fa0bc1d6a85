import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  t.app.get('/boom', async () => {
    throw new Error('secret internals at /srv/coverdesk/db.ts:42');
  });
});
afterAll(() => t.close());

const register = (
  payload: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) => t.app.inject({ method: 'POST', url: '/api/accounts/register/', payload, headers });

describe('bad input', () => {
  it('answers malformed JSON with 400 and a clear message', async () => {
    const response = await register('{"email": ');
    expect(response.statusCode).toBe(400);
    expect(response.json().detail).toMatch(/not valid JSON/);
  });

  it('answers wrong types field by field', async () => {
    const response = await register(
      JSON.stringify({ email: 42, password: ['x'], first_name: 'A', last_name: 'B', company_name: 'C' }),
    );
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json()).sort()).toEqual(['email', 'password']);
  });

  it('answers a body that is not an object', async () => {
    const response = await register('[1, 2, 3]');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ non_field_errors: ['The request must be a JSON object.'] });
  });

  it('answers an oversized body with 413', async () => {
    const response = await register(JSON.stringify({ email: 'a@b.co', notes: 'x'.repeat(1024 * 1024 + 10) }));
    expect(response.statusCode).toBe(413);
    expect(response.json().detail).toEqual(expect.any(String));
  });

  it('answers a wrong content type with 415', async () => {
    const response = await register('<email>a@b.co</email>', { 'content-type': 'application/xml' });
    expect(response.statusCode).toBe(415);
    expect(response.json().detail).toEqual(expect.any(String));
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/no-such-thing/' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not found.' });
  });

  it('answers a path it cannot decode, or an overlong id, in the documented shape', async () => {
    const undecodable = await t.app.inject({ method: 'GET', url: '/api/customers/%E0%A4%A/' });
    expect(undecodable.statusCode).toBe(400);
    expect(undecodable.json()).toEqual({ detail: 'This address cannot be read.' });
    const overlong = await t.app.inject({ method: 'GET', url: `/api/customers/${'x'.repeat(150)}/` });
    expect(overlong.statusCode).toBe(414);
    expect(overlong.json()).toEqual({ detail: 'This address is too long.' });
  });

  it('answers a missing static file with 404, never with the web app', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/index-gone1234.js' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not found.' });
  });

  it('never sends a stack trace or internal message on a server error', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toMatch(/secret internals|db\.ts|at /);
    expect(response.json()).toEqual({ detail: 'Something went wrong on our side. Please try again.' });
  });
});

describe('operations', () => {
  it('reports health with the migration level', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health/' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe('ok');
    expect(body.database).toBe('ok');
    expect(body.migrations.applied).toBe(body.migrations.expected);
    expect(body.migrations.expected).toBeGreaterThanOrEqual(2);
  });

  it('sends security headers and a request id, keeping a well-formed incoming one', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/health/',
      headers: { 'x-request-id': 'edge-123' },
    });
    expect(response.headers['x-request-id']).toBe('edge-123');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['strict-transport-security']).toEqual(expect.any(String));
    expect(response.headers['content-security-policy']).toMatch(/default-src 'self'/);
    const generated = await t.app.inject({
      method: 'GET',
      url: '/api/health/',
      headers: { 'x-request-id': 'bad id!' },
    });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('publishes OpenAPI for every account and billing path, and a readable reference', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(spec.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/accounts/register/',
      '/api/token/',
      '/api/token/refresh/',
      '/api/token/revoke/',
      '/api/accounts/login/demo/',
      '/api/user/profile/',
      '/api/accounts/password-reset/',
      '/api/accounts/password-reset/confirm/',
      '/api/billing/plans/',
      '/api/billing/subscriptions/current/',
      '/api/billing/subscriptions/status/',
      '/api/health/',
    ]) {
      expect(spec.paths).toHaveProperty([path]);
    }
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toMatch(/swagger/i);
  });
});
