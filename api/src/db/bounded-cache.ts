/**
 * Values kept by key, forgetting the oldest past `limit`: for caches whose keys requests choose (a
 * list's filters, its page size), so that no request pattern can grow the process without end.
 */
export class BoundedCache<Key, Value> {
  readonly #values = new Map<Key, Value>();

  constructor(private readonly limit: number) {}

  get(key: Key, make: (key: Key) => Value): Value {
    let value = this.#values.get(key);
    if (value === undefined) {
      value = make(key);
      this.#values.set(key, value);
      if (this.#values.size > this.limit) this.#values.delete(this.#values.keys().next().value as Key);
    }
    return value;
  }

  delete(key: Key): void {
    this.#values.delete(key);
  }
}
