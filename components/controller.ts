import type { CreateServerIntent, ElementsOptions, MiddlewareRoutes } from '../protocol/elements-options.ts';
import * as guards from '../protocol/generated/guards.ts';
import { check } from '../protocol/json-guard.ts';
import type { PaymentIntentSession } from '../protocol/session.ts';
import { CpeCardFields } from './card-fields/card-fields.ts';
import { CpeCard } from './card/card.ts';
import { describeIssues, SdkError } from './errors.ts';
import type { ElementsApi } from './internal/frame-host.ts';
import { parse, type CardElementOptions, type CardFieldsElementOptions } from './internal/options.ts';

/** The service is whoever served this module: frames and session routes live on that origin. */
export const sdkOrigin = (): string => new URL(import.meta.url).origin;

/** Validates `createElements` options (an SdkError naming the option otherwise) and makes the controller. */
export function makeController(options: ElementsOptions, serviceOrigin = sdkOrigin()): ElementsController {
  const { pubKey, createServerIntent, middleware } = parse<ElementsOptions>('createElements', guards.ElementsOptions, options);
  return new ElementsController(serviceOrigin, pubKey, createServerIntent, Object.freeze({ ...middleware }));
}

const later = (name: string) => (): never => {
  throw new SdkError('not_available', `${name} is not available in this version of the SDK yet.`);
};

/**
 * The Elements controller (spec, Area B browser SDK). It owns the Payment Intent session: the
 * merchant's `createServerIntent` runs once, on first need, and its answer is shared by every
 * element of the page. Factories (`cardElement`, `paymentFlow`, …) are added here.
 */
export class ElementsController {
  readonly #createServerIntent: CreateServerIntent;
  #session?: Promise<PaymentIntentSession>;

  constructor(
    /** Origin of the service that served the SDK: hosted frames and session-backed routes live there. */
    readonly serviceOrigin: string,
    readonly pubKey: string,
    createServerIntent: CreateServerIntent,
    /** Merchant backend routes; a missing key means direct mode for that step. */
    readonly middleware: Readonly<MiddlewareRoutes> = {},
  ) {
    this.#createServerIntent = createServerIntent;
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

  /** Not in this version yet: throws an SdkError `not_available`. */
  walletA: (options?: unknown) => ElementsApi = later('walletA');
  walletB: (options?: unknown) => ElementsApi = later('walletB');
  paymentFlow: (options?: unknown) => ElementsApi = later('paymentFlow');
  verifyFlow: (options?: unknown) => ElementsApi = later('verifyFlow');

  /** The current Payment Intent's id; creates the session on first call. */
  async getPaymentIntentId(): Promise<string> {
    return (await this.session()).paymentIntentId;
  }

  /**
   * The session, created once. Concurrent callers share one `createServerIntent` call; a failed or
   * invalid answer is not kept, so the next call asks the backend again.
   */
  session(): Promise<PaymentIntentSession> {
    this.#session ??= this.#createSession().catch((error: unknown) => {
      this.#session = undefined;
      throw error;
    });
    return this.#session;
  }

  async #createSession(): Promise<PaymentIntentSession> {
    let answer: unknown;
    try {
      answer = await this.#createServerIntent();
    } catch (cause) {
      throw new SdkError(
        'create_server_intent_failed',
        'createServerIntent failed: your backend could not create a Payment Intent (see error.cause). It will be called again on the next attempt.',
        'createServerIntent',
        { cause },
      );
    }
    const issues = check(guards.PaymentIntentSession, answer);
    if (issues.length) {
      const { message } = describeIssues(
        'createServerIntent must resolve to { paymentIntentId, sessionToken, opaqueKey }',
        'field',
        answer && typeof answer === 'object' ? issues : [{ path: [], message: `got ${answer === null ? 'null' : typeof answer}` }],
        'it',
      );
      throw new SdkError('invalid_session', message, 'createServerIntent');
    }
    const { paymentIntentId, sessionToken, opaqueKey } = answer as PaymentIntentSession;
    return { paymentIntentId, sessionToken, opaqueKey };
  }
}
