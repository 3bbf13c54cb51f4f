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
}

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
    this.#keys = store.collection<MerchantKey>('merchant_keys');
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
      await this.#keys.insert({ id: hashSecret(licenceKey), merchant_id: merchantId, kind: 'licence' });
      await this.#keys.insert({ id: hashSecret(publicKey), merchant_id: merchantId, kind: 'public' });
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

  /** The merchant a key belongs to, only if the key is of the kind asked for. */
  async byKey(key: string, kind: MerchantKey['kind']): Promise<Merchant | undefined> {
    const found = await this.#keys.get(hashSecret(key));
    return found && found.kind === kind ? this.get(found.merchant_id) : undefined;
  }
}
