import type { BillingDetails } from '../../api/payments.ts';
import type { WalletId } from '../../protocol/wallets/index.ts';
import type { ServiceErrorCode } from '../../api/error-codes.ts';
import { ApiError } from '../http/api-error.ts';
import { SCHEMES, schemeOf, luhnValid, type Scheme } from '../../protocol/runtime/card-schemes.ts';
import { outcomeOf, type CardOutcome } from './test-cards.ts';

export { SCHEMES, SCHEME_NAMES, schemeOf, luhnValid, type Scheme } from '../../protocol/runtime/card-schemes.ts';

/** What a tokenised card keeps: enough for the processor and for display, never the PAN or CSC. */
export interface CardSummary {
  scheme: Scheme;
  first6: string;
  last4: string;
  pan_length: number;
  exp_month: number;
  exp_year: number;
  name: string;
  /** What the test processor does with it (test-cards.ts TEST_CARDS), fixed at tokenise time so the number need not be kept. */
  outcome: CardOutcome;
  /** Set on a token minted by the wallet test sheet: which wallet it came from. */
  wallet?: WalletId;
  /** On an attempt's card: who pays, as the page said at attach (`pay({billingDetails})`). */
  billing_details?: BillingDetails;
}

export interface RawCard {
  number: string;
  exp_month: string;
  exp_year: string;
  cvc: string;
  name: string;
}

const cardError = (param: string, code: ServiceErrorCode, message: string) => new ApiError(code, message, `card[${param}]`);

/**
 * Validates a card as the hosted fields submit it (Luhn, length and CSC length by scheme, a future
 * expiry, a name) and reduces it to a summary. Errors are 400 card_error naming the field.
 */
export function validateCard(card: RawCard, now = new Date()): CardSummary {
  const digits = card.number.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(digits)) throw cardError('number', 'invalid_number', 'The card number must contain only digits.');
  const scheme = schemeOf(digits);
  const rules = SCHEMES[scheme];
  if (!(rules.lengths as readonly number[]).includes(digits.length))
    throw cardError('number', 'invalid_number', `A ${scheme} card number has ${rules.lengths.join(' or ')} digits.`);
  if (!luhnValid(digits)) throw cardError('number', 'incorrect_number', 'The card number is not valid (check digit).');

  if (!/^\d{1,2}$/.test(card.exp_month.trim())) throw cardError('exp_month', 'invalid_expiry_month', 'The expiry month must be 1 to 12.');
  const month = Number(card.exp_month);
  if (month < 1 || month > 12) throw cardError('exp_month', 'invalid_expiry_month', 'The expiry month must be 1 to 12.');
  const yearText = card.exp_year.trim();
  if (!/^(\d{2}|\d{4})$/.test(yearText)) throw cardError('exp_year', 'invalid_expiry_year', 'The expiry year must have 2 or 4 digits.');
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  const thisYear = now.getUTCFullYear();
  const thisMonth = now.getUTCMonth() + 1;
  if (year > thisYear + 50) throw cardError('exp_year', 'invalid_expiry_year', 'The expiry year is too far in the future.');
  if (year < thisYear || (year === thisYear && month < thisMonth)) throw cardError('exp_year', 'expired_card', 'The card has expired.');

  if (!new RegExp(`^\\d{${rules.cvc}}$`).test(card.cvc))
    throw cardError('cvc', 'invalid_cvc', `The security code of a ${scheme} card has ${rules.cvc} digits.`);
  const name = card.name.trim();
  if (!name) throw cardError('name', 'invalid_name', 'Enter the name on the card.');

  return {
    scheme,
    first6: digits.slice(0, 6),
    last4: digits.slice(-4),
    pan_length: digits.length,
    exp_month: month,
    exp_year: year,
    name,
    outcome: outcomeOf(digits),
  };
}

/** `424242******4242`: the BIN and last four, the rest masked, at the card's length. */
export const maskedPan = (card: Pick<CardSummary, 'first6' | 'last4' | 'pan_length'>) =>
  card.first6 + '*'.repeat(Math.max(0, card.pan_length - 10)) + card.last4;

export const isExpired = (card: Pick<CardSummary, 'exp_month' | 'exp_year'>, now = new Date()) =>
  card.exp_year < now.getUTCFullYear() || (card.exp_year === now.getUTCFullYear() && card.exp_month < now.getUTCMonth() + 1);
