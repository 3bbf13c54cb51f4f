import type { CheckoutContext, CreateServerIntent, ElementsOptions, MiddlewareRoutes } from '../protocol/schemas/elements-options.ts';
import * as guards from '../protocol/runtime/guards.ts';
import { check } from '../protocol/runtime/json-guard.ts';
import type { PaymentIntentSession } from '../protocol/schemas/session.ts';
import { CpeCardFields } from './card-fields/card-fields.ts';
import { CpeCard } from './card/card.ts';
import { describeIssues, SdkError } from './errors.ts';
import { firstCopy } from './define.ts';
import type { FrameHost } from './internal/frame-host.ts';
import { parse, type CardElementOptions, type CardFieldsElementOptions, type FlowOptions, type PaymentElementOptions, type WalletAOptions, type WalletBOptions } from './internal/options.ts';
import { CpePaymentFlow } from './payment-flow/payment-flow.ts';
import { CpeVerifyFlow } from './verify-flow/verify-flow.ts';
import { CpeWalletA } from './wallet-a/wallet-a.ts';
import { CpeWalletB } from './wallet-b/wallet-b.ts';
import { CpePayment } from './payment/payment.ts';
import { scrub } from './transport/transport.ts';
import { loadPayment } from './internal/load-chunks.ts';
import { noop } from './internal/frame-mount.ts';

/** The service is whoever served this module: frames and session routes live on that origin. */
export const sdkOrigin = (): string => new URL(import.meta.url).origin;

/**
 * Validates `createElements` options (an SdkError naming the option otherwise) and makes the
 * controller. One source of intents, said once: createServerIntent, or Checkout Context (both
 * `middleware.exchange` and `context`); half of Checkout Context, or both sources, is an error
 * rather than one of them silently ignored. `where` names the caller (`<cpe-elements>`: its
 * `intent-url` is createServerIntent, `exchange-url` middleware.exchange, `amount` and `currency` the context).
 */
export function makeController(options: ElementsOptions, serviceOrigin = sdkOrigin(), where = 'createElements'): ElementsController {
  if (firstCopy) throw new SdkError('sdk_loaded_twice', `${where}: the CPE SDK is loaded twice, from ${firstCopy} (first: the page's elements are its) and ${import.meta.url}: load it once.`);
  const { pubKey, createServerIntent, middleware, context } = parse(where, guards.ElementsOptions, options);
  const fail = (option: string, text: string) => {
    throw new SdkError('invalid_options', `${where}: ${text}`, option);
  };
  if (middleware?.exchange && !context)
    fail('context', 'option "middleware.exchange" needs option "context" { amount, currency, reference? }, or remove it and pass createServerIntent.');
  if (context && !middleware?.exchange) fail('middleware.exchange', 'option "context" needs option "middleware.exchange", the route that makes its Payment Intent.');
  if (context && createServerIntent) fail('createServerIntent', 'pass option "createServerIntent" or Checkout Context, not both.');
  if (!createServerIntent && !context)
    fail('createServerIntent', 'option "createServerIntent" is missing (or use Checkout Context: middleware.exchange and context).');
  const controller = new ElementsController(serviceOrigin, pubKey, createServerIntent, Object.freeze({ ...middleware }), context);
  void controller.keyCheck(where);
  return controller;
}

/**
 * The Elements controller (spec, Area B browser SDK). It owns the Payment Intent session: the
 * merchant's `createServerIntent` runs once, on first need, and its answer is shared by every
 * element of the page. Factories (`cardElement`, `paymentFlow`, …) are added here.
 */
export class ElementsController {
  readonly #createServerIntent?: CreateServerIntent;
  #session?: Promise<PaymentIntentSession>;
  /** The session once it exists. */
  current?: PaymentIntentSession;
  /** @internal The mounted elements (they get the session when Checkout Context exchanges it). */
  readonly hosts = new Set<FrameHost>();
  /** @internal Flow identifiers in use. */
  readonly #flows = new Map<string, FrameHost>();

