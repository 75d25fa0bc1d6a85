import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, registerAgency, type TestApp } from '../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('authentication', () => {
  it('answers a signed-out caller 401 before looking at the body', async () => {
    const badBody = await t.app.inject({ method: 'POST', url: '/api/policies/', payload: { premium: 'x' } });
    expect(badBody.statusCode).toBe(401);
    expect(badBody.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    const notJson = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/profile/',
      payload: '{"first_name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.statusCode).toBe(401);
  });

  it('refuses an Authorization header with anything after the token', async () => {
    const agency = await registerAgency(t.app);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/user/profile/',
      headers: { authorization: `Bearer ${agency.access} extra` },
    });
    expect(response.statusCode).toBe(401);
  });

  it('keeps tokens, the profile and every signed-in answer out of caches', async () => {
    const agency = await registerAgency(t.app);
    const answers = [
      await t.app.inject({
        method: 'POST',
        url: '/api/accounts/register/',
        payload: {
          email: 'cache-check@example.com',
          password: agency.password,
          first_name: 'Tal',
          last_name: 'Gil',
          company_name: 'Gil Cover',
        },
      }),
      await t.app.inject({
        method: 'POST',
        url: '/api/token/',
        payload: { email: agency.email, password: agency.password },
      }),
      await t.app.inject({
        method: 'POST',
        url: '/api/token/refresh/',
        payload: { refresh: agency.refresh },
      }),
      await t.app.inject({ method: 'GET', url: '/api/user/profile/', headers: bearer(agency.access) }),
      await t.app.inject({ method: 'GET', url: '/api/policies/', headers: bearer(agency.access) }),
      await t.app.inject({ method: 'GET', url: '/api/user/profile/' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 200, 200, 200, 200, 401]);
    for (const answer of answers) expect(answer.headers['cache-control']).toBe('no-store');
  });
});
