import type { CreateServerIntent, MiddlewareRoutes } from '../protocol/elements-options.ts';
import { PaymentIntentSession } from '../protocol/session.ts';
import { describeIssues, SdkError } from './errors.ts';

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
    const parsed = PaymentIntentSession.safeParse(answer);
    if (!parsed.success) {
      const { message } = describeIssues(
        'createServerIntent must resolve to { paymentIntentId, sessionToken, opaqueKey }',
        'field',
        answer && typeof answer === 'object' ? parsed.error.issues : [{ code: 'invalid_type', path: [], message: `got ${answer === null ? 'null' : typeof answer}` }],
        'it',
      );
      throw new SdkError('invalid_session', message, 'createServerIntent');
    }
    return parsed.data;
  }
}
