/**
 * Values kept by key, forgetting the oldest past `limit`: for caches whose keys requests choose (a
 * list's filters, its page size), so that no request pattern can grow the process without end. It
 * counts its hits and misses, which the admin's cache screen shows.
 */
export class BoundedCache<Key, Value> {
  readonly #values = new Map<Key, Value>();
  #hits = 0;
  #misses = 0;

  constructor(readonly limit: number) {}

  get(key: Key, make: (key: Key) => Value): Value {
    let value = this.#values.get(key);
    if (value === undefined) {
      this.#misses += 1;
      value = make(key);
      this.#values.set(key, value);
      if (this.#values.size > this.limit) this.#values.delete(this.#values.keys().next().value as Key);
    } else {
      this.#hits += 1;
    }
    return value;
  }

  delete(key: Key): void {
    this.#values.delete(key);
  }

  /** Forgets every value: each is made again the next time it is asked for. The counts start over. */
  clear(): void {
    this.#values.clear();
    this.#hits = 0;
    this.#misses = 0;
  }

  get size(): number {
    return this.#values.size;
  }

  get hits(): number {
    return this.#hits;
  }

  get misses(): number {
    return this.#misses;
  }
}

export interface ServerCache {
  name: string;
  description: string;
  cache: BoundedCache<unknown, unknown>;
}

/** Every cache this process keeps, by name, for the admin's cache screen. */
const serverCaches = new Map<string, ServerCache>();

/** A cache the admin can see and clear; its name is unique in the process. */
export function namedCache<Key, Value>(
  name: string,
  description: string,
  limit: number,
): BoundedCache<Key, Value> {
  if (serverCaches.has(name)) throw new Error(`a server cache named ${name} exists already`);
  const cache = new BoundedCache<Key, Value>(limit);
  serverCaches.set(name, { name, description, cache: cache as BoundedCache<unknown, unknown> });
  return cache;
}

export const listServerCaches = (): ServerCache[] => [...serverCaches.values()];

export const findServerCache = (name: string): ServerCache | undefined => serverCaches.get(name);
