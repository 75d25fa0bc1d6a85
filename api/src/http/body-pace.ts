import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BodiesConfig } from '../config.js';
import { HttpError } from './errors.js';

// Bodies that never end: a client that sends a body one byte every few seconds would hold its
// connection, and the upload's slot, for ever. Like Apache's mod_reqtimeout (`body=30,MinRate=…`),
// a body is cut with 408 when no byte has come for `idleSeconds`, or when, after that head start, it
// has come slower on average than `minBytesPerSecond`: a large upload gets the time its size needs
// at that pace, a trickle does not.

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploads in flight, per address and per agency (`acceptFileForms` takes a slot for each). */
    uploadSlots: UploadSlots;
  }
}

const TIMED_OUT_BODY = JSON.stringify({
  detail: 'The request’s body came too slowly, or stopped coming. Send it again.',
});
/** Written on the socket as Node's own request timeout does: the route may be waiting on the body. */
const TIMED_OUT = [
  'HTTP/1.1 408 Request Timeout',
  'Connection: close',
  'Cache-Control: no-store',
  'Content-Type: application/json; charset=utf-8',
  `Content-Length: ${Buffer.byteLength(TIMED_OUT_BODY)}`,
  '',
  TIMED_OUT_BODY,
].join('\r\n');

const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;

/** Times every request's body from its headers to its last byte. */
export function registerBodyPace(
  app: FastifyInstance,
  { idleSeconds, minBytesPerSecond }: BodiesConfig,
): void {
  const idleMs = idleSeconds * 1000;
  const tickMs = Math.min(1000, idleMs / 4);
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    const socket = raw.socket;
    // Injected requests (tests) have their whole body at once, and no socket counting bytes.
    if (!hasBody(request) || raw.complete || typeof socket?.bytesRead !== 'number') return done();
    const first = socket.bytesRead;
    let started = Date.now();
    let lastBytes = first;
    let lastProgress = started;
    const timer = setInterval(() => {
      // All of it came: what is left is the route's to read.
      if (raw.complete) {
        stop();
        return;
      }
      const now = Date.now();
      // Bytes the route has not taken yet are its own delay, not the client's.
      if (raw.readableLength > 0) {
        started += tickMs;
        lastProgress = now;
        return;
      }
      if (socket.bytesRead > lastBytes) {
        lastBytes = socket.bytesRead;
        lastProgress = now;
      }
      const idle = now - lastProgress > idleMs;
      const slow = now - started > idleMs + ((lastBytes - first) / minBytesPerSecond) * 1000;
      if (idle || slow) {
        stop();
        cut(request, reply);
      }
    }, tickMs);
    timer.unref();
    // A keep-alive socket carries many requests: its listener goes with the body it watched.
    const stop = () => {
      clearInterval(timer);
      socket.off('close', stop);
    };
    raw.once('end', stop);
    raw.once('close', stop);
    socket.once('close', stop);
    done();
  });
}

function cut(request: FastifyRequest, reply: FastifyReply): void {
  const socket = request.raw.socket;
  request.log.info({ bytesRead: socket.bytesRead }, 'cut a request whose body came too slowly');
  if (reply.raw.headersSent || !socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(TIMED_OUT, () => socket.destroy());
}

/**
 * Uploads in flight at once, per address and per agency, on this instance: a slow upload holds a
 * connection and a temporary file, so one client or one agency cannot hold them all.
 */
export class UploadSlots {
  readonly #held = new Map<string, number>();

  constructor(private readonly limits: Pick<BodiesConfig, 'uploadsPerAddress' | 'uploadsPerAgency'>) {}

  /** Takes a slot for the request until its answer is over, or answers 429. */
  take(request: FastifyRequest, reply: FastifyReply): void {
    const tenantId = request.accessClaims?.tenantId;
    const slots: [key: string, limit: number, refusal: string][] = [
      [`address ${request.ip}`, this.limits.uploadsPerAddress, 'from this address'],
      ...(tenantId
        ? [
            [`agency ${tenantId}`, this.limits.uploadsPerAgency, 'into this agency'] as [
              string,
              number,
              string,
            ],
          ]
        : []),
    ];
    for (const [key, limit, refusal] of slots) {
      if ((this.#held.get(key) ?? 0) >= limit) {
        throw new HttpError(
          429,
          {
            detail: `${limit} uploads are on their way ${refusal} already: send this one when they are done.`,
          },
          { 'retry-after': '10' },
        );
      }
    }
    for (const [key] of slots) this.#held.set(key, (this.#held.get(key) ?? 0) + 1);
    reply.raw.once('close', () => {
      for (const [key] of slots) {
        const left = (this.#held.get(key) ?? 1) - 1;
        if (left > 0) this.#held.set(key, left);
        else this.#held.delete(key);
      }
    });
  }
}

/** Takes one of the app's upload slots for a file form until it is answered, or answers 429. */
export const takeUploadSlot = (request: FastifyRequest, reply: FastifyReply) =>
  request.server.uploadSlots.take(request, reply);
