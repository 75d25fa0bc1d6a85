import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * How long requests took, per route, kept in this process's memory for the admin's performance
 * screen. Memory does not grow with traffic: each route (its method and pattern, never the raw URL)
 * keeps 60 one-minute buckets for the last hour and 24 one-hour buckets for the last day, reused in
 * turn, and each bucket holds a fixed histogram of durations rather than the durations themselves.
 * A sample would have to be small to stay cheap and would lose the slow tail p99 is about; a
 * histogram counts every request, and with bins growing by a quarter each its percentiles are within
 * about an eighth of the true value (the middle of the bin, kept within the fastest and slowest seen).
 */

/** The lower edge of the first bin, in milliseconds; anything faster counts in the first bin. */
const SMALLEST_MS = 0.1;
const BIN_GROWTH = 1.25;
/** 64 bins reach about 130 seconds; anything slower counts in the last bin. */
export const BIN_COUNT = 64;

/** The bin a duration falls in. */
export function binOf(durationMs: number): number {
  if (!(durationMs > SMALLEST_MS)) return 0;
  const bin = Math.floor(Math.log(durationMs / SMALLEST_MS) / Math.log(BIN_GROWTH));
  return Math.min(bin, BIN_COUNT - 1);
}

/** The middle of a bin (geometric, as the bins grow by a factor), in milliseconds. */
const middleOf = (bin: number) => SMALLEST_MS * BIN_GROWTH ** (bin + 0.5);

/** Requests counted over one span of time. */
export interface Bucket {
  count: number;
  errors: number;
  minMs: number;
  maxMs: number;
  bins: Uint32Array;
}

const emptyBucket = (): Bucket => ({
  count: 0,
  errors: 0,
  minMs: Number.POSITIVE_INFINITY,
  maxMs: 0,
  bins: new Uint32Array(BIN_COUNT),
});

function add(bucket: Bucket, durationMs: number, failed: boolean): void {
  bucket.count += 1;
  if (failed) bucket.errors += 1;
  bucket.minMs = Math.min(bucket.minMs, durationMs);
  bucket.maxMs = Math.max(bucket.maxMs, durationMs);
  const bin = binOf(durationMs);
  bucket.bins[bin] = (bucket.bins[bin] ?? 0) + 1;
}

function merge(buckets: Bucket[]): Bucket {
  const total = emptyBucket();
  for (const bucket of buckets) {
    total.count += bucket.count;
    total.errors += bucket.errors;
    total.minMs = Math.min(total.minMs, bucket.minMs);
    total.maxMs = Math.max(total.maxMs, bucket.maxMs);
    for (let bin = 0; bin < BIN_COUNT; bin++)
      total.bins[bin] = (total.bins[bin] ?? 0) + (bucket.bins[bin] ?? 0);
  }
  return total;
}

/**
 * The duration `quantile` (0.95 for p95) of the requests of a bucket: the nearest-rank request's
 * bin, read as its middle and kept within the fastest and slowest request counted.
 */
export function percentile(bucket: Bucket, quantile: number): number {
  if (bucket.count === 0) return 0;
  const rank = Math.max(1, Math.ceil(quantile * bucket.count));
  let seen = 0;
  for (let bin = 0; bin < BIN_COUNT; bin++) {
    seen += bucket.bins[bin] ?? 0;
    if (seen >= rank) return Math.min(bucket.maxMs, Math.max(bucket.minMs, middleOf(bin)));
  }
  return bucket.maxMs;
}

/** A fixed number of buckets, each for one span of time, reused once its span has passed. */
class Ring {
  readonly #spans: number[];
  readonly #buckets: Bucket[];

  constructor(
    private readonly length: number,
    private readonly spanMs: number,
  ) {
    this.#spans = new Array<number>(length).fill(-1);
    this.#buckets = Array.from({ length }, emptyBucket);
  }

  add(at: number, durationMs: number, failed: boolean): void {
    const span = Math.floor(at / this.spanMs);
    const slot = span % this.length;
    if (this.#spans[slot] !== span) {
      this.#spans[slot] = span;
      this.#buckets[slot] = emptyBucket();
    }
    add(this.#buckets[slot] as Bucket, durationMs, failed);
  }

  /** The buckets of the last `length` spans, the current one included. */
  recent(at: number): Bucket {
    const current = Math.floor(at / this.spanMs);
    return merge(this.#buckets.filter((_, slot) => (this.#spans[slot] ?? -1) > current - this.length));
  }
}

export const TIMING_WINDOWS = {
  /** The current minute and the 59 before it. */
  hour: { length: 60, spanMs: 60_000 },
  /** The current hour and the 23 before it. */
  day: { length: 24, spanMs: 3_600_000 },
} as const;
export type TimingWindow = keyof typeof TIMING_WINDOWS;

export interface RouteFigures {
  method: string;
  route: string;
  count: number;
  errors: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** Requests that matched no route are counted together, so made-up URLs add no rows. */
export const UNMATCHED_ROUTE = '(no matching route)';
/** The web app's files, each a route of its own, are counted together: the API's routes are what the screen is for. */
export const WEB_APP_FILES = '(web app files)';

export class RouteTimings {
  readonly startedAt: Date;
  readonly #routes = new Map<string, { method: string; route: string; rings: Record<TimingWindow, Ring> }>();

  constructor(private readonly now: () => number = Date.now) {
    this.startedAt = new Date(now());
  }

  /** One answered request; `failed` for a server error. */
  record(method: string, route: string | undefined, durationMs: number, failed: boolean): void {
    const pattern = route ?? UNMATCHED_ROUTE;
    const key = `${method} ${pattern}`;
    let timings = this.#routes.get(key);
    if (!timings) {
      timings = {
        method,
        route: pattern,
        rings: {
          hour: new Ring(TIMING_WINDOWS.hour.length, TIMING_WINDOWS.hour.spanMs),
          day: new Ring(TIMING_WINDOWS.day.length, TIMING_WINDOWS.day.spanMs),
        },
      };
      this.#routes.set(key, timings);
    }
    const at = this.now();
    timings.rings.hour.add(at, durationMs, failed);
    timings.rings.day.add(at, durationMs, failed);
  }

  /** Every route requested within the window, with its figures. */
  figures(window: TimingWindow): RouteFigures[] {
    const at = this.now();
    return [...this.#routes.values()].flatMap(({ method, route, rings }) => {
      const bucket = rings[window].recent(at);
      if (bucket.count === 0) return [];
      return [
        {
          method,
          route,
          count: bucket.count,
          errors: bucket.errors,
          p50Ms: percentile(bucket, 0.5),
          p95Ms: percentile(bucket, 0.95),
          p99Ms: percentile(bucket, 0.99),
          maxMs: bucket.maxMs,
        },
      ];
    });
  }
}

/**
 * What a request is counted under: its API route's pattern, the web app's files together, or
 * undefined when no route matched. The timings here and the Prometheus metrics both count by it, so
 * neither grows a row per URL.
 */
export function routeOf(request: FastifyRequest): string | undefined {
  const route = request.routeOptions.url;
  return route === undefined || route.startsWith('/api/') ? route : WEB_APP_FILES;
}

/** Times every answered request of the app, by `routeOf`; server errors count as errors. */
export function registerRouteTimings(app: FastifyInstance, timings: RouteTimings): void {
  app.addHook('onResponse', async (request, reply) => {
    timings.record(request.method, routeOf(request), reply.elapsedTime, reply.statusCode >= 500);
  });
}
