import { afterEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../../test/test-app.js';
import { ensureDemoAgency } from './account.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const demoLogin = (app: TestApp['app']) => app.inject({ method: 'POST', url: '/api/accounts/login/demo/' });

describe('demo login', () => {
  it('answers 404 while no demo agency exists', async () => {
    t = await createTestApp();
    const response = await demoLogin(t.app);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Demo account not available. Please contact support.' });
  });

  it('answers 503 when demo is switched off', async () => {
    t = await createTestApp({ demoEnabled: false }, { demoAgency: true });
    const response = await demoLogin(t.app);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: 'Demo account is temporarily disabled.' });
  });

  it('signs in as the demo user, whose agency stays active and which no visitor can change', async () => {
    // Building it again when it is there already leaves the one agency as it was.
    t = await createTestApp({}, { demoAgency: true });
    await ensureDemoAgency(t.database.db, t.files);
    const response = await demoLogin(t.app);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'refresh_token', 'user']);
    expect(body.user).toMatchObject({ is_demo_user: true, is_admin: false });

    const status = await t.app.inject({
      method: 'GET',
      url: '/api/billing/subscriptions/status/',
      headers: bearer(body.access_token),
    });
    expect(status.json()).toMatchObject({ status: 'active', is_active: true });

    for (const payload of [
      { current_password: 'anything at all', new_password: 'a new password here' },
      { email: 'mine@example.com', current_password: 'anything at all' },
    ]) {
      const change = await t.app.inject({
        method: 'PATCH',
        url: '/api/user/profile/',
        headers: bearer(body.access_token),
        payload,
      });
      expect(change.statusCode).toBe(403);
      expect(change.json()).toEqual({ error: 'The demo account cannot be changed.' });
    }
    const rename = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/profile/',
      headers: bearer(body.access_token),
      payload: { company_name: 'Visitor was here' },
    });
    expect(rename.statusCode).toBe(403);

    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/token/refresh/',
      payload: { refresh: body.refresh_token },
    });
    expect(refreshed.statusCode).toBe(200);
  });
});
