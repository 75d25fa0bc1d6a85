import { errorMessage } from './error-message.js';
import type { TokenStore } from './tokens.js';

/** A failed call: the HTTP status (0 when the server was never reached) and the parsed body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(errorMessage(body));
    this.name = 'ApiError';
  }
}

/** Calls that must not carry a bearer token: signing in, registering, password reset, the demo. */
const ANONYMOUS_PATHS = [
  '/token/',
  '/token/refresh/',
  '/token/revoke/',
  '/token/mfa/',
  '/accounts/register/',
  '/accounts/password-reset/',
  '/accounts/password-reset/confirm/',
  '/accounts/login/demo/',
  '/team/invitations/preview/',
  '/team/invitations/accept/',
];

/** Whether a call goes without the bearer token, whatever its query (the demo's `?role=`). */
const isAnonymous = (path: string) => ANONYMOUS_PATHS.includes(path.split('?')[0] ?? path);

const RETRY_DELAYS_MS = [1000, 2000, 4000];
const IDEMPOTENT_METHODS = ['GET', 'HEAD', 'PUT', 'DELETE'];
const MAX_RETRY_DELAY_MS = 5000;

export interface HttpClientOptions {
  tokens: TokenStore;
  /** 30 s for the main client, 10 s for the secondary one. */
  timeoutMs: number;
  /**
   * The secondary client does not refresh: a 401 while a token is held signs the user out at once.
   */
  secondary?: boolean;
  /** Called once refreshing has failed (or, on the secondary client, on a 401): the app signs out. */
  onSessionEnded?: () => void;
  baseUrl?: string;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  /**
   * Retry network errors, timeouts and 5xx. On by default for GET, HEAD, PUT and DELETE; a POST or
   * PATCH is retried only when asked, since repeating one could record something twice or act on a
   * state the first attempt already changed.
   */
  retry?: boolean;
  /** For a download: called with the bytes received so far as the file streams in. */
  onProgress?: (bytes: number) => void;
}

/** A file the API made (an export): its bytes and the name the server gave it. */
export interface DownloadedFile {
  blob: Blob;
  filename: string | null;
}

export interface HttpClient {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  delete<T>(path: string, options?: RequestOptions): Promise<T>;
  /** GETs a file with the same token, refresh, retries and error text as any other call. */
  download(path: string, options?: RequestOptions): Promise<DownloadedFile>;
}

/**
 * How a successful answer is read: JSON for calls, the bytes for a file. The client's deadline is for
 * the server to start answering; a file may then stream for longer (a whole book's PDF takes its
 * time), so `streams` lifts the deadline once the headers are in.
 */
interface Reading {
  accept: string;
  streams: boolean;
  read(response: Response, init: RequestOptions): Promise<unknown>;
}

const JSON_ANSWER: Reading = { accept: 'application/json', streams: false, read: readBody };
const FILE_ANSWER: Reading = {
  accept: '*/*',
  streams: true,
  read: async (response, init): Promise<DownloadedFile> => ({
    blob: await readBytes(response, init.onProgress),
    filename: attachmentName(response.headers.get('content-disposition')),
  }),
};