  constructor(
    /** Origin of the service that served the SDK: hosted frames and session-backed routes live there. */
    readonly serviceOrigin: string,
    readonly pubKey: string,
    createServerIntent?: CreateServerIntent,
    /** Merchant backend routes; a missing key means direct mode for that step. */
    readonly middleware: Readonly<MiddlewareRoutes> = {},
    /** Checkout Context (with `middleware.exchange`): what the page shows until the shopper commits. */
    readonly context?: CheckoutContext,
    /** @internal What tests inject instead of patching globals: the controller's HTTP and its frames' time limits. */
    internals: { fetch?: typeof fetch; handshakeTimer?: (onTimeout: () => void) => () => void; requestTimeoutMs?: number } = {},
  ) {
    this.#createServerIntent = createServerIntent;
    this.fetch = internals.fetch ?? ((input, init) => fetch(input, init));
    this.handshakeTimer =
      internals.handshakeTimer ??
      ((onTimeout) => {
        const timer = setTimeout(onTimeout, this.handshakeTimeoutMs);
        return () => clearTimeout(timer);
      });
    this.requestTimeoutMs = internals.requestTimeoutMs;
  }

  /** @internal Every request of this controller's elements to the service and the merchant's routes. */
  readonly fetch: typeof fetch;
  /** @internal How long a frame may take to say hello before init fails with `timeout`. */
  readonly handshakeTimeoutMs = 15_000;
  /** @internal Ends a mount's handshake when its time is up (by default after handshakeTimeoutMs). */
  readonly handshakeTimer: (onTimeout: () => void) => () => void;
  /** @internal How long a frame may take to answer a request (default: the bridge's, per method). */
  readonly requestTimeoutMs?: number;

  #keyCheck?: Promise<SdkError | void>;

  /**
   * @internal Whether the service knows this public key and this page's origin is registered for it
   * (one GET, asked once, before the first mount): an SdkError `unknown_public_key` or
   * `origin_not_registered` naming the origin and the fix, else undefined. An answer that is not the
   * service's (no route, no network: a CSP without the service in connect-src) says nothing: the
   * frame's handshake timeout stays the last resort.
   */
  keyCheck(where = 'createElements'): Promise<SdkError | void> {
    const fix = `npm run -s merchant -- --origin ${location.origin}`;
    return (this.#keyCheck ??= this.fetch(`${this.serviceOrigin}/v1/public_keys/${encodeURIComponent(this.pubKey)}`, { credentials: 'omit' })
      .then(async (response) => {
        const body = await response.json();
        if (response.status === 404 && body.error?.param === 'key')
          return new SdkError('unknown_public_key', `${where}: the CPE service at ${this.serviceOrigin} has no public key "${this.pubKey}": copy "publicKey" from npm run -s credentials, or make a merchant for this page with ${fix}.`, 'pubKey');
        if (body.origin_allowed === false)
          return new SdkError('origin_not_registered', `${where}: this page's origin ${location.origin} is not registered for the public key "${this.pubKey}": make a merchant for it with ${fix} and use its keys.`, 'pubKey');
      })
      .catch(noop));
  }

