import type { Store } from '../store/store.ts';
import type { Clock } from '../clock.ts';
import { hashSecret, newSecret } from '../identity/secrets.ts';

export interface Merchant {
  /** The integer merchant id, as a string because it is the row id. */
  id: string;
  merchant_id: number;
  name: string;
  /** Page origins allowed to embed this merchant's components. */
  origins: string[];
  created_at: number;
}

interface MerchantKey {
  /** The key's hash. */
  id: string;
  merchant_id: number;
  kind: 'licence' | 'public';
  /**
   * What the dashboard may show of it: a public key whole (pages carry it anyway), a licence key's
   * last four characters. Absent on keys made before the dashboard until the key is seen again (a
   * sign-in with it, or the seeded credentials at start).
   */
  shown?: string;
  created_at?: number;
  /** A rolled licence key authenticates until then (Unix seconds); absent: for ever. */
  expires_at?: number;
}

/** What the dashboard's Developers page shows of a merchant's keys: never a licence key itself. */
export interface KeysView {
  public_key: string | null;
  licence_key: { last4: string | null; created_at: number | null };
  /** Rolled keys that still work, until their expiry. */
  expiring: { last4: string | null; expires_at: number }[];
}

/** How long a rolled licence key may keep working: Stripe's choices, from now to a week. */
export const ROLL_EXPIRIES = { now: 0, '1h': 3600, '24h': 86_400, '7d': 604_800 } as const;
export type RollExpiry = keyof typeof ROLL_EXPIRIES;

const lastFour = (key: string) => key.slice(-4);

export interface MerchantCredentials {
  merchantId: number;
  licenceKey: string;
  publicKey: string;
}

/** A page origin as a browser sends it: scheme, host and port only. */
export function normaliseOrigin(value: string): string {
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`An origin is http(s): got '${value}'.`);
  if (url.origin === 'null') throw new Error(`Not an origin: '${value}'.`);
  return url.origin;
}

/** Test merchants and their keys (stored hashed). */
export class Merchants {
  readonly #merchants;
  readonly #keys;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {
    this.#merchants = store.collection<Merchant>('merchants');
    this.#keys = store.collection<MerchantKey>('merchant_keys', { merchant: (k) => String(k.merchant_id) });
  }

  /** A new test merchant and its keys, durable once this resolves (or with the caller's transaction). */
  create(input: { name?: string; origins: string[] }): Promise<MerchantCredentials> {
    const origins = [...new Set(input.origins.map(normaliseOrigin))];
    return this.store.transaction(async () => {
      // Numbered one after another: processes creating merchants at once take turns.
      await this.store.lock('merchants');
      let last = 1000;
      for (const m of await this.#merchants.all()) last = Math.max(last, m.merchant_id);
      const merchantId = last + 1;
      const licenceKey = newSecret('sk_test_');
      const publicKey = newSecret('pk_test_');
      await this.#merchants.insert({
        id: String(merchantId),
        merchant_id: merchantId,
        name: input.name ?? `Test merchant ${merchantId}`,
        origins,
        created_at: this.clock.now(),
      });
      const created_at = this.clock.now();
      await this.#keys.insert({ id: hashSecret(licenceKey), merchant_id: merchantId, kind: 'licence', shown: lastFour(licenceKey), created_at });
      await this.#keys.insert({ id: hashSecret(publicKey), merchant_id: merchantId, kind: 'public', shown: publicKey, created_at });
      return { merchantId, licenceKey, publicKey };
    });
  }

  get(merchantId: number): Promise<Merchant | undefined> {
    return this.#merchants.get(String(merchantId));
  }

  /** Whether any merchant lets pages of this origin embed the components (for CORS preflights, which carry no key). */
  async anyAllows(origin: string): Promise<boolean> {
    for (const merchant of await this.#merchants.all()) if (merchant.origins.includes(origin)) return true;
    return false;
  }

  /** The merchant a key belongs to, only if the key is of the kind asked for and has not expired (rolled). */
  async byKey(key: string, kind: MerchantKey['kind']): Promise<Merchant | undefined> {
    const found = await this.#keys.get(hashSecret(key));
    if (!found || found.kind !== kind) return undefined;
    if (found.expires_at !== undefined && found.expires_at <= this.clock.now()) return undefined;
    return this.get(found.merchant_id);
  }

  /** Whether this key was one of the merchant's licence keys, rolled and now expired (so a 401 can say so). */
  async expiredKey(key: string): Promise<boolean> {
    const found = await this.#keys.get(hashSecret(key));
    return found?.expires_at !== undefined && found.expires_at <= this.clock.now();
  }

  /**
   * Notes what the dashboard may show of keys made before it kept that (their last four, the public
   * key), from a key seen in full: a sign-in, or the seeded credentials at start.
   */
  async learn(keys: { key: string; kind: MerchantKey['kind'] }[]): Promise<void> {
    for (const { key, kind } of keys) {
      const row = await this.#keys.get(hashSecret(key));
      if (row && row.kind === kind && row.shown === undefined) await this.#keys.update(row.id, { shown: kind === 'public' ? key : lastFour(key) });
    }
  }

  /** The merchant's keys as the dashboard shows them. */
  async keysView(merchantId: number): Promise<KeysView> {
    const now = this.clock.now();
    const rows = (await this.#keys.find('merchant', String(merchantId))).filter((k) => k.expires_at === undefined || k.expires_at > now);
    const licence = rows.filter((k) => k.kind === 'licence');
    const current = licence.filter((k) => k.expires_at === undefined).at(-1);
    return {
      public_key: rows.find((k) => k.kind === 'public')?.shown ?? null,
      licence_key: { last4: current?.shown ?? null, created_at: current?.created_at ?? null },
      expiring: licence.filter((k) => k.expires_at !== undefined).map((k) => ({ last4: k.shown ?? null, expires_at: k.expires_at! })),
    };
  }

  /**
   * A new licence key for the merchant; every licence key it had stops working after `expiry`
   * (`now`: at once), as Stripe's Roll key offers. The new key is returned once, here only.
   */
  rollLicenceKey(merchantId: number, expiry: RollExpiry): Promise<{ licenceKey: string; expires_at: number }> {
    return this.store.transaction(async () => {
      await this.store.lock(`merchant_keys:${merchantId}`);
      const now = this.clock.now();
      const expires_at = now + ROLL_EXPIRIES[expiry];
      for (const key of await this.#keys.find('merchant', String(merchantId)))
        if (key.kind === 'licence' && (key.expires_at === undefined || key.expires_at > expires_at)) await this.#keys.update(key.id, { expires_at });
      const licenceKey = newSecret('sk_test_');
      await this.#keys.insert({ id: hashSecret(licenceKey), merchant_id: merchantId, kind: 'licence', shown: lastFour(licenceKey), created_at: now });
      return { licenceKey, expires_at };
    });
  }
}
