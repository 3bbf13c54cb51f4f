/**
 * A bounded cache of recent entries in two generations: lookups hit the current one, or the previous
 * one (and move there); when the current one is full it becomes the previous and the oldest entries
 * go. So it holds at most twice `size` entries, and what is read often stays.
 */
export class Recent<K, V> {
  #current = new Map<K, V>();
  #previous = new Map<K, V>();

  constructor(private readonly size: number) {}

  get(key: K): V | undefined {
    const hit = this.#current.get(key);
    if (hit !== undefined) return hit;
    const old = this.#previous.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  set(key: K, value: V): void {
    if (this.#current.size >= this.size) {
      this.#previous = this.#current;
      this.#current = new Map();
    }
    this.#current.set(key, value);
  }
}
