import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running `entry`. Entries are TypeScript under src/ when the app runs from its
 * sources, and bundled JavaScript beside main.js in dist/ (see paths.ts); TypeScript goes through a
 * small loader that compiles it, since a worker does not inherit the loader its parent was started with.
 */
export function startWorker(entry: URL, options: WorkerOptions): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  return new Worker(new URL('./ts-worker.mjs', import.meta.url), {
    ...options,
    argv: [...(options.argv ?? []), entry.href],
  });
}
