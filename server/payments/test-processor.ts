import { randomBytes } from '../identity/secrets.ts';
import type { AttemptError } from '../../api/payments.ts';

/**
 * The test processor's answers: what attaching or authorising each test card outcome (cards.ts)
 * returns. The lifecycle (payments-service.ts) decides what they do to the intent.
 */
export const attemptError = (code: string, message: string, retriable: boolean): AttemptError => ({ type: 'card_error', code, message, retriable });

/** Cards refused when attached (4000 0000 0000 0127 and …0119). */
export const ATTACH_FAILURES = {
  attach_fail: attemptError('card_declined', 'The card was refused when attached: use another card.', false),
  attach_fail_retriable: attemptError('processing_error', 'The card could not be attached just now: try again.', true),
} as const;

/** Cards declined at authorisation (4000 0000 0000 0002, …9995 and …0101, whose security code the issuer finds wrong). */
export const DECLINES = {
  decline: attemptError('card_declined', 'The card was declined.', false),
  insufficient_funds: attemptError('insufficient_funds', 'The card has insufficient funds.', false),
  incorrect_cvc: attemptError('incorrect_cvc', "The card's security code is incorrect.", false),
} as const;

/** What a shopper who fails the 3-D Secure challenge gets. */
export const AUTHENTICATION_FAILED = attemptError('authentication_failed', 'The shopper failed 3-D Secure authentication.', false);

/** An authorisation code as acquirers print them: six upper-case letters and digits. */
export const authorisationCode = () => randomBytes(6).toString('base64url').toUpperCase().replace(/[^A-Z0-9]/g, '7').slice(0, 6);
