// autocannon ships no types and @types/autocannon describes version 7; this covers only the part of
// the 9.x programmatic API that the benchmark uses.
declare module 'autocannon' {
  export interface AutocannonRequest {
    method?: 'GET' | 'POST';
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  /** One connection. */
  export interface AutocannonClient {
    setRequests(requests: AutocannonRequest[]): void;
  }

  export interface AutocannonOptions {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds a request may take before it counts as a timeout. */
    timeout?: number;
    /** Each connection cycles through these in order. */
    requests?: AutocannonRequest[];
    /** Called as each connection is made (warm-up connections included). */
    setupClient?: (client: AutocannonClient) => void;
    /** Run first, then discarded from the results. */
    warmup?: { connections?: number; duration?: number };
  }

  /** Milliseconds, from a histogram with 1 ms resolution; only 2xx responses are counted. */
  export interface LatencyStats {
    average: number;
    max: number;
    p50: number;
    p97_5: number;
    p99: number;
  }

  /** Per-second samples. */
  export interface RequestStats {
    average: number;
    total: number;
    sent: number;
  }

  export interface AutocannonResult {
    duration: number;
    latency: LatencyStats;
    requests: RequestStats;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  /** A run: resolves with the totals, and reports each response as it arrives (time in ms). */
  export interface AutocannonInstance extends PromiseLike<AutocannonResult> {
    on(
      event: 'response',
      listener: (client: AutocannonClient, statusCode: number, bytes: number, milliseconds: number) => void,
    ): void;
  }

  export default function autocannon(options: AutocannonOptions): AutocannonInstance;
}
