import type { AttemptErrorCode } from '../../api/error-codes.ts';
import type { AttemptError } from '../../api/payments.ts';
import type { RefundFailureReason } from '../../api/refunds.ts';
import type { WalletTestCardChoice } from '../../protocol/runtime/wallet.ts';

/*
 * The test cards and what each does (the table), apart from the test processor that answers by it
 * (test-processor.ts): a card's outcome is fixed when it is tokenised (cards.ts), and the processor
 * reads it, so neither imports the other.
 */

export const attemptError = (code: AttemptErrorCode, message: string, retriable: boolean): AttemptError => ({ type: 'card_error', code, message, retriable });

/** How long a pending refund of the refund-failure card waits for the processor's answer (Stripe: a few seconds to days). */
export const PENDING_REFUND_SECONDS = 5;

/** What one test card does at each step; a step left out behaves as the approved card. */
export interface TestCard {
  /** Card numbers (digits only) with this behaviour; none for the default row. */
  numbers: readonly string[];
  /** README and the challenge page's wording of the outcome. */
  says: string;
  /** The test card the wallet test sheet offers under this name, if any. */
  wallet?: WalletTestCardChoice;
  attach?: AttemptError;
  challenge?: true;
  decline?: AttemptError;
  /** The refund stays pending `PENDING_REFUND_SECONDS`, then fails for this reason. */
  refundFails?: RefundFailureReason;
}

/**
 * THE test cards: each row is one behaviour (its name is what a token keeps as the card's `outcome`,
 * so the number itself is never kept), the numbers that have it, and what each step of the test
 * processor answers for it. A new test card is a row here; the payments service never branches on
 * one. README "Test cards" lists the same rows (test/server/test-cards.test.ts checks it).
 */
export const TEST_CARDS = {
  approve: { numbers: [], says: 'approved, frictionless', wallet: 'visa' },
  challenge: { numbers: ['4000000000003220'], says: '3-D Secure challenge', wallet: 'challenge', challenge: true },
  decline: {
    numbers: ['4000000000000002'],
    says: 'declined at authorisation',
    wallet: 'declined',
    decline: attemptError('card_declined', 'The card was declined.', false),
  },
  insufficient_funds: {
    numbers: ['4000000000009995'],
    says: 'declined at authorisation: insufficient funds',
    wallet: 'insufficient',
    decline: attemptError('insufficient_funds', 'The card has insufficient funds.', false),
  },
  incorrect_cvc: {
    numbers: ['4000000000000101'],
    says: 'declined at authorisation: the security code is incorrect',
    decline: attemptError('incorrect_cvc', "The card's security code is incorrect.", false),
  },
  attach_fail: {
    numbers: ['4000000000000127'],
    says: 'attach refused, not retriable',
    wallet: 'attach_fail',
    attach: attemptError('card_declined', 'The card was refused when attached: use another card.', false),
  },
  attach_fail_retriable: {
    numbers: ['4000000000000119'],
    says: 'attach refused, retriable',
    attach: attemptError('processing_error', 'The card could not be attached just now: try again.', true),
  },
  refund_fail: { numbers: ['4000000000005126'], says: 'approved; a refund is pending, then failed', refundFails: 'expired_or_canceled_card' },
} as const satisfies Record<string, TestCard>;

/** The name of a test card's behaviour: what a tokenised card keeps (CardSummary.outcome). */
export type CardOutcome = keyof typeof TEST_CARDS;

const BY_NUMBER = new Map<string, CardOutcome>(Object.entries(TEST_CARDS).flatMap(([outcome, card]) => card.numbers.map((n) => [n, outcome as CardOutcome] as const)));

/** The behaviour of a card number (digits only): its row, or `approve` for every other Luhn-valid number. */
export const outcomeOf = (digits: string): CardOutcome => BY_NUMBER.get(digits) ?? 'approve';

/** The number the wallet test sheet's choice stands for (the sheet never sees it). */
export function walletTestCard(choice: WalletTestCardChoice): string {
  const [outcome, card] = Object.entries(TEST_CARDS as Record<string, TestCard>).find(([, card]) => card.wallet === choice)!;
  return outcome === 'approve' ? '4242424242424242' : card.numbers[0]!;
}
