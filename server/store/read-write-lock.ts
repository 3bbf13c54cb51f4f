/**
 * Many readers or one writer. A waiting writer goes before readers that come after it, so a steady
 * stream of reads never starves writes. Resolves to the function that releases what was taken.
 */
export class ReadWriteLock {
  #readers = 0;
  #writing = false;
  readonly #queue: { write: boolean; grant: () => void }[] = [];

  read(): Promise<() => void> {
    const release = this.tryRead();
    if (release) return Promise.resolve(release);
    return new Promise((resolve) => this.#queue.push({ write: false, grant: () => resolve(this.#releaseRead) }));
  }

  write(): Promise<() => void> {
    const release = this.tryWrite();
    if (release) return Promise.resolve(release);
    return new Promise((resolve) => this.#queue.push({ write: true, grant: () => resolve(this.#releaseWrite) }));
  }

  /** Takes a read at once if it is free now (as read() would without waiting); undefined otherwise. */
  tryRead(): (() => void) | undefined {
    if (this.#writing || this.#queue.length !== 0) return undefined;
    this.#readers++;
    return this.#releaseRead;
  }

  /** Takes the write at once if it is free now (as write() would without waiting); undefined otherwise. */
  tryWrite(): (() => void) | undefined {
    if (this.#writing || this.#readers !== 0 || this.#queue.length !== 0) return undefined;
    this.#writing = true;
    return this.#releaseWrite;
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
