/**
 * Every error code the service answers (and the merchant middleware of `cpe/server`, which answers
 * in the same shape), with its HTTP status and type: the one table. `ApiError` takes a code and reads
 * its status and type here, the API description lists the codes (api/errors.ts), and the README's
 * table of codes is generated from it (`npm run -s gen:docs`; a test fails while it is stale).
 *
 * Plain data with no import, as routes.ts: the Node client reads it at run time without zod.
 */

export const ERROR_TYPES = ['invalid_request_error', 'authentication_error', 'rate_limit_error', 'idempotency_error', 'card_error', 'api_error'] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export interface ErrorCodeRow {
  /** The answer's HTTP status; null for a code that comes inside a 200 answer (a payment attempt's `error`). */
  status: number | null;
  type: ErrorType;
  /** What it means and what to do, for the README's table. */
  means: string;
  /** Answered by the merchant middleware or the Node client of `cpe/server` only, never by the service. */
  client?: true;
}

const invalid = 'invalid_request_error';
const card = 'card_error';
const service = 'api_error';

export const ERROR_CODES = {
  // 400: the request is wrong; `param` names the field (in form notation, `billTo[email]`).
  parameter_missing: { status: 400, type: invalid, means: 'A required field is missing.' },
  parameter_invalid: { status: 400, type: invalid, means: 'A field has a value it cannot take; the message says which values it takes.' },
  parameter_unknown: { status: 400, type: invalid, means: 'A field the operation does not take (a typo is never silently ignored), or one named after `Object.prototype`.' },
  too_many_parameters: { status: 400, type: invalid, means: 'More than 1,000 form fields or 100 query parameters, which a parser would drop without a word.' },
  body_invalid: { status: 400, type: invalid, means: 'The body does not parse as its Content-Type, or does not decode as its Content-Encoding.' },
  body_too_deep: { status: 400, type: invalid, means: 'The body nests deeper than 32 levels.' },
  request_invalid: { status: 400, type: invalid, means: 'The request could not be read (cut short, or an encoding the service does not take).' },
  amount_too_large: { status: 400, type: invalid, means: 'A capture of more than the authorised amount, or a refund of more than what remains refundable.' },
  charge_already_refunded: { status: 400, type: invalid, means: 'A refund of a Payment Intent whose captured amount is refunded in full already.' },
  limit_exceeded: { status: 400, type: invalid, means: 'More objects of a kind than an account may have (16 webhook endpoints): delete one first.' },
  token_already_used: { status: 400, type: invalid, means: 'A card token is single-use: tokenise the card again.' },
  token_expired: { status: 400, type: invalid, means: 'A card token is valid 15 minutes: tokenise the card again.' },
  // 400 card_error: the card details are wrong; `param` names the field (`card[number]`).
  invalid_number: { status: 400, type: card, means: 'The card number has characters other than digits, or the wrong length for its scheme.' },
  incorrect_number: { status: 400, type: card, means: "The card number's check digit is wrong (Luhn)." },
  invalid_expiry_month: { status: 400, type: card, means: 'The expiry month is not 1 to 12.' },
  invalid_expiry_year: { status: 400, type: card, means: 'The expiry year is not 2 or 4 digits, or too far ahead.' },
  expired_card: { status: 400, type: card, means: 'The card (or the stored card) has expired.' },
  invalid_cvc: { status: 400, type: card, means: "The security code's length is not its scheme's." },
  invalid_name: { status: 400, type: card, means: 'The name on the card is empty.' },
  // 401: the credential.
  unauthenticated: { status: 401, type: 'authentication_error', means: 'No credential, or not a valid one for this route (`WWW-Authenticate: Bearer`).' },
  sign_in_failed: { status: 401, type: 'authentication_error', means: "The dashboard's sign-in: a licence key that is not the service's (or rolled and expired), or a one-time link used already or over an hour old." },
  signed_out: { status: 401, type: 'authentication_error', means: "The dashboard: no session, or one that ended (signed out, 12 hours passed, a Roll key ended it): sign in again." },
  // 403: who may call.
  origin_not_allowed: { status: 403, type: invalid, means: "A browser request from a page origin the merchant has not registered; the message names the `npm run -s merchant -- --origin …` that would." },
  frames_only: { status: 403, type: invalid, means: "A route of the service's own frames (tokenise, the wallet sheet) called from elsewhere; servers tokenise with `POST /v1/tokens`." },
  cross_site_request: { status: 403, type: invalid, means: "A dashboard action from another site or page (its `Origin` is not the service's): dashboard actions are taken on the dashboard's own pages." },
  csrf_token_invalid: { status: 403, type: invalid, means: "A dashboard action without its session's CSRF token (`X-CSRF-Token`)." },
  challenge_page_only: { status: 403, type: invalid, means: "A 3-D Secure answer that did not come from the challenge page's own form." },
  // 404.
  resource_missing: { status: 404, type: invalid, means: "No such object, or another user's or merchant's (never 403, so an id reveals nothing); `param` names the field that held the id." },
  route_missing: { status: 404, type: invalid, means: 'No route at this method and path.' },
  // 405.
  method_not_allowed: { status: 405, type: invalid, means: 'The path does not take this method; `Allow` lists those it takes.' },
  // 409: the state of an object forbids it.
  resource_already_exists: { status: 409, type: invalid, means: 'The object exists already (a contact’s or group’s conversation; two requests made it at once).' },
  payment_intent_unexpected_state: { status: 409, type: invalid, means: "The Payment Intent's status does not allow the operation; the message names the status." },
  payment_intent_locked: { status: 409, type: invalid, means: 'The Payment Intent was cancelled after 5 failed card attempts: create a new one.' },
  challenge_answered: { status: 409, type: invalid, means: 'The 3-D Secure challenge was answered already.' },
  challenge_superseded: { status: 409, type: invalid, means: 'The 3-D Secure challenge no longer applies (the intent moved on).' },
  attempt_in_flight: { status: 409, type: invalid, means: 'A retry of an event to a webhook endpoint while an attempt of it is under way: retry once that attempt has ended (the attempts list shows it).' },
  context_mismatch: { status: 409, type: invalid, client: true, means: "The exchange route: the amount or currency the page showed is not the basket's price; nothing was created." },
  idempotency_key_reused: { status: 409, type: 'idempotency_error', means: 'The `X-Idempotency-Key` was used with another body: use a new key.' },
  // 413, 415.
  request_too_large: { status: 413, type: invalid, means: 'The body is over 64 KB.' },
  unsupported_media_type: { status: 415, type: invalid, means: 'A body that is neither JSON nor form fields.' },
  // 429: retry after `Retry-After` seconds.
  rate_limited: { status: 429, type: 'rate_limit_error', means: 'Over the rate limit of the credential (or address); `Retry-After` says when to retry.' },
  lock_timeout: { status: 429, type: 'rate_limit_error', means: 'Another request was changing the same object at the same moment: retry.' },
  // 5xx: the service's side; retry (with the same idempotency key).
  internal_error: { status: 500, type: service, means: 'An unexpected error, logged with its request id; no detail is shown.' },
  service_unavailable: { status: 502, type: service, client: true, means: 'A middleware route: the payment service could not be reached.' },
  invalid_response: { status: 502, type: service, client: true, means: "CpeClient: the service's answer is not JSON (a proxy's page, a cut body)." },
  unexpected_answer: { status: 502, type: service, client: true, means: 'CpeClient: an error answer without the error object (the HTTP status is kept).' },
  starting: { status: 503, type: service, means: 'The service is starting: retry after `Retry-After`.' },
  database_unavailable: { status: 503, type: service, means: 'The service cannot reach its PostgreSQL database (stopped, restarting, unreachable), or waits for it at start, or every connection of its pool stayed busy for 30 s: retry after `Retry-After`.' },
  sdk_not_built: { status: 503, type: service, means: 'The browser SDK has not been built (`npm run build`).' },
  dashboard_not_built: { status: 503, type: service, means: 'The dashboard has not been built (`npm run build`).' },
  // In a 200 answer: a payment attempt's `error` (`requires_payment_method`, `failed`, `authorised: false`).
  card_declined: { status: null, type: card, means: 'The card was refused at attach (4000 0000 0000 0127) or declined at authorisation (…0002).' },
  insufficient_funds: { status: null, type: card, means: 'Declined at authorisation: insufficient funds (…9995).' },
  incorrect_cvc: { status: null, type: card, means: 'Declined at authorisation: the security code is incorrect (…0101); the element clears the code and focuses it.' },
  processing_error: { status: null, type: card, means: 'The card could not be attached just now; `retriable` is true (…0119).' },
  authentication_failed: { status: null, type: card, means: 'The shopper failed the 3-D Secure challenge.' },
} as const satisfies Record<string, ErrorCodeRow>;

export type ErrorCode = keyof typeof ERROR_CODES;

type Row<K extends ErrorCode> = (typeof ERROR_CODES)[K];
/** A code the service answers with (an HTTP error; not a payment attempt's, nor only cpe/server's). */
export type ServiceErrorCode = { [K in ErrorCode]: Row<K>['status'] extends number ? (Row<K> extends { client: true } ? never : K) : never }[ErrorCode];
/** A code only cpe/server's middleware routes and Node client answer with. */
export type ClientErrorCode = { [K in ErrorCode]: Row<K> extends { client: true } ? K : never }[ErrorCode];
/** A payment attempt's error code (in a 200 answer). */
export type AttemptErrorCode = { [K in ErrorCode]: Row<K>['status'] extends null ? K : never }[ErrorCode];

export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as ErrorCode[];
export const SERVICE_ERROR_CODES = ERROR_CODE_NAMES.filter((code): code is ServiceErrorCode => ERROR_CODES[code].status !== null && !('client' in ERROR_CODES[code]));
