import { createdBounds, ownsType, type Event, type EventListQuery, type EventType } from '../../api/events.ts';
import type { Clock } from '../clock.ts';
import { invalidParam, noSuch } from '../http/api-error.ts';
import { unchanging } from '../http/json-text.ts';
import { Recent } from '../http/recent.ts';
import { newId } from '../identity/secrets.ts';
import { expiryIndex } from '../store/expiry.ts';
import { CursorNotFound, type Collection, type RequestRef, type Store } from '../store/store.ts';
import { ownerKind, type Owner } from './owner.ts';
import { previousAttributes } from './previous-attributes.ts';

/** How long events are kept unless configured (CPE_EVENT_RETENTION_DAYS): 30 days, as Stripe keeps them. */
export const DEFAULT_EVENT_RETENTION_DAYS = 30;

const PAGE_SIZE = 10;
const DAY = 86_400;

/** An event as stored: its owner beside what the API shows. */
export interface EventRow {
  id: string;
  object: 'event';
  owner: Owner;
  type: EventType;
  created: number;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  request: RequestRef | null;
}

/** The Payment Intent an event is about, if any: a payment_intent.* event's object, a refund.* event's intent (pg-schema.ts computes the same). */
function intentOf(event: EventRow): string | undefined {
  const object = event.data.object;
  if (event.type.startsWith('payment_intent.')) return typeof object.id === 'string' ? object.id : undefined;
  if (event.type.startsWith('refund.')) return typeof object.payment_intent === 'string' ? object.payment_intent : undefined;
  return undefined;
}

/** Called inside the transaction that records an event, so what it writes commits with it (the webhook outbox). */
export type EventListener = (event: EventRow) => Promise<void>;

/** The public view of a stored event, built once per frozen row (a list page is then written from kept JSON). */
const views = new Recent<object, Event>(10_000);
export function eventView(row: EventRow): Event {
  let view = views.get(row);
  if (view === undefined) {
    view = { id: row.id, object: 'event', type: row.type, created: row.created, data: row.data as Event['data'], request: row.request };
    if (Object.isFrozen(row)) views.set(row, (view = unchanging(Object.freeze(view))));
  }
  return view;
}

/**
 * The event log: every change the API makes is recorded here by the service that makes it, in the
 * same store transaction as the change (a transactional outbox: both commit, or neither), with the
 * request that made it. Its owner, and only its owner, lists and reads it. Listeners (webhooks) add
 * their rows in the same transaction.
 */
export class Events {
  readonly #events: Collection<EventRow>;
  readonly #listeners: EventListener[] = [];

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    retentionDays = DEFAULT_EVENT_RETENTION_DAYS,
  ) {
    const keep = retentionDays * DAY;
    this.#events = store.collection<EventRow>('events', {
      owner: (e) => e.owner,
      type: (e) => `${e.owner}:${e.type}`,
      group: (e) => `${e.owner}:${e.type.slice(0, e.type.indexOf('.'))}`,
      intent: intentOf,
      ...expiryIndex((e) => e.created + keep),
    });
  }

  /** Runs `listener` for every event recorded from now on, inside its transaction. */
  listen(listener: EventListener): void {
    this.#listeners.push(listener);
  }

  /**
   * Records that `object` (as the API answers it now) was created, changed or deleted. `before`: the
   * object as answered before a change, for `previous_attributes`. Call inside the change's transaction.
   */
  async record(owner: Owner, type: EventType, object: object, before?: object): Promise<EventRow> {
    if (!ownsType(ownerKind(owner), type)) throw new Error(`${type} is not an event of a ${ownerKind(owner)}`);
    const previous = before === undefined ? undefined : previousAttributes(before as Record<string, unknown>, object as Record<string, unknown>);
    const event = await this.#events.insert({
      id: newId('evt'),
      object: 'event',
      owner,
      type,
      created: this.clock.now(),
      data: { object: object as Record<string, unknown>, ...(previous ? { previous_attributes: previous } : {}) },
      request: this.store.currentRequest(),
    });
    for (const listener of this.#listeners) await listener(event);
    return event;
  }

  /** The stored event, whoever owns it (the delivery of a webhook). */
  byId(id: string): Promise<EventRow | undefined> {
    return this.#events.get(id);
  }

  async get(owner: Owner, id: string): Promise<Event> {
    return eventView(await this.row(owner, id));
  }

  /** The stored event, if it is this owner's (another's answers as an absent one). */
  async row(owner: Owner, id: string, param: string | null = 'id'): Promise<EventRow> {
    const event = await this.#events.get(id);
    if (event?.owner !== owner) throw noSuch('event', id, param);
    return event;
  }

  async list(owner: Owner, query: EventListQuery) {
    if (query.starting_after !== undefined && query.ending_before !== undefined) throw invalidParam('ending_before', 'Send at most one of starting_after and ending_before.');
    for (const [param, cursor] of [['starting_after', query.starting_after], ['ending_before', query.ending_before]] as const)
      if (cursor !== undefined && !cursor.startsWith('evt_')) throw noSuch('object', cursor, param);
    // A type is an index key; a wildcard is its prefix's (the `group` index).
    const type = query.type ?? '*';
    const [index, key] = type === '*' ? ['owner', owner] : type.endsWith('.*') ? ['group', `${owner}:${type.slice(0, -2)}`] : ['type', `${owner}:${type}`];
    const bounds = createdBounds(query.created);
    try {
      const page = await this.#events.page(
        index,
        key,
        {
          limit: query.limit ?? PAGE_SIZE,
          startingAfter: query.starting_after,
          endingBefore: query.ending_before,
          ...(bounds ? { range: { field: 'created', ...bounds } } : {}),
        },
        { index: 'owner', key: owner },
      );
      return { object: 'list' as const, url: '/v1/events', has_more: page.hasMore, data: page.data.map(eventView) };
    } catch (error) {
      if (error instanceof CursorNotFound) throw noSuch('object', error.cursor, error.param);
      throw error;
    }
  }

  /** A Payment Intent's events, oldest first: its own and its refunds' (the dashboard's timeline of a payment). */
  async forIntent(owner: Owner, intentId: string): Promise<Event[]> {
    return (await this.#events.find('intent', intentId)).filter((event) => event.owner === owner).map(eventView);
  }

  /** Drops events past their retention (and, by their listeners' own pruning, what hangs on them). */
  prune(): Promise<number> {
    return this.#events.deleteExpired(this.clock.now());
  }
}
