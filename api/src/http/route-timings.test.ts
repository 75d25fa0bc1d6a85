import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  BIN_COUNT,
  binOf,
  percentile,
  RouteTimings,
  registerRouteTimings,
  UNMATCHED_ROUTE,
  WEB_APP_FILES,
} from './route-timings.js';

/** A clock the test moves by hand. */
function clock(start = Date.UTC(2026, 10, 25, 12, 0, 30)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('latency bins', () => {
  it('grow with the duration and stop at the last bin', () => {
    expect(binOf(0)).toBe(0);
    expect(binOf(1)).toBeLessThan(binOf(10));
    expect(binOf(10)).toBeLessThan(binOf(100));
    expect(binOf(10 * 60_000)).toBe(BIN_COUNT - 1);
  });

  it('read percentiles within an eighth of the true values', () => {
    const time = clock();
    const timings = new RouteTimings(time.now);
    // 1 ms to 1000 ms in even steps: the true p50 is 500, p95 950, p99 990.
    for (let ms = 1; ms <= 1000; ms++) timings.record('GET', '/api/customers/', ms, false);
    const [figures] = timings.figures('hour');
    expect(figures?.count).toBe(1000);
    for (const [found, truth] of [
      [figures?.p50Ms, 500],
      [figures?.p95Ms, 950],
      [figures?.p99Ms, 990],
    ] as const) {
      expect(Math.abs((found ?? 0) - truth) / truth).toBeLessThan(0.125);
    }
    expect(figures?.maxMs).toBe(1000);
  });

  it('never reads a percentile outside the fastest and slowest request', () => {
    const bucket = { count: 2, errors: 0, minMs: 7, maxMs: 7.2, bins: new Uint32Array(BIN_COUNT) };
    bucket.bins[binOf(7)] = 2;
    expect(percentile(bucket, 0.5)).toBeGreaterThanOrEqual(7);
    expect(percentile(bucket, 0.99)).toBeLessThanOrEqual(7.2);
  });
});

describe('route timings', () => {
  it("counts the web app's files together and keeps the API's route patterns", async () => {
    const app = Fastify();
    const timings = new RouteTimings();
    registerRouteTimings(app, timings);
    app.get('/api/customers/:id/', async () => ({}));
    app.get('/assets/index-1.js', async () => '');
    app.get('/assets/index-2.js', async () => '');
    for (const url of [
      '/api/customers/1/',
      '/api/customers/2/',
      '/assets/index-1.js',
      '/assets/index-2.js',
      '/nowhere',
    ]) {
      await app.inject({ method: 'GET', url });
    }
    expect(timings.figures('hour').map(({ route, count }) => ({ route, count }))).toEqual([
      { route: '/api/customers/:id/', count: 2 },
      { route: WEB_APP_FILES, count: 2 },
      { route: UNMATCHED_ROUTE, count: 1 },
    ]);
    await app.close();
  });

  it('keeps a route by method and pattern, and counts server errors', () => {
    const timings = new RouteTimings(clock().now);
    timings.record('GET', '/api/customers/:id/', 5, false);
    timings.record('GET', '/api/customers/:id/', 6, true);
    timings.record('DELETE', '/api/customers/:id/', 5, false);
    timings.record('GET', undefined, 1, false);
    expect(
      timings.figures('hour').map(({ method, route, count, errors }) => ({ method, route, count, errors })),
    ).toEqual([
      { method: 'GET', route: '/api/customers/:id/', count: 2, errors: 1 },
      { method: 'DELETE', route: '/api/customers/:id/', count: 1, errors: 0 },
      { method: 'GET', route: UNMATCHED_ROUTE, count: 1, errors: 0 },
    ]);
  });

  it('forgets requests older than the window, in the same fixed buckets', () => {
    const time = clock();
    const timings = new RouteTimings(time.now);
    timings.record('GET', '/api/policies/', 10, false);
    time.advance(30 * 60_000);
    timings.record('GET', '/api/policies/', 10, false);
    expect(timings.figures('hour')[0]?.count).toBe(2);

    // 61 minutes after the first: it has left the hour but not the day.
    time.advance(31 * 60_000);
    expect(timings.figures('hour')[0]?.count).toBe(1);
    expect(timings.figures('day')[0]?.count).toBe(2);

    // Two days of traffic, a request a minute, reuse the same buckets: only the last hour and day count.
    for (let minute = 0; minute < 2 * 24 * 60; minute++) {
      time.advance(60_000);
      timings.record('GET', '/api/policies/', 10, false);
    }
    expect(timings.figures('hour')[0]?.count).toBe(60);
    // The current hour and the 23 before it, the current one partly through.
    expect(timings.figures('day')[0]?.count).toBeGreaterThan(23 * 60);
    expect(timings.figures('day')[0]?.count).toBeLessThanOrEqual(24 * 60);

    // A route with no request left in the window is not listed.
    time.advance(25 * 3_600_000);
    expect(timings.figures('day')).toEqual([]);
  });
});
