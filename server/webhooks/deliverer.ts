import type http from 'node:http';
import { msNow, type Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import { isOutage } from '../store/pg-availability.ts';
import { eventView, type Events } from '../events/events.ts';
import { itemBytes } from '../http/json-text.ts';
import type { DeliveryClaims } from './claims.ts';
import type { Claim, Deliveries, FinishedAttempt } from './deliveries.ts';
import { signingSecrets, type EndpointRow, type WebhookEndpoints } from './endpoints.ts';
import { endpointAgent, send } from './send.ts';
import { signedHeaders } from './signature.ts';

export interface DelivererOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** How often due deliveries are looked for beside the pokes (retries, other processes' leftovers). */
  pollMs: number;
  /** Requests in flight in this process, in all. */
  maxInFlight: number;
  /** Requests in flight in this process to one endpoint: a slow receiver holds these, never the others'. */
  perEndpoint: number;
}

export const USER_AGENT = 'CPE-Webhooks/1.0 (+https://www.standardwebhooks.com)';

/** Claims held (posting or waiting to be recorded) at most, so outcomes waiting for a commit stay bounded. */
const MAX_HELD = 512;
/** Outcomes recorded in one transaction at most. */
const BATCH = 128;

/**
 * The delivery loop of one process: claims due deliveries (claims.ts: one attempt in flight per
 * event and endpoint, across processes), posts each signed event, and records the outcomes, many
 * in one transaction. A request holds its endpoint's place (`perEndpoint`) only while it is out; its
 * claim is held until its outcome is recorded. Poked after each commit that made a delivery due, and
 * polled for retries coming due.
 */
export class Deliverer {
  /** Requests out per endpoint. */
  readonly #busy = new Map<string, number>();
  /** Every claim held, until its outcome is recorded (or dropped). */
  readonly #running = new Set<Promise<void>>();
  readonly #agents = new Map<string, http.Agent>();
  /** Outcomes waiting to be recorded, and what each one's claim waits on (told whether it was). */
  #finished: { attempt: FinishedAttempt; done: (recorded: boolean) => void }[] = [];
  #recording = false;
  #posting = 0;
  #timer?: NodeJS.Timeout;
  #stopped = true;
  #scheduled = false;
  /** The tick under way, if any. */
  #ticking?: Promise<number>;
  #again = false;

  constructor(
    private readonly clock: Clock,
    private readonly claims: DeliveryClaims,
    private readonly deliveries: Deliveries,
    private readonly endpoints: WebhookEndpoints,
    private readonly events: Events,
    private readonly logger: Logger,
    private readonly options: DelivererOptions,
  ) {}

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#timer = setInterval(() => this.poke(), this.options.pollMs).unref();
    this.poke();
  }

  /** Looks for due deliveries soon (once, however many pokes come before it does). */
  readonly poke = (): void => {
    if (this.#stopped || this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#tick();
    });
  };

  /** Stops claiming, and waits for the attempts under way (their outcomes are recorded). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    while (this.#running.size) await Promise.allSettled([...this.#running]);
    await this.claims.stop?.();
    for (const agent of this.#agents.values()) agent.destroy();
    this.#agents.clear();
  }

  /**
   * Sends everything due now and waits until those attempts, and the ones due after them, are
   * recorded (tests: after moving a ManualClock; never a wait on the wall clock).
   */
  async drain(): Promise<void> {
    for (;;) {
      const started = await this.#tick();
      if (started === 0 && this.#running.size === 0) return;
      await Promise.allSettled([...this.#running]);
    }
  }

  /** Claims what is due and starts its attempts; answers how many it started. */
  #tick(): Promise<number> {
    if (this.#ticking) {
      this.#again = true;
      return this.#ticking;
    }
    this.#ticking = this.#claimDue().finally(() => (this.#ticking = undefined));
    return this.#ticking;
  }

  async #claimDue(): Promise<number> {
    let started = 0;
    try {
      do {
        this.#again = false;
        const free = Math.min(this.options.maxInFlight - this.#posting, MAX_HELD - this.#running.size);
        if (free <= 0 || this.#stopped) break;
        const claims = await this.claims.claim(msNow(this.clock), free, this.#busy, this.options.perEndpoint);
        for (const claim of claims) this.#start(claim);
        started += claims.length;
        // A full batch: more may be due.
        if (claims.length === free) this.#again = true;
      } while (this.#again && !this.#stopped);
    } catch (error) {
      // An outage is logged once by the store, not again at each poll that meets it.
      if (!isOutage(error)) this.logger.log('error', 'webhook claims failed', { error: (error as Error).name, message: (error as Error).message });
    }
    return started;
  }

  #start(claim: Claim): void {
    const endpoint = claim.row.endpoint_id;
    this.#posting++;
    this.#busy.set(endpoint, (this.#busy.get(endpoint) ?? 0) + 1);
    // The endpoint's place is free once the answer is in; the claim, once the outcome is recorded.
    const posted = () => {
      this.#posting--;
      const left = (this.#busy.get(endpoint) ?? 1) - 1;
      if (left) this.#busy.set(endpoint, left);
      else this.#busy.delete(endpoint);
      this.poke();
    };
    const run = this.#attempt(claim, posted)
      .catch((error: Error) => {
        if (!isOutage(error)) this.logger.log('error', 'webhook attempt failed', { delivery: claim.row.id, error: error.name, message: error.message });
        return false;
      })
      .then((recorded) => this.claims.release(claim, recorded))
      .catch((error: Error) => {
        if (!isOutage(error)) this.logger.log('error', 'webhook claim not given back', { delivery: claim.row.id, error: error.name, message: error.message });
      })
      .finally(() => {
        this.#running.delete(run);
        this.poke();
      });
    this.#running.add(run);
  }

  /** One attempt; answers whether its outcome was recorded. */
  async #attempt(claim: Claim, posted: () => void): Promise<boolean> {
    let attempt: FinishedAttempt | undefined;
    try {
      const [endpoint, event] = await Promise.all([claim.endpoint ?? this.endpoints.get(claim.row.endpoint_id), claim.event ?? this.events.byId(claim.row.event_id)]);
      if (!endpoint || !event) {
        await this.deliveries.drop(claim.row.id);
        return true;
      }
      // The event as GET /v1/events/:id answers it (its JSON made once), signed with every secret that signs now.
      const body = itemBytes(eventView(event));
      const timestamp = this.clock.now();
      const headers = { ...signedHeaders(signingSecrets(endpoint, timestamp), event.id, timestamp, body), 'user-agent': USER_AGENT };
      const url = this.#url(endpoint.url);
      const outcome = await send(url, headers, body, { timeoutMs: this.options.timeoutMs, allowPrivate: this.options.allowPrivate, agent: this.#agent(endpoint, url) });
      attempt = { claim, endpoint, event, outcome };
    } finally {
      posted();
    }
    return new Promise<boolean>((done) => {
      this.#finished.push({ attempt: attempt!, done });
      this.#record();
    });
  }

  /** Records the outcomes waiting, a batch per transaction, one transaction at a time. */
  #record(): void {
    if (this.#recording) return;
    this.#recording = true;
    void (async () => {
      while (this.#finished.length) {
        const batch = this.#finished.splice(0, BATCH);
        let recorded: boolean[] = [];
        try {
          recorded = await this.deliveries.finish(
            batch.map((item) => item.attempt),
            (row, claim) => this.claims.holds(row, claim),
          );
        } catch (error) {
          // Not recorded: the deliveries stay pending (their claims are given back), and are attempted again.
          if (!isOutage(error)) this.logger.log('error', 'webhook outcomes not recorded', { attempts: batch.length, error: (error as Error).name, message: (error as Error).message });
        }
        batch.forEach((item, i) => item.done(recorded[i] ?? false));
      }
    })().finally(() => {
      this.#recording = false;
      if (this.#finished.length) this.#record();
    });
  }

  /** Endpoints' URLs, parsed once. */
  readonly #urls = new Map<string, URL>();
  #url(text: string): URL {
    let url = this.#urls.get(text);
    if (!url) {
      if (this.#urls.size > 1_000) this.#urls.clear();
      this.#urls.set(text, (url = new URL(text)));
    }
    return url;
  }

  /** Kept-alive connections per endpoint and origin (a changed URL gets new ones). */
  #agent(endpoint: EndpointRow, url: URL): http.Agent {
    const key = `${endpoint.id} ${url.origin}`;
    let agent = this.#agents.get(key);
    if (!agent) this.#agents.set(key, (agent = endpointAgent(url, this.options.perEndpoint, this.options.allowPrivate)));
    return agent;
  }
}
