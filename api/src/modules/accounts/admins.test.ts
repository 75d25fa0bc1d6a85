import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, PASSWORD, registerAgency, type TestApp } from '../../../test/test-app.js';
import { createAdmin } from './admins.js';
import { promoteAdmins } from './queries.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const signIn = async (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/token/', payload: { email, password } });

const profileOf = async (access: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/user/profile/', headers: bearer(access) })).json();

describe('platform admins', () => {
  it('are created from the command line helper and can sign in', async () => {
    const outcome = await createAdmin(t.database.db, {
      email: 'ops@coverdesk.test',
      password: 'night shift operator',
      firstName: 'Platform',
      lastName: 'Administrator',
    });
    expect(outcome).toBe('created');
    const session = await signIn('ops@coverdesk.test', 'night shift operator');
    expect(session.statusCode).toBe(200);
    expect(await profileOf(session.json().access)).toMatchObject({ is_admin: true });
  });

  it('promote an existing account, set its password and end its earlier sessions', async () => {
    const broker = await registerAgency(t.app);
    expect(
      await createAdmin(t.database.db, {
        email: broker.email,
        password: 'second career choice',
        firstName: '',
        lastName: '',
      }),
    ).toBe('promoted');
    expect((await signIn(broker.email, PASSWORD)).statusCode).toBe(401);
    const earlier = await t.app.inject({
      method: 'POST',
      url: '/api/token/refresh/',
      payload: { refresh: broker.refresh },
    });
    expect(earlier.statusCode).toBe(401);
    const session = await signIn(broker.email, 'second career choice');
    expect(await profileOf(session.json().access)).toMatchObject({ is_admin: true });
  });

  it('refuse a common password', async () => {
    await expect(
      createAdmin(t.database.db, {
        email: 'x@coverdesk.test',
        password: 'password123',
        firstName: '',
        lastName: '',
      }),
    ).rejects.toMatchObject({ body: { password: ['This password is too common.'] } });
  });

  it('are granted at start to ADMIN_EMAILS, whatever the letter case, and to nobody else', async () => {
    const listed = await registerAgency(t.app);
    const bystander = await registerAgency(t.app, { email: `admin-${Date.now()}@example.com` });
    await promoteAdmins(t.database.db, [listed.email.toUpperCase()]);
    expect(await profileOf(listed.access)).toMatchObject({ is_admin: true });
    expect(await profileOf(bystander.access)).toMatchObject({ is_admin: false });
  });
});
