import type { EventEmitter } from 'node:events';
import { backoffMs, type Backoff } from './backoff.ts';

/** What a worker tells the primary: it serves (with what the banner shows), or it could not start and why. */
export type WorkerMessage = { type: 'cpe:ready'; url: string; credentials: unknown; /** a one-time dashboard sign-in link for the seeded merchant */ dashboardUrl?: string } | { type: 'cpe:failed'; error: string };

/** The part of a cluster worker the supervisor uses (node:cluster's Worker has it; tests pass their own). */
export interface SupervisedWorker extends EventEmitter {
  readonly process: { readonly pid?: number };
  kill(signal?: string): void;
}

export interface SupervisorOptions {
  /** How many workers run at once. */
  count: number;
  /**
   * Starts one worker (cluster.fork). `serving`: another worker serves now (what the first ready one
   * said), so this one should take connections only once it is ready, not answer 503 while it starts.
   */
  fork(serving: Extract<WorkerMessage, { type: 'cpe:ready' }> | undefined): SupervisedWorker;
  /** Where the supervisor's lines go (the primary's stderr). */
  say(line: string): void;
  /**
   * Called once, when the service is up: a worker serves, and every first worker has served or died
   * (so a worker that cannot start holds up neither the service nor the banner).
   */
  onUp(ready: Extract<WorkerMessage, { type: 'cpe:ready' }>): void;
  /** Called once, when every worker died before it was ready `giveUpAfter` times in a row: the configuration is broken. */
  onGiveUp(reason: string): void;
  /** The wait before a worker's replacement starts, growing while its slot keeps failing. Default 250 ms to 15 s. */
  backoff?: Backoff;
  /** A worker that has served this long resets its slot's backoff. Default 10 s. */
  stableMs?: number;
  /** Deaths before ready in a row, in every slot, that stop the service. Default 5. */
  giveUpAfter?: number;
  /** For the jitter of the backoff (tests fix it). */
  random?: () => number;
}

/** One worker's place: the worker in it now, and how its predecessors fared. */
interface Slot {
  worker?: SupervisedWorker;
  startedAt: number;
  readyAt?: number;
  /** Deaths in a row that came before a stable run: the backoff's exponent. */
  failures: number;
  /** Deaths in a row before the worker was ready. */
  unready: number;
  /** Whether a worker of this slot has served or died since the start. */
  settled: boolean;
  lastError?: string;
  timer?: NodeJS.Timeout;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * Keeps `count` workers running (CPE_PROCESSES): a worker that exits, at start or later, is logged and
 * replaced after a backoff that grows while its slot keeps failing (reset once a worker has served
 * `stableMs`). The service is up from the first worker that serves and stays up while any serves;
 * only a configuration no worker can start with (each slot's worker dying before it is ready
 * `giveUpAfter` times in a row) stops it, naming the last error a worker reported.
 */
export class Supervisor {
  readonly #slots: Slot[];
  readonly #options: Required<Omit<SupervisorOptions, 'random'>> & Pick<SupervisorOptions, 'random'>;
  #up = false;
  #stopping = false;
  /** The first ready worker's message: what onUp is told, and what a worker joining the serving ones is given. */
  #first?: Extract<WorkerMessage, { type: 'cpe:ready' }>;

  constructor(options: SupervisorOptions) {
    this.#options = { backoff: { initialMs: 250, maxMs: 15_000 }, stableMs: 10_000, giveUpAfter: 5, ...options };
    this.#slots = Array.from({ length: options.count }, () => ({ startedAt: 0, failures: 0, unready: 0, settled: false }));
  }

  start(): void {
    for (const slot of this.#slots) this.#fork(slot);
  }

  /** The process ids of the workers running now. */
  get pids(): number[] {
    return this.#slots.flatMap((slot) => (slot.worker?.process.pid === undefined ? [] : [slot.worker.process.pid]));
  }

  /** Ends every worker (SIGTERM) and starts no other; resolves once all have exited. */
  async stop(): Promise<void> {
    this.#stopping = true;
    await Promise.all(
      this.#slots.map((slot) => {
        clearTimeout(slot.timer);
        const { worker } = slot;
        if (!worker) return undefined;
        return new Promise<void>((resolve) => {
          worker.once('exit', () => resolve());
          worker.kill('SIGTERM');
        });
      }),
    );
  }

  #fork(slot: Slot): void {
    slot.timer = undefined;
    slot.readyAt = undefined;
    slot.lastError = undefined;
    slot.startedAt = Date.now();
    const worker = this.#options.fork(this.#ready > 0 ? this.#first : undefined);
    slot.worker = worker;
    worker.on('message', (message: WorkerMessage) => {
      if (message?.type === 'cpe:failed') slot.lastError = message.error;
      if (message?.type !== 'cpe:ready') return;
      slot.readyAt = Date.now();
      slot.unready = 0;
      slot.settled = true;
      this.#first ??= message;
      if (this.#up) this.#options.say(`CPE worker ${worker.process.pid} is ready (${this.#ready} of ${this.#slots.length} serving).`);
      this.#upIfSettled();
    });
    worker.once('exit', (code: number | null, signal: string | null) => this.#exited(slot, worker, signal ?? String(code)));
  }

  #upIfSettled(): void {
    if (this.#up || this.#stopping || !this.#first || this.#ready === 0 || !this.#slots.every((slot) => slot.settled)) return;
    this.#up = true;
    // How many serve as the service comes up: later workers each say "is ready" (a replacement that
    // was ready before this said nothing of its own, and a reader could not tell).
    if (this.#slots.length > 1) this.#options.say(`CPE ${this.#ready} of ${this.#slots.length} workers serving.`);
    this.#options.onUp(this.#first);
  }

  get #ready(): number {
    return this.#slots.filter((slot) => slot.worker && slot.readyAt !== undefined).length;
  }

  #exited(slot: Slot, worker: SupervisedWorker, how: string): void {
    if (slot.worker !== worker) return;
    slot.worker = undefined;
    slot.settled = true;
    if (this.#stopping) return;
    const now = Date.now();
    const wasReady = slot.readyAt !== undefined;
    const stable = wasReady && now - slot.readyAt! >= this.#options.stableMs;
    slot.failures = stable ? 1 : slot.failures + 1;
    if (!wasReady) slot.unready++;
    const { giveUpAfter } = this.#options;
    if (this.#slots.every((s) => s.unready >= giveUpAfter)) {
      this.#stopping = true;
      for (const s of this.#slots) {
        clearTimeout(s.timer);
        s.worker?.kill('SIGTERM');
      }
      const last = slot.lastError ?? `it exited (${how})`;
      this.#options.onGiveUp(`every worker died before it was ready, ${giveUpAfter} times in a row (is the configuration broken?). The last error: ${last}`);
      return;
    }
    const delay = backoffMs(slot.failures, this.#options.backoff, this.#options.random);
    // The worker said its own error on the shared stderr; the error is repeated only when the service gives up.
    const life = wasReady ? `it had served ${seconds(now - slot.readyAt!)}` : `it died before it was ready, ${slot.unready} time${slot.unready > 1 ? 's' : ''} in a row`;
    this.#options.say(`CPE worker ${worker.process.pid} exited (${how}): starting another in ${delay} ms (${life}).`);
    slot.timer = setTimeout(() => this.#fork(slot), delay);
    this.#upIfSettled();
  }
}
