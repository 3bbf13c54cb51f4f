import type { Answer, BodyIn, QueryIn } from '../api/operations.ts';
import { Transport, type RawAnswer, type RequestOptions, type TransportOptions } from './transport.ts';

export { CpeApiError, type ApiErrorObject, type RawAnswer, type RequestOptions } from './transport.ts';

export interface CpeClientOptions extends TransportOptions {
  /** The merchant's licence key (`sk_test_…`). Server side only: never send it to a browser. */
  licenceKey: string;
}

/** The backend route each middleware route forwards to. */
const FORWARDED = { attach: 'attachPaymentIntent', confirm: 'confirmPaymentIntent', authorise: 'authorisePaymentIntent' } as const;

/**
 * The typed Node client of the service's backend routes (`import { CpeClient } from 'cpe/server'`).
 *
 * ```ts
 * const cpe = new CpeClient({ licenceKey: process.env.CPE_LICENCE_KEY!, baseUrl: 'http://localhost:4242' });
 * const { paymentIntentId, session_token, opaque_key } = await cpe.createPaymentIntent({ merchantid, amount: 1234, currency: 'GBP', identifier: 'order-1' });
 * ```
 */
export class CpeClient {
  readonly #transport: Transport;

  constructor(options: CpeClientOptions) {
    if ('window' in globalThis) throw new Error('CpeClient holds the licence key: use it on your server, never in a browser.');
    const key = options?.licenceKey;
    const where = 'your merchant\'s licence key sk_test_… (npm run -s credentials prints it; npm run -s merchant -- --origin <your page\'s origin> makes a merchant)';
    if (!key) throw new Error(`CpeClient: licenceKey is missing: pass ${where}, e.g. new CpeClient({ licenceKey: process.env.CPE_LICENCE_KEY }), and check that variable is set.`);
    if (typeof key !== 'string' || !/^sk_/.test(key))
      throw new Error(`CpeClient: licenceKey ${/^pk_/.test(String(key)) ? 'is the public key (pk_…), which belongs in the browser' : 'is not a licence key (it must start "sk_")'}: pass ${where}.`);
    this.#transport = new Transport(key, options);
  }

  createPaymentIntent(input: BodyIn<'createPaymentIntent'>, options?: RequestOptions): Promise<Answer<'createPaymentIntent'>> {
    return this.#transport.call('createPaymentIntent', { body: input, ...options });
  }

  retrievePaymentIntent(paymentIntentId: string): Promise<Answer<'retrievePaymentIntent'>> {
    return this.#transport.call('retrievePaymentIntent', { params: { id: paymentIntentId } });
  }

  /** Your intents, newest first: `status` (one or several), `created: {gte, lte}`, `metadata: {key: value}`, cursors. */
  listPaymentIntents(query?: QueryIn<'listPaymentIntents'>): Promise<Answer<'listPaymentIntents'>> {
    return this.#transport.call('listPaymentIntents', { query });
  }

  /** Sets `metadata` (merged; "" removes a key) and `description`. */
  updatePaymentIntent(paymentIntentId: string, input: BodyIn<'updatePaymentIntent'>, options?: RequestOptions): Promise<Answer<'updatePaymentIntent'>> {
    return this.#transport.call('updatePaymentIntent', { body: input, params: { id: paymentIntentId }, ...options });
  }

  /** Refunds captured money of a succeeded intent: `amount` (default: what remains), `reason`, `metadata`. */
  createRefund(input: BodyIn<'createRefund'>, options?: RequestOptions): Promise<Answer<'createRefund'>> {
    return this.#transport.call('createRefund', { body: input, ...options });
  }

  listRefunds(query?: QueryIn<'listRefunds'>): Promise<Answer<'listRefunds'>> {
    return this.#transport.call('listRefunds', { query });
  }

  retrieveRefund(refundId: string): Promise<Answer<'retrieveRefund'>> {
    return this.#transport.call('retrieveRefund', { params: { id: refundId } });
  }

  /**
   * Test mode: a single-use card token made from your server (`POST /v1/tokens`), for server-side
   * tests; it attaches once, to any of your intents. In a browser the hosted frames tokenise.
   */
  createToken(input: BodyIn<'createToken'>, options?: RequestOptions): Promise<Answer<'createToken'>> {
    return this.#transport.call('createToken', { body: input, ...options });
  }

