import type { FastifyInstance } from 'fastify';
import { multipartForm as multipartBody } from '../multipart-form.js';
import type { Method } from './route-table.js';

/** A malformed or oversized request must still be answered within this (a correctness budget). */
export const REQUEST_BUDGET_MS = 1000;

export interface ProbeRequest {
  method: Method;
  url: string;
  token?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is, for bodies JSON.stringify would not write (or would take long to), or files. */
  rawBody?: string;
  /** The raw body's type; JSON unless given (an uploaded CSV is `text/csv`). */
  contentType?: string;
}

export interface ProbeResponse {
  request: ProbeRequest;
  status: number;
  body: string;
  ms: number;
}

const clip = (text: string, length: number) =>
  text.length > length ? `${text.slice(0, length)}... (${text.length} characters)` : text;

const payloadOf = (request: ProbeRequest) =>
  request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));

/** A request as a failure message shows it: enough to replay it, never megabytes of it. */
export function describeRequest(request: ProbeRequest): string {
  const payload = payloadOf(request);
  const caller = request.token ? 'signed in' : 'anonymous';
  return `${request.method} ${clip(request.url, 200)} (${caller})${payload === undefined ? '' : ` body ${clip(payload, 300)}`}`;
}

/**
 * Sends the probe's requests through `app.inject` and counts them. Each comes from its own
 * address, so that the per-address throttles on sign-in, registration and the contact form do
 * not mistake the probe for an attack (those limits have tests of their own).
 */
export class ProbeClient {
  requests = 0;
  readonly serverErrors: string[] = [];
  slowest = { ms: 0, request: '' };

  constructor(private readonly app: FastifyInstance) {}

  private nextAddress(): string {
    const n = this.requests + 1;
    return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
  }

  async send(request: ProbeRequest): Promise<ProbeResponse> {
    const payload = payloadOf(request);
    const headers: Record<string, string> = {};
    if (request.token) headers.authorization = `Bearer ${request.token}`;
    if (payload !== undefined) headers['content-type'] = request.contentType ?? 'application/json';
    const started = performance.now();
    const response = await this.app.inject({
      method: request.method,
      url: request.url,
      remoteAddress: this.nextAddress(),
      headers,
      ...(payload === undefined ? {} : { payload }),
    });
    const ms = performance.now() - started;
    this.requests += 1;
    if (response.statusCode >= 500)
      this.serverErrors.push(`${response.statusCode} ${describeRequest(request)}`);
    if (ms > this.slowest.ms) this.slowest = { ms, request: describeRequest(request) };
    return { request, status: response.statusCode, body: response.body, ms };
  }
}

/** A form as a browser posts it (a support ticket, a statement): text fields and a small text file. */
export function multipartForm(
  fields: Record<string, string>,
  file?: { field?: string; name: string; text: string },
) {
  const form = multipartBody(
    fields,
    file && { field: file.field, name: file.name, type: 'text/plain', content: Buffer.from(file.text) },
  );
  return { rawBody: form.payload.toString(), contentType: form.headers['content-type'] };
}
