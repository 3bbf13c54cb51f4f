import type { z } from 'zod';
import type { WebhookAttempt, WebhookAttemptListQuery } from '../../api/webhooks.ts';
import { msNow, type Clock } from '../clock.ts';
import { ApiError, invalidParam, noSuch } from '../http/api-error.ts';
import { newId } from '../identity/secrets.ts';
import { expiryIndex } from '../store/expiry.ts';
import { CursorNotFound, type Collection, type Store } from '../store/store.ts';
import type { EventRow, Events } from '../events/events.ts';
import type { Owner } from '../events/owner.ts';
import { takes, type EndpointRow, type WebhookEndpoints } from './endpoints.ts';
import { retryDelay } from './retry-schedule.ts';
import type { SendOutcome } from './send.ts';

/**
 * The outbox: one row per event and endpoint that takes it, written in the event's transaction (so in
 * its change's), until an attempt succeeds or the schedule runs out; then the row goes (the attempts
 * stay). Every row is a pending delivery. Times are milliseconds.
 */
export interface DeliveryRow {
  /** `<event id>:<endpoint id>`: one delivery per event and endpoint. */
  id: string;
  owner: Owner;
  event_id: string;
  endpoint_id: string;
  /** Attempts made, manual ones included (earlier deliveries' too, after a manual retry). */
  attempts: number;
  /** Attempts the schedule made: the next delay is the schedule's entry after them. */
  scheduled: number;
  /** When the next attempt is due. */
  next_at: number;
  /** Where a manual retry found the schedule: it resumes there if that attempt fails. */
  resume_at: number | null;
  /** The next attempt is a manual one (POST /v1/events/:id/retry). */
  manual: boolean;
  /** PostgreSQL's claim (pg-claims.ts): the process whose attempt is under way, when it goes stale, its token. */
  lease_owner: number | null;
  lease_until: number | null;
  lease_token: string | null;
  created: number;
}

export interface AttemptRow {
  id: string;
  owner: Owner;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  /** Stored under a name no raw card field has (the leak test looks for `"number":` in the data files). */
  attempt_number: number;
  manual: boolean;
  created: number;
  url: string;
  status_code: number | null;
  duration_ms: number;
  response_body: string | null;
  error: string | null;
  result: 'succeeded' | 'failed';
  next_retry_at: number | null;
}

/** An attempt this process may make: the delivery as claimed, the claim's token (PostgreSQL), and its event and endpoint when the claim read them. */
export interface Claim {
  row: DeliveryRow;
  token: string | null;
  event?: EventRow;
  endpoint?: EndpointRow;
}

/** An attempt made, to be recorded. */
export interface FinishedAttempt {
  claim: Claim;
  endpoint: EndpointRow;
  event: EventRow;
  outcome: SendOutcome;
}

export const deliveryId = (eventId: string, endpointId: string) => `${eventId}:${endpointId}`;

const attemptView = (row: AttemptRow): WebhookAttempt => ({
  id: row.id,
  object: 'webhook_attempt',
  endpoint: row.endpoint_id,
  event: row.event_id,
  event_type: row.event_type,
  number: row.attempt_number,
  manual: row.manual,
  created: row.created,
  url: row.url,
  status_code: row.status_code,
  duration_ms: row.duration_ms,
  response_body: row.response_body,
  error: row.error,
  result: row.result,
  next_retry_at: row.next_retry_at,
});

const deliveryView = (row: DeliveryRow) => ({
  object: 'webhook_delivery' as const,
  event: row.event_id,
  endpoint: row.endpoint_id,
  status: 'pending' as const,
  attempts: row.attempts,
  next_attempt_at: Math.ceil(row.next_at / 1000),
});

const PAGE_SIZE = 10;
const DAY = 86_400;

