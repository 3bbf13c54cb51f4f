import type http from 'node:http';
import { msNow, type Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';
import { eventView, type Events } from '../events/events.ts';
import type { DeliveryClaims } from './claims.ts';
import type { Claim, Deliveries } from './deliveries.ts';
import { signingSecrets, type EndpointRow, type WebhookEndpoints } from './endpoints.ts';
import { endpointAgent, send } from './send.ts';
import { signedHeaders } from './signature.ts';

export interface DelivererOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** How often due deliveries are looked for beside the pokes (retries, other processes' leftovers). */
  pollMs: number;
  /** Attempts in flight in this process, in all. */
  maxInFlight: number;
  /** Attempts in flight in this process to one endpoint: a slow receiver holds these, never the others'. */
  perEndpoint: number;
}

export const USER_AGENT = 'CPE-Webhooks/1.0 (+https://www.standardwebhooks.com)';

/**
 * The delivery loop of one process: claims due deliveries (claims.ts: one attempt in flight per
 * event and endpoint, across processes), posts each signed event, and records the outcome. Poked
 * after each commit that made a delivery due, and polled for retries coming due.
 */
export class Deliverer {
  readonly #busy = new Map<string, number>();
  readonly #running = new Set<Promise<void>>();
  readonly #agents = new Map<string, http.Agent>();
  #inFlight = 0;
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
    for (const agent of this.#agents.values()) agent.destroy();
    this.#agents.clear();
  }

  /** Attempts under way in this process (tests, benchmarks). */
  get inFlight(): number {
    return this.#inFlight;
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
        const free = this.options.maxInFlight - this.#inFlight;
        if (free <= 0 || this.#stopped) break;
        const claims = await this.claims.claim(msNow(this.clock), free, this.#busy, this.options.perEndpoint);
        for (const claim of claims) this.#start(claim);
        started += claims.length;
        // A full batch: more may be due.
        if (claims.length === free) this.#again = true;
      } while (this.#again && !this.#stopped);
    } catch (error) {
      this.logger.log('error', 'webhook claims failed', { error: (error as Error).name, message: (error as Error).message });
    }
    return started;
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

  #start(claim: Claim): void {
    const endpoint = claim.row.endpoint_id;
    this.#inFlight++;
    this.#busy.set(endpoint, (this.#busy.get(endpoint) ?? 0) + 1);
    const run = this.#attempt(claim)
      .catch((error: Error) => this.logger.log('error', 'webhook attempt failed', { delivery: claim.row.id, error: error.name, message: error.message }))
      .finally(() => {
        this.claims.release(claim);
        this.#inFlight--;
        const left = (this.#busy.get(endpoint) ?? 1) - 1;
        if (left) this.#busy.set(endpoint, left);
        else this.#busy.delete(endpoint);
        this.#running.delete(run);
        this.poke();
      });
    this.#running.add(run);
  }

  async #attempt(claim: Claim): Promise<void> {
    const [endpoint, event] = await Promise.all([this.endpoints.get(claim.row.endpoint_id), this.events.byId(claim.row.event_id)]);
    if (!endpoint || !event) return this.deliveries.drop(claim.row.id);
    // The event as GET /v1/events/:id answers it, signed with every secret that signs now.
    const body = JSON.stringify(eventView(event));
    const timestamp = this.clock.now();
    const headers = { ...signedHeaders(signingSecrets(endpoint, timestamp), event.id, timestamp, body), 'user-agent': USER_AGENT };
    const url = new URL(endpoint.url);
    const outcome = await send(url, headers, body, { timeoutMs: this.options.timeoutMs, allowPrivate: this.options.allowPrivate, agent: this.#agent(endpoint, url) });
    await this.deliveries.finish(claim, endpoint, event, outcome, (row) => this.claims.holds(row, claim));
  }

  /** Kept-alive connections per endpoint and origin (a changed URL gets new ones). */
  #agent(endpoint: EndpointRow, url: URL): http.Agent {
    const key = `${endpoint.id} ${url.origin}`;
    let agent = this.#agents.get(key);
    if (!agent) this.#agents.set(key, (agent = endpointAgent(url, this.options.perEndpoint, this.options.allowPrivate)));
    return agent;
  }
}
