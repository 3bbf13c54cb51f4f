import type { Clock } from '../clock.ts';
import { hashSecret, newSecret } from '../identity/secrets.ts';
import { expiryIndex } from '../store/expiry.ts';
import type { Collection, Store } from '../store/store.ts';
import { EXPIRED_KEPT_SECONDS } from './card-vault.ts';

export const CHALLENGE_TTL_SECONDS = 15 * 60;

/** A pending 3-D Secure challenge, found by the hash of the secret in its page's URL. */
export interface ChallengeRow {
  id: string;
  transaction_id: string;
  intent_id: string;
  attempt_id: string;
  merchant_id: number;
  /** The merchant page origin that confirmed (direct mode), where the outcome is posted. */
  origin: string | null;
  status: 'pending' | 'completed' | 'failed';
  /** The one-time token the challenge page's form carries (never in a URL): the answer must bring it. */
  form_token?: string;
  created_at: number;
  expires_at: number;
}

export interface ChallengeView {
  transactionId: string;
  status: ChallengeRow['status'];
  amount: string;
  /** The amount in minor units and its currency, formatted in the shopper's language on the page. */
  value: { amount: number; currency: string };
  merchantName: string;
  /** Origins that may frame the page and receive the outcome message. */
  origins: string[];
  /** The token the page's form carries; the answer must bring it. */
  formToken: string;
}

/** The 3-D Secure simulator's challenges: opened at confirm, answered on their page, then expired. */
export class Challenges {
  readonly #challenges: Collection<ChallengeRow>;

  constructor(
    store: Store,
    private readonly clock: Clock,
  ) {
    this.#challenges = store.collection<ChallengeRow>('three_ds_challenges', expiryIndex((c) => c.expires_at + EXPIRED_KEPT_SECONDS));
  }

  /** Opens a challenge for an attempt; returns the secret its page's URL carries (only its hash is kept). */
  async open(input: Pick<ChallengeRow, 'transaction_id' | 'intent_id' | 'attempt_id' | 'merchant_id' | 'origin'>): Promise<string> {
    const secret = newSecret('');
    const now = this.clock.now();
    await this.#challenges.insert({ id: hashSecret(secret), ...input, status: 'pending', form_token: newSecret(''), created_at: now, expires_at: now + CHALLENGE_TTL_SECONDS });
    return secret;
  }

  /** The challenge of a secret, unless unknown or expired. */
  /** `forUpdate`: to answer it (see Collection.get). */
  async find(secret: string, forUpdate = false): Promise<ChallengeRow | undefined> {
    if (!secret) return undefined;
    const challenge = await this.#challenges.get(hashSecret(secret), { forUpdate });
    return challenge && challenge.expires_at > this.clock.now() ? challenge : undefined;
  }

  async answered(id: string, status: 'completed' | 'failed'): Promise<void> {
    await this.#challenges.update(id, { status });
  }

  /** Drops challenges, answered or not, an hour past their expiry. */
  prune(): Promise<number> {
    return this.#challenges.deleteExpired(this.clock.now());
  }
}