export class Deliveries {
  readonly #deliveries: Collection<DeliveryRow>;
  readonly #attempts: Collection<AttemptRow>;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly endpoints: WebhookEndpoints,
    private readonly events: Events,
    /** The delays after each failed scheduled attempt, in ms (CPE_WEBHOOK_RETRY_SCHEDULE). */
    private readonly schedule: readonly number[],
    retentionDays: number,
    /** Told after a commit that made a delivery due now. */
    private readonly due: () => void,
  ) {
    const keep = retentionDays * DAY;
    this.#deliveries = store.collection<DeliveryRow>('webhook_deliveries', {
      endpoint: (d) => d.endpoint_id,
      // Every row (the embedded engine's claims scan them, oldest first).
      pending: () => 'pending',
      ...expiryIndex((d) => d.created + keep),
    });
    this.#attempts = store.collection<AttemptRow>('webhook_attempts', {
      endpoint: (a) => a.endpoint_id,
      endpoint_event: (a) => `${a.endpoint_id}:${a.event_id}`,
      ...expiryIndex((a) => a.created + keep),
    });
    events.listen((event) => this.#fanOut(event));
  }

  /** Every pending delivery, oldest first (the embedded engine's claims scan them). */
  pending(): Promise<readonly DeliveryRow[]> {
    return this.#deliveries.find('pending', 'pending');
  }

  /**
   * Deliveries written by a transaction whose commit is not on disk yet. The embedded engine shows a
   * write in memory before then: its claims skip these, so nothing is sent that a kill -9 could
   * still take back (an event whose change never committed).
   */
  readonly uncommitted = new Set<string>();

  /** In the event's transaction: a pending delivery for each endpoint of its owner that takes it. */
  async #fanOut(event: EventRow): Promise<void> {
    for (const endpoint of await this.endpoints.ofOwner(event.owner)) if (takes(endpoint, event.type)) await this.#insert(this.#newDelivery(event, endpoint, false));
  }

  /** A new delivery: due once its transaction has committed. */
  async #insert(row: DeliveryRow): Promise<DeliveryRow> {
    const inserted = await this.#deliveries.insert(row);
    this.uncommitted.add(row.id);
    this.store.afterCommit(() => {
      this.uncommitted.delete(row.id);
      this.due();
    });
    return inserted;
  }

  #newDelivery(event: EventRow, endpoint: EndpointRow, manual: boolean, attempts = 0): DeliveryRow {
    return {
      id: deliveryId(event.id, endpoint.id),
      owner: event.owner,
      event_id: event.id,
      endpoint_id: endpoint.id,
      attempts,
      scheduled: 0,
      next_at: msNow(this.clock),
      resume_at: null,
      manual,
      lease_owner: null,
      lease_until: null,
      lease_token: null,
      created: this.clock.now(),
    };
  }

  /**
   * POST /v1/events/:id/retry: one attempt of the event to the endpoint now, beside the schedule
   * (if that attempt fails, a pending delivery resumes its schedule; a finished one stays finished).
   */
  async retry(owner: Owner, eventId: string, endpointId: string, inFlight: (row: DeliveryRow) => boolean | Promise<boolean>) {
    const event = await this.events.row(owner, eventId);
    const endpoint = await this.endpoints.own(owner, endpointId, 'endpoint');
    if (endpoint.status !== 'enabled') throw invalidParam('endpoint', `Webhook endpoint ${endpoint.id} is disabled: enable it first (disabled=false).`);
    if (!takes(endpoint, event.type))
      throw invalidParam('endpoint', `Webhook endpoint ${endpoint.id} does not take ${event.type} events (enabled_events: ${endpoint.enabled_events.join(', ')}).`);
    const id = deliveryId(event.id, endpoint.id);
    const row = await this.#deliveries.get(id, { forUpdate: true });
    if (row && (await inFlight(row)))
      throw new ApiError('attempt_in_flight', `An attempt of ${event.id} to ${endpoint.id} is under way: retry once it has ended (its attempts list shows it).`, 'endpoint');
    const now = msNow(this.clock);
    // A pending one is attempted now, its schedule resumed if that fails; a finished one anew, numbered after its attempts.
    const updated = row
      ? await this.#deliveries.update(id, { next_at: now, resume_at: row.manual ? row.resume_at : row.next_at, manual: true })
      : await this.#insert(this.#newDelivery(event, endpoint, true, await this.#attempts.count('endpoint_event', `${endpoint.id}:${event.id}`)));
    this.store.afterCommit(this.due);
    return deliveryView(updated);
  }

  /**
   * Records the outcomes of claimed attempts, all in one transaction (one commit for a batch): each
   * attempt, its delivery's next state (succeeded; retried after the schedule's next delay; failed
   * once it has none), and a 410's disabling of the endpoint. An attempt whose claim was lost
   * (`holds`), or whose delivery is gone, records nothing.
   */
  async finish(attempts: readonly FinishedAttempt[], holds: (row: DeliveryRow, claim: Claim) => boolean): Promise<boolean[]> {
    return this.store.transaction(async () => {
      const recorded: boolean[] = [];
      for (const attempt of attempts) recorded.push(await this.#record(attempt, holds));
      return recorded;
    });
  }

  /** One outcome; false when there was nothing to record it on. */
  async #record({ claim, endpoint, event, outcome }: FinishedAttempt, holds: (row: DeliveryRow, claim: Claim) => boolean): Promise<boolean> {
    const row = await this.#deliveries.get(claim.row.id, { forUpdate: true });
    if (!row || !holds(row, claim)) return false;
    const now = msNow(this.clock);
    const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const gone = outcome.status === 410;
    const scheduled = row.manual ? row.scheduled : row.scheduled + 1;
    // When the next attempt is due; null: none (succeeded, 410, a manual one on a finished delivery, the schedule's end).
    let next: number | null = null;
    if (!ok && !gone && row.manual) next = row.resume_at;
    else if (!ok && !gone) {
      const delay = retryDelay(this.schedule, scheduled);
      next = delay === undefined ? null : now + delay;
    }
    if (next === null) await this.#deliveries.delete(row.id);
    else await this.#deliveries.update(row.id, { next_at: next, attempts: row.attempts + 1, scheduled, manual: false, resume_at: null, lease_owner: null, lease_until: null, lease_token: null });
    await this.#attempts.insert({
      id: newId('wha'),
      owner: row.owner,
      endpoint_id: endpoint.id,
      event_id: event.id,
      event_type: event.type,
      attempt_number: row.attempts + 1,
      manual: row.manual,
      created: this.clock.now(),
      url: endpoint.url,
      status_code: outcome.status,
      duration_ms: outcome.durationMs,
      response_body: outcome.body,
      error: outcome.error ?? (ok ? null : `the receiver answered ${outcome.status}${gone ? ' Gone: the endpoint is disabled' : ', not a 2xx'}`),
      result: ok ? 'succeeded' : 'failed',
      next_retry_at: next === null ? null : Math.ceil(next / 1000),
    });
    if (gone) await this.endpoints.gone(endpoint.id, event.id);
    return true;
  }

  /** A delivery whose event or endpoint is gone (pruned, deleted) is dropped. */
  async drop(id: string): Promise<void> {
    await this.store.transaction(async () => void (await this.#deliveries.delete(id)));
  }

  async attempts(owner: Owner, endpointId: string, query: z.output<typeof WebhookAttemptListQuery>) {
    await this.endpoints.own(owner, endpointId);
    if (query.starting_after !== undefined && query.ending_before !== undefined) throw invalidParam('ending_before', 'Send at most one of starting_after and ending_before.');
    const [index, key] = query.event === undefined ? ['endpoint', endpointId] : ['endpoint_event', `${endpointId}:${query.event}`];
    try {
      const page = await this.#attempts.page(
        index,
        key,
        { limit: query.limit ?? PAGE_SIZE, startingAfter: query.starting_after, endingBefore: query.ending_before },
        { index: 'endpoint', key: endpointId },
      );
      return { object: 'list' as const, url: `/v1/webhook_endpoints/${endpointId}/attempts`, has_more: page.hasMore, data: page.data.map(attemptView) };
    } catch (error) {
      if (error instanceof CursorNotFound) throw noSuch('object', error.cursor, error.param);
      throw error;
    }
  }

  /** With a deleted endpoint go its deliveries (nothing more is sent) and its attempts. */
  async forgetEndpoint(endpointId: string): Promise<void> {
    for (const row of [...(await this.#deliveries.find('endpoint', endpointId))]) await this.#deliveries.delete(row.id);
    for (const row of [...(await this.#attempts.find('endpoint', endpointId))]) await this.#attempts.delete(row.id);
  }

  /** Deliveries and attempts go with their events (CPE_EVENT_RETENTION_DAYS). */
  async prune(): Promise<number> {
    const now = this.clock.now();
    return (await this.#deliveries.deleteExpired(now)) + (await this.#attempts.deleteExpired(now));
  }
}