  attach(input: BodyIn<'attachPaymentIntent'>, options?: RequestOptions): Promise<Answer<'attachPaymentIntent'>> {
    return this.#transport.call('attachPaymentIntent', { body: input, ...options });
  }

  confirm(input: BodyIn<'confirmPaymentIntent'>, options?: RequestOptions): Promise<Answer<'confirmPaymentIntent'>> {
    return this.#transport.call('confirmPaymentIntent', { body: input, ...options });
  }

  authorise(input: BodyIn<'authorisePaymentIntent'>, options?: RequestOptions): Promise<Answer<'authorisePaymentIntent'>> {
    return this.#transport.call('authorisePaymentIntent', { body: input, ...options });
  }

  capture(input: BodyIn<'capturePaymentIntent'>, options?: RequestOptions): Promise<Answer<'capturePaymentIntent'>> {
    return this.#transport.call('capturePaymentIntent', { body: input, ...options });
  }

  cancel(input: BodyIn<'cancelPaymentIntent'>, options?: RequestOptions): Promise<Answer<'cancelPaymentIntent'>> {
    return this.#transport.call('cancelPaymentIntent', { body: input, ...options });
  }

  verify(input: BodyIn<'verifyPaymentIntent'>, options?: RequestOptions): Promise<Answer<'verifyPaymentIntent'>> {
    return this.#transport.call('verifyPaymentIntent', { body: input, ...options });
  }

  /** Your payment events, newest first: `{type: 'payment_intent.*', created: {gte}}`, cursors as in every list. */
  listEvents(query: QueryIn<'listEvents'> = {}): Promise<Answer<'listEvents'>> {
    return this.#transport.call('listEvents', { query });
  }

  retrieveEvent(eventId: string): Promise<Answer<'retrieveEvent'>> {
    return this.#transport.call('retrieveEvent', { params: { id: eventId } });
  }

  /** Sends an event to one of your webhook endpoints again, now. */
  retryEvent(eventId: string, input: BodyIn<'retryEvent'>, options?: RequestOptions): Promise<Answer<'retryEvent'>> {
    return this.#transport.call('retryEvent', { body: input, params: { id: eventId }, ...options });
  }

  /** A webhook endpoint for your events; the answer's `secret` (whsec_…) is shown only here: keep it. */
  createWebhookEndpoint(input: BodyIn<'createWebhookEndpoint'>, options?: RequestOptions): Promise<Answer<'createWebhookEndpoint'>> {
    return this.#transport.call('createWebhookEndpoint', { body: input, ...options });
  }

  listWebhookEndpoints(query: QueryIn<'listWebhookEndpoints'> = {}): Promise<Answer<'listWebhookEndpoints'>> {
    return this.#transport.call('listWebhookEndpoints', { query });
  }

  retrieveWebhookEndpoint(endpointId: string): Promise<Answer<'retrieveWebhookEndpoint'>> {
    return this.#transport.call('retrieveWebhookEndpoint', { params: { id: endpointId } });
  }

  updateWebhookEndpoint(endpointId: string, input: BodyIn<'updateWebhookEndpoint'>, options?: RequestOptions): Promise<Answer<'updateWebhookEndpoint'>> {
    return this.#transport.call('updateWebhookEndpoint', { body: input, params: { id: endpointId }, ...options });
  }

  deleteWebhookEndpoint(endpointId: string): Promise<Answer<'deleteWebhookEndpoint'>> {
    return this.#transport.call('deleteWebhookEndpoint', { params: { id: endpointId } });
  }

  /** A new secret; for 24 hours deliveries carry signatures of both. */
  rotateWebhookEndpointSecret(endpointId: string, options?: RequestOptions): Promise<Answer<'rotateWebhookEndpointSecret'>> {
    return this.#transport.call('rotateWebhookEndpointSecret', { body: {}, params: { id: endpointId }, ...options });
  }

  listWebhookAttempts(endpointId: string, query: QueryIn<'listWebhookAttempts'> = {}): Promise<Answer<'listWebhookAttempts'>> {
    return this.#transport.call('listWebhookAttempts', { params: { id: endpointId }, query });
  }

  /**
   * POSTs a body to a backend route and hands back the answer as is, errors included: what a
   * merchant's middleware route does with the SDK's request.
   */
  async forward(operation: 'attach' | 'confirm' | 'authorise', body: unknown, options?: RequestOptions): Promise<RawAnswer> {
    return this.#transport.send(FORWARDED[operation], { body, ...options });
  }
}
