import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PASSWORD, registerAgency, type TestApp } from '../../test/test-app.js';

/** Coverdesk behind one reverse proxy (TRUST_PROXY=1), which connects to it from this address. */
const PROXY = '10.0.0.2';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ trustProxy: 1, registrationsPerHour: 3 });
});
afterAll(() => t.close());

let requestsSent = 0;

/**
 * A request from `client` through the proxy, which appends the address it was reached from. The
 * client wrote X-Forwarded-For entries of its own first, different every time.
 */
function throughProxy(client: string, url: string, payload: object) {
  requestsSent++;
  return t.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: PROXY,
    headers: {
      'x-forwarded-for': `203.0.113.${requestsSent % 250}, 198.18.0.${requestsSent % 250}, ${client}`,
    },
  });
}

describe('behind a reverse proxy', () => {
  it('counts registrations by the address the proxy saw, whatever the client wrote before it', async () => {
    const registration = (email: string, password: string) => ({
      email,
      password,
      first_name: 'Dana',
      last_name: 'Levi',
      company_name: 'Levi Cover',
    });
    const client = '192.0.2.10';
    for (let attempt = 0; attempt < t.config.registrationsPerHour; attempt++) {
      const weak = await throughProxy(
        client,
        '/api/accounts/register/',
        registration(`proxied-${attempt}@example.com`, 'password1'),
      );
      expect(weak.statusCode).toBe(400);
    }
    const payload = registration('proxied-agency@example.com', PASSWORD);
    expect((await throughProxy(client, '/api/accounts/register/', payload)).statusCode).toBe(429);
    expect((await throughProxy('192.0.2.11', '/api/accounts/register/', payload)).statusCode).toBe(201);
  });

  it('throttles sign-in by the address the proxy saw, whatever the client wrote before it', async () => {
    const agency = await registerAgency(t.app);
    const client = '192.0.2.20';
    for (let attempt = 0; attempt < 5; attempt++) {
      const guess = { email: agency.email, password: `guess-${attempt}` };
      expect((await throughProxy(client, '/api/token/', guess)).statusCode).toBe(401);
    }
    const signIn = { email: agency.email, password: PASSWORD };
    expect((await throughProxy(client, '/api/token/', signIn)).statusCode).toBe(429);
    expect((await throughProxy('192.0.2.21', '/api/token/', signIn)).statusCode).toBe(200);
  });

  it('limits password-reset requests by the address the proxy saw, whatever the client wrote before it', async () => {
    const reset = { email: 'nobody@example.com' };
    const client = '192.0.2.30';
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await throughProxy(client, '/api/accounts/password-reset/', reset)).statusCode).toBe(202);
    }
    expect((await throughProxy(client, '/api/accounts/password-reset/', reset)).statusCode).toBe(429);
    expect((await throughProxy('192.0.2.31', '/api/accounts/password-reset/', reset)).statusCode).toBe(202);
  });
});
