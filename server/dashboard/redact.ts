/**
 * What the dashboard's request log may keep of a request or an answer: the JSON with card data and
 * secrets taken out. Two nets, so that a field a later route adds is caught by its value when its
 * name is new: fields named for a card number, a security code, a credential or a token; and any
 * string holding a card number (13 to 19 digits passing Luhn, spaces or dashes between) or a
 * credential of the service's (licence, session, dashboard, webhook secrets).
 */
export const REDACTED = '[redacted]';

/** Field names (lower case, without `_` and `-`) whose value is never kept. */
const SECRET_FIELDS = new Set([
  'number', 'cardnumber', 'pan', 'cvc', 'cvv', 'csc', 'securitycode',
  'licencekey', 'licensekey', 'secret', 'sessiontoken', 'token', 'cpcardtoken', 'accesstoken', 'password',
  'authorization', 'link', 'formtoken', 'challenge',
]);

/** A credential of the service in a string: its prefix, then the random part (base64url). */
const CREDENTIAL = /\b(sk_(?:test|live)_|pk_(?:test|live)_|cpe_(?:st|ds|dl)_|whsec_|tok_)[A-Za-z0-9_-]{8,}/g;

/** Runs of 13 to 19 digits, optionally split by single spaces or dashes. */
const DIGIT_RUN = /\d(?:[ -]?\d){12,18}/g;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** A string with every card number and credential in it replaced. */
export function redactText(text: string): string {
  return text
    .replace(DIGIT_RUN, (run) => (luhn(run.replace(/\D/g, '')) ? REDACTED : run))
    .replace(CREDENTIAL, (_match, prefix: string) => `${prefix}${REDACTED}`);
}

const fieldIsSecret = (name: string) => SECRET_FIELDS.has(name.toLowerCase().replace(/[_-]/g, ''));

/** A copy of a JSON value with secret fields' values and every card number or credential replaced. */
export function redact(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redact);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) {
      // A card object keeps its scheme, last four and expiry; its number and code go.
      out[name] = fieldIsSecret(name) && item !== null && (typeof item !== 'object' || name === 'challenge') ? REDACTED : redact(item);
    }
    return out;
  }
  return value;
}
