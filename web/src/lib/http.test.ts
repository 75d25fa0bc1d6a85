import { describe, expect, it } from 'vitest';
import { FALLBACK_ERROR } from './error-message.js';
import { ApiError, createHttpClient, type HttpClientOptions } from './http.js';
import { createTokenStore } from './tokens.js';

/** `meanwhile` runs as the server answers: what another tab or the user does during the call. */
type Reply = { status: number; body?: unknown; meanwhile?: () => void } | 'network-error' | 'hang';

/** A scripted server: answers each call with the next reply and records what it was sent. */
function scriptedServer(replies: Reply[]) {
  const calls: { method: string; url: string; headers: Record<string, string>; body?: unknown }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    calls.push({
      method: init?.method ?? 'GET',
      url: String(input),
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    });
    const reply = replies.shift() ?? { status: 200, body: {} };
    if (reply === 'network-error') throw new TypeError('fetch failed');
    if (reply === 'hang') {
      return new Promise<Response>((_, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    }
    reply.meanwhile?.();
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status,
    });
  };
  return { fetch, calls };
}

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

function client(replies: Reply[], extra: Partial<HttpClientOptions> = {}) {
  const server = scriptedServer(replies);
  const tokens = createTokenStore(memoryStorage());
  const delays: number[] = [];
  let sessionsEnded = 0;
  const http = createHttpClient({
    tokens,
    timeoutMs: 30_000,
    fetch: server.fetch,
    sleep: async (ms) => void delays.push(ms),
    onSessionEnded: () => sessionsEnded++,
    ...extra,
  });
  return { http, tokens, calls: server.calls, delays, sessionsEnded: () => sessionsEnded };
}

