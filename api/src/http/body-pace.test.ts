import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartForm } from '../../test/multipart-form.js';
import { bearer, createTestApp, signedInAgency, type TestApp } from '../../test/test-app.js';

// Limits small enough for a test: a body may go 0.4 s without a byte, and must then keep up
// 1,000 bytes a second; one upload at a time from an address, two into an agency.
let t: TestApp;
let port: number;
let agency: Awaited<ReturnType<typeof signedInAgency>>;
beforeAll(async () => {
  t = await createTestApp({
    bodies: { idleSeconds: 0.4, minBytesPerSecond: 1000, uploadsPerAddress: 1, uploadsPerAgency: 2 },
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as { port: number }).port;
  agency = await signedInAgency(t.app);
});
afterAll(() => t.close());

const ticket = () =>
  multipartForm({ subject: 'Reminders stopped', category: 'technical', message: 'Nothing since Monday.' });

/**
 * A ticket form sent over a socket of its own: the headers and `sent` bytes of the body at once,
 * then one more byte every `everyMs`. Resolves with what the server answered and when.
 */
function trickle(sent: number, everyMs: number) {
  const form = ticket();
  const head = [
    'POST /api/support/tickets/ HTTP/1.1',
    'Host: 127.0.0.1',
    `Authorization: Bearer ${agency.access}`,
    `Content-Type: ${form.headers['content-type']}`,
    `Content-Length: ${form.payload.length}`,
    '',
    '',
  ].join('\r\n');
  const socket = connect(port, '127.0.0.1');
  const started = Date.now();
  let offset = sent;
  socket.write(Buffer.concat([Buffer.from(head), form.payload.subarray(0, sent)]));
  const timer = setInterval(() => {
    if (socket.writable && offset < form.payload.length)
      socket.write(form.payload.subarray(offset, ++offset));
  }, everyMs);
  return new Promise<{ answer: string; ms: number }>((resolve) => {
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, ms: Date.now() - started });
    });
  });
}

const upload = (remoteAddress: string, payload: Buffer | PassThrough, contentType: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/support/tickets/',
    remoteAddress,
    payload,
    headers: { 'content-type': contentType, ...bearer(agency.access) },
  });

describe('request bodies', () => {
  it('cuts a body sent a byte at a time with 408, and frees its upload slot', async () => {
    const trickling = trickle(20, 100);
    // While it trickles, its address has no other upload.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const form = ticket();
    const second = await fetch(`http://127.0.0.1:${port}/api/support/tickets/`, {
      method: 'POST',
      headers: { ...form.headers, ...bearer(agency.access) },
      body: form.payload,
    });
    expect(second.status).toBe(429);
    expect(((await second.json()) as { detail: string }).detail).toMatch(/from this address/);

    const { answer, ms } = await trickling;
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answer).toContain('Connection: close');
    expect(answer).toContain(
      '"detail":"The request’s body came too slowly, or stopped coming. Send it again."',
    );
    // Cut by its pace (10 bytes a second) soon after the 0.4 s head start, never held open.
    expect(ms).toBeLessThan(3000);

    const after = await fetch(`http://127.0.0.1:${port}/api/support/tickets/`, {
      method: 'POST',
      headers: { ...form.headers, ...bearer(agency.access) },
      body: form.payload,
    });
    expect(after.status, await after.text()).toBe(201);
  });

  it('cuts a body that stops coming, whatever it sent before', async () => {
    const { answer, ms } = await trickle(40, 60_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeLessThan(3000);
  });

  it('holds an agency to its uploads in flight, whichever addresses they come from', async () => {
    const form = ticket();
    const open = () => {
      const body = new PassThrough();
      body.write(form.payload.subarray(0, 30));
      return {
        body,
        answer: upload(`10.9.0.${Math.floor(Math.random() * 200)}`, body, form.headers['content-type']),
      };
    };
    const first = open();
    const second = open();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const third = await upload('10.9.1.1', form.payload, form.headers['content-type']);
    expect(third.statusCode).toBe(429);
    expect(third.json().detail).toMatch(/into this agency/);
    for (const each of [first, second]) each.body.end(form.payload.subarray(30));
    expect((await first.answer).statusCode).toBe(201);
    expect((await second.answer).statusCode).toBe(201);
    expect((await upload('10.9.1.1', form.payload, form.headers['content-type'])).statusCode).toBe(201);
  });

  it('answers 400 to a form cut short before its closing boundary, or without a boundary', async () => {
    const form = ticket();
    const boundary = form.headers['content-type'].split('boundary=')[1] ?? '';
    const cut = form.payload.toString().replace(`--${boundary}--\r\n`, '');
    expect(cut).not.toContain(`--${boundary}--`);
    const truncated = await upload('10.9.2.1', Buffer.from(cut), form.headers['content-type']);
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json()).toEqual({
      detail: 'The form ends before its end, or has no boundary: send it again.',
    });
    const unbounded = await upload('10.9.2.2', form.payload, 'multipart/form-data');
    expect(unbounded.statusCode).toBe(400);
    // Cut inside its file, as the probe sent it: `--x` and a part that never ends.
    const inFile = await t.app.inject({
      method: 'POST',
      url: '/api/documents/',
      remoteAddress: '10.9.2.3',
      payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello',
      headers: { 'content-type': 'multipart/form-data; boundary=x', ...bearer(agency.access) },
    });
    expect(inFile.statusCode, inFile.body).toBe(400);
  });

  it('leaves nothing behind on a kept-alive connection, however many bodies it carries', async () => {
    const sockets: Socket[] = [];
    const onConnection = (socket: Socket) => sockets.push(socket);
    t.app.server.on('connection', onConnection);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let n = 0; n < 15; n++) {
        const body = JSON.stringify({ first_name: 'Dana', last_name: `Levi ${n}` });
        const status = await new Promise<number | undefined>((resolve, reject) => {
          const sent = request(
            {
              host: '127.0.0.1',
              port,
              path: '/api/customers/',
              method: 'POST',
              agent,
              headers: { 'content-type': 'application/json', ...bearer(agency.access) },
            },
            (answer) => {
              answer.resume();
              answer.on('end', () => resolve(answer.statusCode));
            },
          );
          sent.on('error', reject);
          sent.end(body);
        });
        expect(status).toBe(201);
      }
      // One connection carried the fifteen; a listener per body would have piled up on it.
      expect(sockets).toHaveLength(1);
      expect(sockets[0]?.listenerCount('close')).toBeLessThan(5);
    } finally {
      agent.destroy();
      t.app.server.off('connection', onConnection);
    }
  });
});
