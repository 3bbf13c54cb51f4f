import type { Clock } from '../clock.ts';
import { ApiError, invalidParam, noSuch } from '../http/api-error.ts';
import { newId } from '../identity/secrets.ts';
import { expiryIndex } from '../store/expiry.ts';
import type { Collection, Store } from '../store/store.ts';
import { isExpired, type CardSummary } from './cards.ts';
import type { IntentRow } from './intent-rows.ts';
import { paymentMethodOf } from './payment-views.ts';

export const TOKEN_TTL_SECONDS = 15 * 60;
/** How long an expired token or challenge is kept before pruning, so it is refused as expired, not unknown. */
export const EXPIRED_KEPT_SECONDS = 60 * 60;

/**
 * A single-use card token: a card summary (never the PAN or CSC) bound to one intent. It is spent
 * once an attempt of its intent references it (attach always records one), so no row changes when a
 * token is used: the table only grows, and a write appends the new token's text. A token made by a
 * server (POST /v1/tokens) starts with no intent; the first attach binds it to its intent (the one
 * row change), which spends it for every other intent of the merchant.
 */
interface TokenRow {
  id: string;
  merchant_id: number;
  /** Null until a server-made token is attached. */
  intent_id: string | null;
  /** Made by POST /v1/tokens: any intent of the merchant may attach it, once. */
  server_made?: true;
  card: CardSummary;
  created_at: number;
  expires_at: number;
}

/** A vaulted card of a merchant's account: reusable, still no raw data. */
interface StoredCardRow {
  id: string;
  merchant_id: number;
  account_id: string;
  card: CardSummary;
  created_at: number;
}

/** Card tokens and vaulted cards: what a card reference (`tok_…`, `card_…`) stands for. */
export class CardVault {
  readonly #cardTokens: Collection<TokenRow>;
  readonly #cards: Collection<StoredCardRow>;

  constructor(
    store: Store,
    private readonly clock: Clock,
  ) {
    this.#cardTokens = store.collection<TokenRow>('card_tokens', expiryIndex((t) => t.expires_at + EXPIRED_KEPT_SECONDS));
    this.#cards = store.collection<StoredCardRow>('stored_cards', { account: (c) => `${c.merchant_id}:${c.account_id}` });
  }

  /** A new single-use token for an intent, or (null) for whichever of the merchant's intents attaches it first. */
  async issue(merchantId: number, intentId: string | null, card: CardSummary) {
    const now = this.clock.now();
    const token = await this.#cardTokens.insert({
      id: newId('tok'),
      merchant_id: merchantId,
      intent_id: intentId,
      ...(intentId === null ? { server_made: true as const } : {}),
      card,
      created_at: now,
      expires_at: now + TOKEN_TTL_SECONDS,
    });
    return { data: { cp_card_token: token.id, ...paymentMethodOf(card), expires_at: token.expires_at } };
  }

  /** The card behind a token or vaulted card reference, checked for this intent. */
  async cardFor(intent: IntentRow, reference: string): Promise<CardSummary> {
    if (reference.startsWith('card_')) {
      const stored = await this.#cards.get(reference);
      if (!stored || stored.merchant_id !== intent.merchant_id || stored.account_id !== intent.account_id)
        throw noSuch("stored card for this payment intent's account", reference, 'token');
      if (isExpired(stored.card)) throw new ApiError('expired_card', 'The stored card has expired.', 'token');
      return stored.card;
    }
    // Locked: a server-made token attached through two intents at once binds to one of them.
    const token = await this.#cardTokens.get(reference, { forUpdate: true });
    if (!token || token.merchant_id !== intent.merchant_id || (token.intent_id !== intent.id && !token.server_made))
      throw noSuch('token for this payment intent', reference, 'token');
    if ((token.intent_id !== null && token.intent_id !== intent.id) || intent.attempts.some((a) => a.token === reference))
      throw invalidParam('token', 'This token was already used: tokens are single-use, tokenise the card again.', 'token_already_used');
    if (token.expires_at <= this.clock.now()) throw invalidParam('token', 'This token has expired: tokenise the card again.', 'token_expired');
    return token.card;
  }

  /** Binds a server-made token to the intent whose attach just referenced it (see TokenRow). */
  async bind(reference: string, intentId: string): Promise<void> {
    if ((await this.#cardTokens.get(reference))?.intent_id === null) await this.#cardTokens.update(reference, { intent_id: intentId });
  }

  /** Keeps one stored card per account and card (same BIN, last four and expiry). */
  async vault(merchantId: number, accountId: string, reference: string, card: CardSummary) {
    let stored: StoredCardRow | undefined;
    if (reference.startsWith('card_')) stored = await this.#cards.get(reference);
    stored ??= (await this.#cards.find('account', `${merchantId}:${accountId}`)).find((c) => c.card.first6 === card.first6 && c.card.last4 === card.last4 && c.card.exp_month === card.exp_month && c.card.exp_year === card.exp_year);
    stored ??= await this.#cards.insert({ id: newId('card'), merchant_id: merchantId, account_id: accountId, card, created_at: this.clock.now() });
    return { id: stored.id, account_id: accountId, ...paymentMethodOf(stored.card) };
  }

  /** Drops tokens an hour past their expiry. Vaulted cards are kept. */
  prune(): Promise<number> {
    return this.#cardTokens.deleteExpired(this.clock.now());
  }
}
