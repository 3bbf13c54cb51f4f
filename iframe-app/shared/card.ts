import { SCHEMES, luhnValid, schemeOf, type Scheme } from '../../protocol/runtime/card-schemes.ts';
import type { CardField } from '../../protocol/schemas/bridge.ts';
import { CARD_FIELDS } from '../../protocol/runtime/frame-address.ts';
import type { Catalogue } from './i18n.ts';

export type { CardField, Scheme };
export { schemeOf };
export const FIELDS: readonly CardField[] = CARD_FIELDS;

/** What each input holds, normalised: digits for number, expiry (MMYY) and cvc; text for name. */
export type Values = Record<CardField, string>;
export const emptyValues = (): Values => ({ number: '', expiry: '', cvc: '', name: '' });

export type MessageKey = 'numberIncomplete' | 'numberInvalid' | 'expiryIncomplete' | 'expiryInvalid' | 'expiryPast' | 'cvcIncomplete' | 'nameRequired';

const digitsOf = (text: string) => text.replace(/\D/g, '');
export const maxNumberLength = (scheme: Scheme) => Math.max(...SCHEMES[scheme].lengths);
/** The security code length: the scheme's, or up to 4 before a number says which. */
export const cvcLength = (scheme: Scheme | undefined) => (scheme ? SCHEMES[scheme].cvc : 4);
export const detect = (number: string): Scheme | undefined => (number ? schemeOf(number) : undefined);

/** `4242 4242 4242 4242`, `3782 822463 10005`: spaces at the scheme's gaps. */
export function formatNumber(digits: string, scheme = schemeOf(digits)): string {
  let out = '';
  // 17 to 19 digits: one more group after the sixteenth.
  const gaps: readonly number[] = digits.length > 16 ? [...SCHEMES[scheme].gaps, 16] : SCHEMES[scheme].gaps;
  for (let i = 0; i < digits.length; i++) out += (gaps.includes(i) ? ' ' : '') + digits[i];
  return out;
}

/** `MM / YY`: a first digit above 1 is a month on its own (`4` → `04`). */
export function formatExpiry(digits: string): string {
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

/**
 * What an input event leaves in a field: the stored value, the text to show, and where the caret
 * goes (after the same number of significant characters as before formatting).
 */
export function normalise(field: CardField, raw: string, caret: number, scheme?: Scheme): { value: string; display: string; caret: number } {
  if (field === 'name') {
    const value = raw.replace(/[\r\n\t]/g, ' ').slice(0, 120);
    return { value, display: value, caret: Math.min(caret, value.length) };
  }
  let before = digitsOf(raw.slice(0, caret)).length;
  let value: string;
  let display: string;
  if (field === 'number') {
    const digits = digitsOf(raw);
    const s = schemeOf(digits);
    value = digits.slice(0, maxNumberLength(s));
    display = formatNumber(value, s);
  } else if (field === 'expiry') {
    // Autofilled or pasted `12/2030`, `12/30`, `1/30`.
    const parts = /^\s*(\d{1,2})\s*[/\-.\s]\s*(\d{2}|\d{4})\s*$/.exec(raw);
    if (parts) {
      value = parts[1]!.padStart(2, '0') + parts[2]!.slice(-2);
      before = value.length;
    } else {
      value = digitsOf(raw);
      // `4` is April; `1/` (a separator typed after one digit) is January.
      if (/^[2-9]$/.test(value[0] ?? '') || /^\s*\d\s*[/\-.\s]/.test(raw)) {
        value = '0' + value;
        before++;
      }
      value = value.slice(0, 4);
    }
    display = formatExpiry(value);
  } else {
    value = digitsOf(raw).slice(0, cvcLength(scheme));
    display = value;
  }
  before = Math.min(before, value.length);
  let pos = 0;
  for (let seen = 0; pos < display.length && seen < before; pos++) if (/\d/.test(display[pos]!)) seen++;
  return { value, display, caret: pos };
}

/** How a stored value is shown. */
export const displayOf = (field: CardField, value: string) =>
  field === 'number' ? formatNumber(value) : field === 'expiry' ? formatExpiry(value) : value;

/** The month and four-digit year of a complete MMYY. */
export const expiryParts = (value: string) => ({ month: Number(value.slice(0, 2)), year: 2000 + Number(value.slice(2, 4)) });

/**
 * The validation message for one field, or undefined when valid. Empty fields are "incomplete"
 * (the caller decides when to show that). Expiry compares with the current month in UTC, as the
 * service does.
 */
export function problemOf(field: CardField, value: string, scheme?: Scheme, now = new Date()): MessageKey | undefined {
  switch (field) {
    case 'number': {
      const s = schemeOf(value);
      if (!(SCHEMES[s].lengths as readonly number[]).includes(value.length)) {
        return value.length >= maxNumberLength(s) ? 'numberInvalid' : 'numberIncomplete';
      }
      return luhnValid(value) ? undefined : 'numberInvalid';
    }
    case 'expiry': {
      if (value.length >= 2 && (Number(value.slice(0, 2)) < 1 || Number(value.slice(0, 2)) > 12)) return 'expiryInvalid';
      if (value.length < 4) return 'expiryIncomplete';
      const { month, year } = expiryParts(value);
      const thisYear = now.getUTCFullYear();
      if (year < thisYear || (year === thisYear && month < now.getUTCMonth() + 1)) return 'expiryPast';
      return year > thisYear + 50 ? 'expiryInvalid' : undefined;
    }
    case 'cvc':
      return (scheme ? value.length === SCHEMES[scheme].cvc : value.length === 3 || value.length === 4) ? undefined : 'cvcIncomplete';
    case 'name':
      return value.trim() ? undefined : 'nameRequired';
  }
}

/**
 * Whether a problem should show while the shopper is still typing (before the field was left):
 * only when the field is already as long as it can be, or the month is impossible.
 */
export function showsWhileTyping(field: CardField, value: string, problem: MessageKey | undefined): boolean {
  if (field === 'number') return problem === 'numberInvalid' && value.length >= Math.min(16, maxNumberLength(schemeOf(value)));
  if (field === 'expiry') return problem === 'expiryInvalid' || (problem !== undefined && value.length === 4);
  return false;
}

/** The service's refusal codes (card_error) as catalogue messages; others show the service's message. */
const SERVICE_CODES: Record<string, MessageKey> = {
  invalid_number: 'numberInvalid',
  incorrect_number: 'numberInvalid',
  invalid_expiry_month: 'expiryInvalid',
  invalid_expiry_year: 'expiryInvalid',
  expired_card: 'expiryPast',
  invalid_cvc: 'cvcIncomplete',
  invalid_name: 'nameRequired',
};
export const serviceMessage = (catalogue: Catalogue, code: string, message: string) => (SERVICE_CODES[code] ? catalogue[SERVICE_CODES[code]] : message || catalogue.refused);

/** `card[number]`, `card[exp_month]` … → the field. */
export function fieldOfParam(param: unknown): CardField | undefined {
  const m = /^card\[(number|exp_month|exp_year|cvc|name)\]$/.exec(String(param ?? ''));
  if (!m) return undefined;
  return m[1] === 'exp_month' || m[1] === 'exp_year' ? 'expiry' : (m[1] as CardField);
}
