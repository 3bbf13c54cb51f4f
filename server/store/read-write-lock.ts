/**
 * Many readers or one writer. A waiting writer goes before readers that come after it, so a steady
 * stream of reads never starves writes. Resolves to the function that releases what was taken.
 */
export class ReadWriteLock {
  #readers = 0;
  #writing = false;
  readonly #queue: { write: boolean; grant: () => void }[] = [];

  read(): Promise<() => void> {
    if (!this.#writing && this.#queue.length === 0) {
      this.#readers++;
      return Promise.resolve(this.#releaseRead);
    }
    return new Promise((resolve) => this.#queue.push({ write: false, grant: () => resolve(this.#releaseRead) }));
  }

  write(): Promise<() => void> {
    if (!this.#writing && this.#readers === 0 && this.#queue.length === 0) {
      this.#writing = true;
      return Promise.resolve(this.#releaseWrite);
    }
    return new Promise((resolve) => this.#queue.push({ write: true, grant: () => resolve(this.#releaseWrite) }));
  }

  readonly #releaseRead = () => {
    this.#readers--;
    this.#next();
  };

  readonly #releaseWrite = () => {
    this.#writing = false;
    this.#next();
  };

  #next(): void {
    while (this.#queue.length && !this.#writing) {
      const head = this.#queue[0];
      if (head.write) {
        if (this.#readers > 0) return;
        this.#queue.shift();
        this.#writing = true;
        head.grant();
        return;
      }
      this.#queue.shift();
      this.#readers++;
      head.grant();
    }
  }
}
