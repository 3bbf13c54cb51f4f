import type { AttemptError } from '../../api/payments.ts';
import type { RefundFailureReason } from '../../api/refunds.ts';
import type { CardSummary } from './cards.ts';

/**
 * The seam between the payments service (which orchestrates: the transition table, attempts, the
 * lock, refunds' bookkeeping) and whoever moves the money. The service never looks at a card's
 * number or outcome itself: it asks the processor at each step. CPE has one, the test processor
 * (test-processor.ts: the test cards' answers as one table); another would be one more class.
 */
export interface Processor {
  /** Attaching the card: accepted (null) or refused with the attempt's error. */
  attach(card: CardSummary): AttemptError | null;
  /** Confirm: does the card's issuer ask the shopper to authenticate (a 3-D Secure challenge)? */
  authenticate(card: CardSummary): 'challenge' | 'frictionless';
  /** What the shopper who fails the challenge gets. */
  readonly authenticationFailed: AttemptError;
  /** Reserves `amount` on the card. */
  authorise(card: CardSummary, amount: number): { approved: true; authorisationCode: string } | { approved: false; error: AttemptError };
  /** Takes `amount` (at most what was authorised) of an authorisation. */
  capture(card: CardSummary, amount: number): void;
  /** Releases an authorisation that will not be captured (cancel of requires_capture). */
  void(card: CardSummary): void;
  /** Sends `amount` back to the card: at once, or pending with the processor's answer due in `settlesIn` seconds. */
  refund(card: CardSummary, amount: number): { status: 'succeeded' } | { status: 'pending'; settlesIn: number };
  /** A pending refund's outcome, asked for once it is due. */
  settleRefund(card: CardSummary, amount: number): { status: 'succeeded' } | { status: 'failed'; failureReason: RefundFailureReason };
}
