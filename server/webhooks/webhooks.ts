import type { z } from 'zod';
import type { WebhookEndpointUpdate } from '../../api/webhooks.ts';
import { msNow, type Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { DEFAULT_EVENT_RETENTION_DAYS, type Events } from '../events/events.ts';
import type { Owner } from '../events/owner.ts';
import type { Logger } from '../logger.ts';
import type { PgStore } from '../store/pg-store.ts';
import type { Store } from '../store/store.ts';
import { MemoryClaims, type DeliveryClaims } from './claims.ts';
import { Deliverer } from './deliverer.ts';
import { Deliveries } from './deliveries.ts';
import { WebhookEndpoints } from './endpoints.ts';
import { PgClaims } from './pg-claims.ts';
import { DEFAULT_RETRY_SCHEDULE, DEFAULT_WEBHOOK_TIMEOUT_MS, parseRetrySchedule } from './retry-schedule.ts';

/**
 * Webhook endpoints and the delivery of events to them: the endpoints (endpoints.ts), the outbox of
 * deliveries filled in each event's transaction (deliveries.ts), and the loop that sends them
 * (deliverer.ts), started only by a serving process (start()), never by a CLI command.
 */
export class Webhooks {
  readonly endpoints: WebhookEndpoints;
  readonly deliveries: Deliveries;
  readonly deliverer: Deliverer;
  readonly #claims: DeliveryClaims;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    events: Events,
    config: Config,
    logger: Logger,
  ) {
    const timeoutMs = config.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
    const allowPrivate = config.webhookAllowPrivate ?? true;
    this.endpoints = new WebhookEndpoints(store, clock, allowPrivate);
    this.deliveries = new Deliveries(store, clock, this.endpoints, events, config.webhookRetrySchedule ?? parseRetrySchedule(DEFAULT_RETRY_SCHEDULE), config.eventRetentionDays ?? DEFAULT_EVENT_RETENTION_DAYS, () =>
      this.deliverer.poke(),
    );
    this.#claims = store.engine === 'postgres' ? new PgClaims(store as PgStore) : new MemoryClaims(this.deliveries, this.endpoints);
    this.deliverer = new Deliverer(clock, this.#claims, this.deliveries, this.endpoints, events, logger, {
      timeoutMs,
      allowPrivate,
      pollMs: config.webhookPollMs ?? 1_000,
      maxInFlight: 64,
      perEndpoint: 8,
    });
  }

  start(): void {
    this.deliverer.start();
  }

  stop(): Promise<void> {
    return this.deliverer.stop();
  }

  async update(owner: Owner, id: string, input: z.output<typeof WebhookEndpointUpdate>) {
    const updated = await this.endpoints.update(owner, id, input);
    // Deliveries that waited while it was disabled are due again.
    if (input.disabled === false) this.store.afterCommit(this.deliverer.poke);
    return updated;
  }

  async delete(owner: Owner, id: string) {
    await this.endpoints.delete(owner, id);
    await this.deliveries.forgetEndpoint(id);
    return { id, object: 'webhook_endpoint' as const, deleted: true as const };
  }

  retry(owner: Owner, eventId: string, endpointId: string) {
    return this.deliveries.retry(owner, eventId, endpointId, (row) => this.#claims.inFlight(row, msNow(this.clock)));
  }
}
