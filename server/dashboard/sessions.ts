import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { hashSecret, newSecret } from '../identity/secrets.ts';
import { expiryIndex } from '../store/expiry.ts';
import type { Collection, Store } from '../store/store.ts';

/** A dashboard session lasts 12 hours from sign-in (the figure), then signs in again. */
export const SESSION_SECONDS = 12 * 3600;
/** A one-time sign-in link works once, within an hour of being printed. */
export const LINK_SECONDS = 3600;
/** Rows are dropped an hour past their expiry, as PostgreSQL's drop hour (pg-schema.ts) has it. */
const KEPT_PAST_EXPIRY = 3600;

export interface DashboardSession {
  /** The hash of the cookie's token: the token itself is only in the browser's cookie. */
  id: string;
  merchant_id: number;
  /** How it signed in. */
  via: 'licence_key' | 'link';
  created_at: number;
  expires_at: number;
}

interface SignInLink {
  /** The hash of the link's token. */
  id: string;
  merchant_id: number;
  created_at: number;
  expires_at: number;
}

/**
 * The CSRF token of a session: an HMAC of a fixed label keyed by the session's token. Only a holder
 * of the cookie (HttpOnly, so only the service) can compute it, it needs no storage, and knowing it
 * reveals nothing of the cookie.
 */
export const csrfTokenOf = (sessionToken: string) => createHmac('sha256', sessionToken).update('cpe dashboard csrf').digest('base64url');

export function csrfMatches(sessionToken: string, given: string): boolean {
  const expected = Buffer.from(csrfTokenOf(sessionToken));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Dashboard sessions and one-time sign-in links; only hashes of their tokens are stored. */
export class DashboardSessions {
  readonly #sessions: Collection<DashboardSession>;
  readonly #links: Collection<SignInLink>;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {
    this.#sessions = store.collection<DashboardSession>('dashboard_sessions', { merchant: (s) => String(s.merchant_id), ...expiryIndex((s) => s.expires_at + KEPT_PAST_EXPIRY) });
    this.#links = store.collection<SignInLink>('dashboard_links', expiryIndex((l) => l.expires_at + KEPT_PAST_EXPIRY));
  }

  /** A new session; its token goes into the cookie and nowhere else. */
  async start(merchantId: number, via: DashboardSession['via']): Promise<{ token: string; session: DashboardSession }> {
    const token = newSecret('cpe_ds_');
    const now = this.clock.now();
    const session = await this.#sessions.insert({ id: hashSecret(token), merchant_id: merchantId, via, created_at: now, expires_at: now + SESSION_SECONDS });
    return { token, session };
  }

  /** The live session of a cookie's token, or undefined (unknown, ended or past its 12 hours). */
  async find(token: string | undefined): Promise<DashboardSession | undefined> {
    if (!token) return undefined;
    const session = await this.#sessions.get(hashSecret(token));
    return session && session.expires_at > this.clock.now() ? session : undefined;
  }

  async end(sessionId: string): Promise<void> {
    await this.#sessions.delete(sessionId);
  }

  /** Signs the merchant out everywhere but `keep` (after a key roll); how many ended. */
  async endOthers(merchantId: number, keep: string): Promise<number> {
    let ended = 0;
    for (const session of await this.#sessions.find('merchant', String(merchantId)))
      if (session.id !== keep && (await this.#sessions.delete(session.id))) ended++;
    return ended;
  }

  /** A one-time sign-in link's token for the merchant (the link is `<service>/dashboard/link#<token>`). */
  async createLink(merchantId: number): Promise<{ token: string; expires_at: number }> {
    const token = newSecret('cpe_dl_');
    const now = this.clock.now();
    await this.#links.insert({ id: hashSecret(token), merchant_id: merchantId, created_at: now, expires_at: now + LINK_SECONDS });
    return { token, expires_at: now + LINK_SECONDS };
  }

  /** Spends a link: its merchant, once; undefined if unknown, spent or expired. */
  redeemLink(token: string): Promise<number | undefined> {
    return this.store.transaction(async () => {
      const link = await this.#links.get(hashSecret(token), { forUpdate: true });
      if (!link) return undefined;
      await this.#links.delete(link.id);
      return link.expires_at > this.clock.now() ? link.merchant_id : undefined;
    });
  }

  /** Drops sessions and links an hour past their expiry (services.ts prunes every minute). */
  async prune(): Promise<number> {
    const now = this.clock.now();
    return (await this.#sessions.deleteExpired(now)) + (await this.#links.deleteExpired(now));
  }
}
