import { z } from 'zod';
import { ownsType, selects, EVENT_TYPES, type EventType } from '../../api/events.ts';
import type { WebhookEndpoint, WebhookEndpointCreate, WebhookEndpointListQuery, WebhookEndpointUpdate } from '../../api/webhooks.ts';
import type { Clock } from '../clock.ts';
import { ApiError, invalidParam, noSuch } from '../http/api-error.ts';
import { newId } from '../identity/secrets.ts';
import { CursorNotFound, type Collection, type Store } from '../store/store.ts';
import { ownerKind, type Owner } from '../events/owner.ts';
import { refusal } from './address-guard.ts';
import { newWebhookSecret } from './signature.ts';

/** As Stripe allows 16 endpoints per account in test mode. */
export const MAX_ENDPOINTS = 16;
/** How long the secret before a rotation keeps signing beside the new one. */
export const ROTATION_OVERLAP_SECONDS = 24 * 3600;

export interface EndpointSecret {
  key: string;
  /** Unix seconds after which it no longer signs; null for the current one. */
  expires_at: number | null;
}

export interface EndpointRow {
  id: string;
  owner: Owner;
  url: string;
  enabled_events: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  /** The current secret first, then the one a rotation replaced while it still signs. */
  secrets: EndpointSecret[];
  created: number;
}

export const endpointView = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  object: 'webhook_endpoint',
  url: row.url,
  enabled_events: row.enabled_events,
  description: row.description,
  status: row.status,
  disabled_reason: row.disabled_reason,
  created: row.created,
});

/** Whether the endpoint takes events of this type now. */
export const takes = (endpoint: EndpointRow, type: string): boolean => endpoint.status === 'enabled' && endpoint.enabled_events.some((selector) => selects(selector, type));

/** The secrets that sign a delivery made at `now`. */
export const signingSecrets = (endpoint: EndpointRow, now: number): string[] =>
  endpoint.secrets.filter((secret) => secret.expires_at === null || secret.expires_at > now).map((secret) => secret.key);

const PAGE_SIZE = 10;

/**
 * The webhook endpoints of each owner (a merchant, or a messaging user): where its events are sent,
 * which ones, and the secrets that sign them. Another owner's id answers as an absent one.
 */
