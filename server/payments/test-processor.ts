import { randomBytes } from '../identity/secrets.ts';
import type { CardSummary } from './cards.ts';
import type { Processor } from './processor.ts';
import { attemptError, PENDING_REFUND_SECONDS, TEST_CARDS, type TestCard } from './test-cards.ts';

/** An authorisation code as acquirers print them: six upper-case letters and digits. */
export const authorisationCode = () => randomBytes(6).toString('base64url').toUpperCase().replace(/[^A-Z0-9]/g, '7').slice(0, 6);

const rowOf = (card: CardSummary): TestCard => (TEST_CARDS as Record<string, TestCard>)[card.outcome] ?? TEST_CARDS.approve;

/** The test processor: every answer is the card's row of TEST_CARDS. Moves no real money. */
export const testProcessor: Processor = {
  attach: (card) => rowOf(card).attach ?? null,
  authenticate: (card) => (rowOf(card).challenge ? 'challenge' : 'frictionless'),
  authenticationFailed: attemptError('authentication_failed', 'The shopper failed 3-D Secure authentication.', false),
  authorise(card) {
    const decline = rowOf(card).decline;
    return decline ? { approved: false, error: decline } : { approved: true, authorisationCode: authorisationCode() };
  },
  capture() {},
  void() {},
  refund: (card) => (rowOf(card).refundFails ? { status: 'pending', settlesIn: PENDING_REFUND_SECONDS } : { status: 'succeeded' }),
  settleRefund(card) {
    const reason = rowOf(card).refundFails;
    return reason ? { status: 'failed', failureReason: reason } : { status: 'succeeded' };
  },
};