/** A file's bytes, counted as they arrive. */
async function readBytes(response: Response, onProgress?: (bytes: number) => void): Promise<Blob> {
  if (!response.body || !onProgress) return response.blob();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress(received);
  }
  return new Blob(chunks, { type: response.headers.get('content-type') ?? '' });
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const baseUrl = options.baseUrl ?? '/api';
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const sleep = options.sleep ?? defaultSleep;
  // Refresh tokens are single-use: calls that hit 401 together must share one refresh.
  let refreshing: Promise<boolean> | null = null;

  function refreshTokens(): Promise<boolean> {
    refreshing ??= (async () => {
      const sent = options.tokens.refresh();
      if (!sent) return false;
      // Another tab may refresh at the same moment, or the user may sign out meanwhile: only the
      // token still stored when the answer arrives decides what happens next.
      const stillCurrent = () => options.tokens.refresh() === sent;
      try {
        const pair = await send<{ access: string; refresh: string }>('POST', '/token/refresh/', {
          body: { refresh: sent },
        });
        if (!stillCurrent()) return options.tokens.refresh() !== null;
        options.tokens.set(pair);
        return true;
      } catch {
        return !stillCurrent() && options.tokens.refresh() !== null;
      }
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  function endSession() {
    options.tokens.clear();
    options.onSessionEnded?.();
  }

  /** One HTTP exchange with its timeout; throws ApiError for anything but 2xx. */
  async function send<T>(
    method: string,
    path: string,
    init: RequestOptions,
    reading = JSON_ANSWER,
  ): Promise<T> {
    const headers: Record<string, string> = { accept: reading.accept };
    const token = options.tokens.access();
    if (token && !isAnonymous(path)) headers.authorization = `Bearer ${token}`;
    // A file (an import's spreadsheet) goes as it is, a form with a file (a support ticket) as
    // multipart/form-data with the boundary the browser writes into its type; everything else as JSON.
    const isFile = init.body instanceof Blob;
    const isForm = init.body instanceof FormData;
    if (init.body !== undefined && !isForm) {
      headers['content-type'] = isFile
        ? (init.body as Blob).type || 'application/octet-stream'
        : 'application/json';
    }

    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
    let response: Response;
    try {
      response = await doFetch(buildUrl(baseUrl, path, init.query), {
        method,
        headers,
        body:
          init.body === undefined
            ? undefined
            : isFile || isForm
              ? (init.body as Blob | FormData)
              : JSON.stringify(init.body),
        signal,
      });
    } catch (error) {
      clearTimeout(timer);
      if (init.signal?.aborted) throw error;
      const timedOut = deadline.signal.aborted;
      throw new ApiError(0, {
        detail: timedOut
          ? 'The server took too long to answer. Please try again.'
          : 'Could not reach Coverdesk. Check your connection and try again.',
      });
    }
    if (reading.streams) clearTimeout(timer);
    try {
      if (!response.ok) throw new ApiError(response.status, await readBody(response));
      return (await reading.read(response, init)) as T;
    } finally {
      clearTimeout(timer);
    }
  }

  async function request<T>(
    method: string,
    path: string,
    init: RequestOptions = {},
    reading = JSON_ANSWER,
  ): Promise<T> {
    const retryable = init.retry ?? IDEMPOTENT_METHODS.includes(method);
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      try {
        return await send<T>(method, path, init, reading);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        const hadToken = options.tokens.access() !== null && !isAnonymous(path);
        if (error.status === 401 && hadToken) {
          if (options.secondary) {
            endSession();
            throw error;
          }
          if (!refreshed && options.tokens.refresh()) {
            refreshed = true;
            if (await refreshTokens()) {
              attempt--;
              continue;
            }
          }
          endSession();
          throw error;
        }
        const transient = error.status === 0 || error.status >= 500;
        if (!retryable || !transient || attempt >= RETRY_DELAYS_MS.length) throw error;
        await sleep(Math.min(RETRY_DELAYS_MS[attempt] ?? MAX_RETRY_DELAY_MS, MAX_RETRY_DELAY_MS));
      }
    }
  }

  return {
    request,
    get: (path, init) => request('GET', path, init),
    post: (path, body, init) => request('POST', path, { ...init, body }),
    put: (path, body, init) => request('PUT', path, { ...init, body }),
    patch: (path, body, init) => request('PATCH', path, { ...init, body }),
    delete: (path, init) => request('DELETE', path, init),
    download: (path, init) => request('GET', path, init, FILE_ANSWER),
  };
}

/** The file name of `Content-Disposition: attachment; filename="..."` (or its UTF-8 `filename*`). */
function attachmentName(header: string | null): string | null {
  if (!header) return null;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // A malformed encoding falls back to the plain name.
    }
  }
  return (
    /filename\s*=\s*"([^"]*)"/i.exec(header)?.[1] ?? /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1] ?? null
  );
}

function buildUrl(baseUrl: string, path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