export class WebhookEndpoints {
  readonly #endpoints: Collection<EndpointRow>;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    /** false: a URL naming a private, loopback or link-local address is refused (CPE_WEBHOOK_ALLOW_PRIVATE=0). */
    private readonly allowPrivate: boolean,
  ) {
    this.#endpoints = store.collection<EndpointRow>('webhook_endpoints', { owner: (e) => e.owner });
  }

  /** The owner's endpoints, oldest first (the fan-out of every event reads them). */
  ofOwner(owner: Owner): Promise<readonly EndpointRow[]> {
    return this.#endpoints.find('owner', owner);
  }

  get(id: string): Promise<EndpointRow | undefined> {
    return this.#endpoints.get(id);
  }

  /** The owner's endpoint; another's, or none, is a 404 naming `param`. `forUpdate`: the caller changes it. */
  async own(owner: Owner, id: string, param: string | null = 'id', forUpdate = false): Promise<EndpointRow> {
    const endpoint = await this.#endpoints.get(id, { forUpdate });
    if (endpoint?.owner !== owner) throw noSuch('webhook endpoint', id, param);
    return endpoint;
  }

  async create(owner: Owner, input: z.output<typeof WebhookEndpointCreate>) {
    this.#checkUrl(input.url);
    const enabled = this.#checkEvents(owner, input.enabled_events);
    // Counted under a lock on the owner, so racing creates cannot pass the limit together.
    await this.store.lock(`webhook_endpoints:${owner}`);
    if ((await this.#endpoints.count('owner', owner)) >= MAX_ENDPOINTS)
      throw invalidParam('url', `You have ${MAX_ENDPOINTS} webhook endpoints, the most an account may have: delete one first.`, 'limit_exceeded');
    const secret = newWebhookSecret();
    const row = await this.#endpoints.insert({
      id: newId('we'),
      owner,
      url: input.url,
      enabled_events: enabled,
      description: input.description ?? null,
      status: 'enabled',
      disabled_reason: null,
      secrets: [{ key: secret, expires_at: null }],
      created: this.clock.now(),
    });
    return { ...endpointView(row), secret };
  }

  async list(owner: Owner, query: z.output<typeof WebhookEndpointListQuery>) {
    if (query.starting_after !== undefined && query.ending_before !== undefined) throw invalidParam('ending_before', 'Send at most one of starting_after and ending_before.');
    try {
      const page = await this.#endpoints.page('owner', owner, { limit: query.limit ?? PAGE_SIZE, startingAfter: query.starting_after, endingBefore: query.ending_before });
      return { object: 'list' as const, url: '/v1/webhook_endpoints', has_more: page.hasMore, data: page.data.map(endpointView) };
    } catch (error) {
      if (error instanceof CursorNotFound) throw noSuch('object', error.cursor, error.param);
      throw error;
    }
  }

  async update(owner: Owner, id: string, input: z.output<typeof WebhookEndpointUpdate>): Promise<WebhookEndpoint> {
    const endpoint = await this.own(owner, id, 'id', true);
    const patch: Partial<EndpointRow> = {};
    if (input.url !== undefined) {
      this.#checkUrl(input.url);
      patch.url = input.url;
    }
    if (input.enabled_events !== undefined) patch.enabled_events = this.#checkEvents(owner, input.enabled_events);
    if (input.description !== undefined) patch.description = input.description;
    if (input.disabled !== undefined) {
      patch.status = input.disabled ? 'disabled' : 'enabled';
      patch.disabled_reason = input.disabled ? 'Disabled by you (disabled=true).' : null;
    }
    return endpointView(Object.keys(patch).length ? await this.#endpoints.update(id, patch) : endpoint);
  }

  /** Disabled by its receiver: a 410 Gone to a delivery. */
  async gone(id: string, eventId: string): Promise<void> {
    const at = new Date(this.clock.now() * 1000).toISOString();
    await this.#endpoints.update(id, {
      status: 'disabled',
      disabled_reason: `The receiver answered 410 Gone to ${eventId} at ${at}: nothing more is sent. Enable it again with disabled=false.`,
    });
  }

  async delete(owner: Owner, id: string): Promise<void> {
    await this.own(owner, id, 'id', true);
    await this.#endpoints.delete(id);
  }

  /** A new current secret; the one it replaces signs beside it for ROTATION_OVERLAP_SECONDS. */
  async rotate(owner: Owner, id: string) {
    const endpoint = await this.own(owner, id, 'id', true);
    const now = this.clock.now();
    const secret = newWebhookSecret();
    const previous = endpoint.secrets.filter((s) => s.expires_at === null).map((s) => ({ key: s.key, expires_at: now + ROTATION_OVERLAP_SECONDS }));
    const row = await this.#endpoints.update(id, { secrets: [{ key: secret, expires_at: null }, ...previous] });
    return { ...endpointView(row), secret };
  }

  #checkUrl(url: string): void {
    if (this.allowPrivate) return;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    const why = host === 'localhost' || host.endsWith('.localhost') ? `${host}, this machine (CPE_WEBHOOK_ALLOW_PRIVATE=0)` : refusal(host);
    if (why) throw invalidParam('url', `Invalid url: ${why} is not allowed as a webhook receiver.`);
  }

  /** The selectors, without repeats; each must name events this owner has (a merchant's are payment events). */
  #checkEvents(owner: Owner, selectors: string[]): string[] {
    const kind = ownerKind(owner);
    const own = (Object.keys(EVENT_TYPES) as EventType[]).filter((type) => ownsType(kind, type));
    selectors.forEach((selector, i) => {
      if (!own.some((type) => selects(selector, type)))
        throw new ApiError(
          'parameter_invalid',
          `Invalid enabled_events: ${selector} names no event of a ${kind === 'merchant' ? 'merchant (licence key: payment events)' : 'messaging user (access token: messaging events)'}.`,
          `enabled_events[${i}]`,
        );
    });
    return [...new Set(selectors)];
  }
}
