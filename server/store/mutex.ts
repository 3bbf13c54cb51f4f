/** One holder at a time, the others served in the order they asked. Resolves to the function that releases it. */
export class Mutex {
  #held = false;
  readonly #queue: (() => void)[] = [];

  take(): Promise<() => void> {
    const release = this.tryTake();
    if (release) return Promise.resolve(release);
    return new Promise((resolve) => this.#queue.push(() => resolve(this.#release)));
  }

  /** Takes it at once if it is free now (as take() would without waiting); undefined otherwise. */
  tryTake(): (() => void) | undefined {
    if (this.#held || this.#queue.length !== 0) return undefined;
    this.#held = true;
    return this.#release;
  }

  readonly #release = () => {
    const next = this.#queue.shift();
    if (next) next();
    else this.#held = false;
  };
}