describe('bearer token', () => {
  it('is sent on every call except sign-in, registration, password reset and the demo', async () => {
    const c = client([]);
    c.tokens.set({ access: 'A1', refresh: 'R1' });
    await c.http.get('/user/profile/');
    for (const path of [
      '/token/',
      '/accounts/register/',
      '/accounts/password-reset/',
      '/accounts/login/demo/',
    ]) {
      await c.http.post(path, {});
    }
    expect(c.calls[0]?.headers.authorization).toBe('Bearer A1');
    expect(c.calls.slice(1).map((call) => call.headers.authorization)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('401 handling', () => {
  it('refreshes once and retries with the new token', async () => {
    const c = client([
      { status: 401 },
      { status: 200, body: { access: 'A2', refresh: 'R2' } },
      { status: 200, body: { ok: 1 } },
    ]);
    c.tokens.set({ access: 'A1', refresh: 'R1' });
    expect(await c.http.get('/user/profile/')).toEqual({ ok: 1 });
    expect(c.calls.map((call) => call.url)).toEqual([
      '/api/user/profile/',
      '/api/token/refresh/',
      '/api/user/profile/',
    ]);
    expect(c.calls[1]?.body).toEqual({ refresh: 'R1' });
    expect(c.calls[2]?.headers.authorization).toBe('Bearer A2');
    expect(c.tokens.refresh()).toBe('R2');
  });

  it('ends the session when the refresh fails', async () => {
    const c = client([{ status: 401 }, { status: 401, body: { detail: 'Token is invalid or expired' } }]);
    c.tokens.set({ access: 'A1', refresh: 'R1' });
    await expect(c.http.get('/user/profile/')).rejects.toMatchObject({ status: 401 });
    expect(c.sessionsEnded()).toBe(1);
    expect(c.tokens.access()).toBeNull();
  });

  it('refreshes only once when the retried call is refused again', async () => {
    const c = client([
      { status: 401 },
      { status: 200, body: { access: 'A2', refresh: 'R2' } },
      { status: 401 },
    ]);
    c.tokens.set({ access: 'A1', refresh: 'R1' });
    await expect(c.http.get('/user/profile/')).rejects.toMatchObject({ status: 401 });
    expect(c.calls.filter((call) => call.url === '/api/token/refresh/')).toHaveLength(1);
    expect(c.sessionsEnded()).toBe(1);
  });

  it('shares one refresh between calls refused at the same time', async () => {
    const c = client([
      { status: 401 },
      { status: 401 },
      { status: 200, body: { access: 'A2', refresh: 'R2' } },
      { status: 200, body: 1 },
      { status: 200, body: 2 },
    ]);
    c.tokens.set({ access: 'A1', refresh: 'R1' });
    await Promise.all([c.http.get('/a/'), c.http.get('/b/')]);
    expect(c.calls.filter((call) => call.url === '/api/token/refresh/')).toHaveLength(1);
  });

  it('keeps the session when another tab refreshed it first', async () => {
    const c = client([
      { status: 401 },
      // The other tab stores its new pair while this tab's refresh is being refused.
      { status: 401, meanwhile: () => c.tokens.set({ access: 'A2', refresh: 'R2' }) },
      { status: 200, body: { ok: 1 } },
    ]);
    c.tokens.set({ access: 'A1', refresh: 'R1' });
    expect(await c.http.get('/user/profile/')).toEqual({ ok: 1 });
    expect(c.calls[2]?.headers.authorization).toBe('Bearer A2');
    expect(c.sessionsEnded()).toBe(0);
  });

  it('does not bring a session back when the user signed out during the refresh', async () => {
    const c = client([
      { status: 401 },
      { status: 200, body: { access: 'A2', refresh: 'R2' }, meanwhile: () => c.tokens.clear() },
    ]);
    c.tokens.set({ access: 'A1', refresh: 'R1' });
    await expect(c.http.get('/user/profile/')).rejects.toMatchObject({ status: 401 });
    expect(c.tokens.refresh()).toBeNull();
  });

  it('signs out at once on the secondary client', async () => {
    const c = client([{ status: 401 }], { secondary: true, timeoutMs: 10_000 });
    c.tokens.set({ access: 'A1', refresh: 'R1' });
    await expect(c.http.get('/notifications/unread_count/')).rejects.toBeInstanceOf(ApiError);
    expect(c.calls).toHaveLength(1);
    expect(c.sessionsEnded()).toBe(1);
  });

  it('passes a wrong-password 401 from sign-in straight to the caller', async () => {
    const c = client([
      { status: 401, body: { detail: 'No active account found with the given credentials' } },
    ]);
    await expect(c.http.post('/token/', { email: 'a@b.co', password: 'x' })).rejects.toThrow(
      'No active account found with the given credentials',
    );
    expect(c.sessionsEnded()).toBe(0);
  });
});

describe('retries', () => {
  it('retry network errors and 5xx three times, waiting 1 s, 2 s and 4 s', async () => {
    const c = client([
      'network-error',
      { status: 502 },
      { status: 503 },
      { status: 200, body: { ok: true } },
    ]);
    expect(await c.http.get('/billing/plans/')).toEqual({ ok: true });
    expect(c.delays).toEqual([1000, 2000, 4000]);
  });

  it('give up after the third retry with the last error', async () => {
    const c = client([
      { status: 500 },
      { status: 500 },
      { status: 500 },
      { status: 500, body: { detail: 'Down.' } },
    ]);
    await expect(c.http.get('/billing/plans/')).rejects.toMatchObject({ status: 500, message: 'Down.' });
    expect(c.calls).toHaveLength(4);
  });

  it('never retry client errors', async () => {
    const c = client([{ status: 400, body: { email: ['Enter a valid email address.'] } }]);
    await expect(c.http.put('/user/profile/', {})).rejects.toMatchObject({ status: 400 });
    expect(c.calls).toHaveLength(1);
  });

  it('leave a POST or PATCH alone unless it asks for retries', async () => {
    const c = client([{ status: 503 }, { status: 503 }, { status: 503 }, { status: 200, body: {} }]);
    await expect(c.http.post('/contact/', {})).rejects.toMatchObject({ status: 503 });
    await expect(c.http.patch('/user/profile/', {})).rejects.toMatchObject({ status: 503 });
    expect(await c.http.post('/contact/', {}, { retry: true })).toEqual({});
  });

  it('treat a timeout as retryable and say what happened', async () => {
    const c = client(['hang', 'hang', 'hang', 'hang'], { timeoutMs: 20 });
    const failure = c.http.get('/billing/plans/');
    await expect(failure).rejects.toMatchObject({
      status: 0,
      message: 'The server took too long to answer. Please try again.',
    });
    expect(c.calls).toHaveLength(4);
  });
});

describe('error text', () => {
  it('joins the first message of each field with commas', async () => {
    const c = client([
      {
        status: 400,
        body: {
          email: ['Enter a valid email address.', 'Second.'],
          password: ['This password is too common.'],
        },
      },
    ]);
    await expect(c.http.post('/accounts/register/', {})).rejects.toThrow(
      'Enter a valid email address., This password is too common.',
    );
  });

  it('reads detail and error bodies, and falls back for anything else', async () => {
    const c = client([
      { status: 404, body: { error: 'Demo account not available. Please contact support.' } },
      { status: 418 },
    ]);
    await expect(c.http.post('/accounts/login/demo/')).rejects.toThrow(
      'Demo account not available. Please contact support.',
    );
    await expect(c.http.get('/teapot/')).rejects.toThrow(FALLBACK_ERROR);
  });
});

describe('query strings', () => {
  it('drop empty values', async () => {
    const c = client([]);
    await c.http.get('/companies/', { query: { search: 'Har', page: 2, ordering: '', company: undefined } });
    expect(c.calls[0]?.url).toBe('/api/companies/?search=Har&page=2');
  });
});

describe('downloads', () => {
  it('send the token and hand back the bytes with the name the server gave the file', async () => {
    const sent: Headers[] = [];
    const tokens = createTokenStore(memoryStorage());
    tokens.set({ access: 'A1', refresh: 'R1' });
    const http = createHttpClient({
      tokens,
      timeoutMs: 30_000,
      fetch: async (_input, init) => {
        sent.push(new Headers(init?.headers));
        return new Response('%PDF-1.7', {
          headers: {
            'content-type': 'application/pdf',
            'content-disposition': `attachment; filename="report.pdf"; filename*=UTF-8''commission%20report.pdf`,
          },
        });
      },
    });
    const file = await http.download('/policies/commission_pdf/');
    expect(sent[0]?.get('authorization')).toBe('Bearer A1');
    expect(file.filename).toBe('commission report.pdf');
    expect(await file.blob.text()).toBe('%PDF-1.7');
  });

  it('let a file stream past the deadline once the server has started, counting its bytes', async () => {
    const tokens = createTokenStore(memoryStorage());
    const encoder = new TextEncoder();
    const http = createHttpClient({
      tokens,
      timeoutMs: 20,
      fetch: async (_input, init) =>
        new Response(
          new ReadableStream({
            async start(stream) {
              for (const part of ['%PDF-', 'page one', 'page two']) {
                await new Promise((resolve) => setTimeout(resolve, 15));
                if (init?.signal?.aborted) return stream.error(init.signal.reason);
                stream.enqueue(encoder.encode(part));
              }
              stream.close();
            },
          }),
          { headers: { 'content-type': 'application/pdf' } },
        ),
    });
    const progress: number[] = [];
    const file = await http.download('/policies/commission_pdf/', {
      onProgress: (bytes) => progress.push(bytes),
    });
    expect(await file.blob.text()).toBe('%PDF-page onepage two');
    expect(progress).toEqual([5, 13, 21]);
  });

  it('refresh an expired token and tell a refused file by the API’s message', async () => {
    const c = client([
      { status: 401 },
      { status: 200, body: { access: 'A2', refresh: 'R2' } },
      { status: 400, body: { end_date: ['The end of the period cannot be before its start.'] } },
    ]);
    c.tokens.set({ access: 'A1', refresh: 'R1' });
    await expect(c.http.download('/policies/commission_csv/')).rejects.toMatchObject({
      status: 400,
      message: 'The end of the period cannot be before its start.',
    });
    expect(c.calls.map((call) => call.headers.authorization)).toEqual(['Bearer A1', undefined, 'Bearer A2']);
  });
});

describe('a form with a file', () => {
  it('goes as it is, leaving its multipart type and boundary to the browser', async () => {
    let sent: RequestInit | undefined;
    const http = createHttpClient({
      tokens: createTokenStore(memoryStorage()),
      timeoutMs: 1000,
      fetch: async (_input, init) => {
        sent = init;
        return new Response('{}', { status: 201 });
      },
    });
    const form = new FormData();
    form.append('message', 'The reminders stopped.');
    await http.post('/support/tickets/', form);
    expect(sent?.body).toBe(form);
    expect(sent?.headers).not.toHaveProperty('content-type');
  });
});