  /** Checkout Context: `middleware.exchange` and `context` (createServerIntent is then not called). */
  get #exchanges(): boolean {
    return !!(this.middleware.exchange && this.context);
  }

  /**
   * The hosted card form. Returns its `<cpe-card>`, which `init()` mounts inside `options.element`.
   * Throws an SdkError naming the option at fault.
   */
  cardElement(options: CardElementOptions): CpeCard {
    return new CpeCard().setup(this, parse('cardElement', guards.CardElementOptions, options));
  }

  /** Separate hosted fields (number, expiry, cvc, name). Returns its `<cpe-card-fields>`; see its docs for the targets. */
  cardFieldsElement(options: CardFieldsElementOptions): CpeCardFields {
    return new CpeCardFields().setup(this, parse('cardFieldsElement', guards.CardFieldsElementOptions, options));
  }

  /** The prebuilt payment flow (card form and Pay button). Returns its `<cpe-payment-flow>`; identifier default `default_payment_flow`. */
  paymentFlow(options: FlowOptions = {}): CpePaymentFlow {
    return this.#flow(new CpePaymentFlow(), 'paymentFlow', options);
  }

  /** The prebuilt card verification (Verify Card, no payment). Returns its `<cpe-verify-flow>`; identifier default `default_verify_flow`. */
  verifyFlow(options: FlowOptions = {}): CpeVerifyFlow {
    return this.#flow(new CpeVerifyFlow(), 'verifyFlow', options);
  }

  /** A Flow's identifier is claimed at once (default: what the Flow's `identifier` property reads). */
  #flow<T extends CpePaymentFlow>(flow: T, where: string, options: FlowOptions): T {
    const o = parse(where, guards.CardElementOptions, options);
    this.claim(flow, where, (o.identifier ??= flow.identifier));
    return flow.setup(this, o);
  }

  /** @internal One identifier per Flow of this controller: a second one is an SdkError saying so. */
  claim(flow: FrameHost, where: string, identifier: string): void {
    const other = this.#flows.get(identifier);
    if (other && other !== flow && !other.released)
      throw new SdkError('invalid_options', `${where}: identifier "${identifier}" is already used by another Flow of this controller: give each Flow its own identifier.`, 'identifier');
    // A Flow renamed (its identifier property) frees its previous one.
    for (const [id, f] of this.#flows) if (f === flow) this.#flows.delete(id);
    this.#flows.set(identifier, flow);
  }

  /**
   * Every method in one element (Stripe's Payment Element): card, wallet A and wallet B as tabs, each
   * wallet only where available, one Pay button or yours calling `pay()`. Returns its `<cpe-payment>`.
   */
  paymentElement(options: PaymentElementOptions = {}): CpePayment {
    return new CpePayment().setup(this, parse('paymentElement', guards.PaymentElementOptions, options));
  }

  /** Wallet A's button: runs the wallet session by itself (tokenise, attach, confirm, authorise). Returns its `<cpe-wallet-a>`. */
  walletA(options: WalletAOptions): CpeWalletA {
    return new CpeWalletA().setup(this, parse('walletA', guards.WalletAOptions, options));
  }

  /** Wallet B's button: register onTokeniseEnd, onCancel and onError before init(). Returns its `<cpe-wallet-b>`. */
  walletB(options: WalletBOptions): CpeWalletB {
    return new CpeWalletB().setup(this, parse('walletB', guards.WalletBOptions, options));
  }

  /** @internal What an element mounts with: the session, or (Checkout Context) none until the shopper commits. */
  initial(): Promise<PaymentIntentSession | undefined> {
    return this.#exchanges ? Promise.resolve(this.current) : this.session();
  }

  /** The current Payment Intent's id; creates the session on first call. */
  async getPaymentIntentId(): Promise<string> {
    return (await this.session()).paymentIntentId;
  }

  /**
   * The session, created once. Concurrent callers share one `createServerIntent` call; a failed or
   * invalid answer is not kept, so the next call asks the backend again.
   */
  session(identifier?: string): Promise<PaymentIntentSession> {
    // Checkout Context exchanges at the shopper's commit: its code is the payment code's (payment-steps.ts).
    const exchange = () => loadPayment().then((code) => code.exchange(this, identifier ?? 'default', (answer, where) => this.#check(answer, where)));
    this.#session ??= (this.#exchanges ? exchange() : this.#createSession()).catch((error: unknown) => {
      this.#session = undefined;
      throw error;
    });
    return this.#session;
  }

  async #createSession(): Promise<PaymentIntentSession> {
    let answer: unknown;
    try {
      answer = await this.#createServerIntent!();
    } catch (cause) {
      // What your backend (or the network) said, in the message itself; the element offers Try again.
      const said = cause instanceof Error ? cause.message : String(cause);
      throw new SdkError('create_server_intent_failed', `createServerIntent failed: ${scrub(said).slice(0, 300)} (the element's Try again calls it again).`, 'createServerIntent', { cause });
    }
    return (this.current = this.#check(answer, 'createServerIntent'));
  }

  #check(answer: unknown, where: string): PaymentIntentSession {
    // Your backend's error body, passed on as if it were a session (`.then((r) => r.json())` on a 500): say its message.
    const error = (answer as { error?: { message?: unknown } } | null)?.error;
    if (error)
      throw new SdkError('create_server_intent_failed', `${where} ${where === 'createServerIntent' ? 'resolved to' : 'answered'} an error of your backend instead of a session: ${scrub(String(error.message ?? JSON.stringify(error))).slice(0, 300)}`, where);
    const issues = check(guards.PaymentIntentSession, answer);
    if (issues.length) {
      const { message } = describeIssues(
        `${where} must ${where === 'createServerIntent' ? 'resolve to' : 'answer'} { paymentIntentId, sessionToken, opaqueKey }`,
        'field',
        answer && typeof answer === 'object' ? issues : [{ path: [], message: `got ${answer === null ? 'null' : typeof answer}` }],
        'it',
      );
      throw new SdkError('invalid_session', message, where);
    }
    const { paymentIntentId, sessionToken, opaqueKey } = answer as PaymentIntentSession;
    return { paymentIntentId, sessionToken, opaqueKey };
  }
}
