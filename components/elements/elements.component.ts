import type { ElementsOptions, MiddlewareRoutes } from '../../protocol/schemas/elements-options.ts';
import * as guards from '../../protocol/runtime/guards.ts';
import { isRelativeUrl } from '../../protocol/runtime/option-checks.ts';
import { makeController, type ElementsController } from '../controller.ts';
import { adoptEarlyProperties, camel, HTMLElementOrStub, kebab } from '../define.ts';
import { SdkError } from '../errors.ts';
import { dispatchCpeEvent } from '../events.ts';
import { parse } from '../internal/options.ts';
import { postJson } from '../transport/transport.ts';

/** The middleware routes; each one's attribute is its kebab-case name with `-url` (`verifyAuth` → `verify-auth-url`). */
const ROUTES: (keyof MiddlewareRoutes)[] = ['attach', 'confirm', 'authorise', 'verifyAuth', 'exchange'];

/** `intent-url` stands for `createServerIntent`: a route of the merchant's backend. */
function intentUrl(url: string | null): void {
  if (url !== null && !isRelativeUrl(url))
    throw new SdkError('invalid_options', '<cpe-elements>: attribute "intent-url" must be a relative URL on your backend, such as "/api/intent"', 'intent-url');
}

/**
 * The provider: creates the Elements controller for the CPE elements inside it, so a page needs no
 * script of its own beyond the SDK import.
 *
 *   <cpe-elements pub-key="pk_test_…" intent-url="/api/intent" attach-url="/api/cpe/attach">
 *     <cpe-card layout="row"></cpe-card>
 *   </cpe-elements>
 *
 * `intent-url` is a relative route of your backend answering `POST` with a PaymentIntentSession
 * `{paymentIntentId, sessionToken, opaqueKey}` (it stands for `createServerIntent`); `attach-url`,
 * `confirm-url`, `authorise-url`, `verify-auth-url` and `exchange-url` are the `middleware` routes.
 * Each attribute is also a property (`pubKey`, `intentUrl`, `attachUrl`, …, `amount`, `currency`,
 * `reference`). A change makes a new controller once the first exists, and the elements inside
 * mount again with it. Invalid attributes emit `cpe:error` (code `invalid_options`) from this
 * element; an invalid value set as a property throws that SdkError.
 *
 * Checkout Context: `exchange-url` with `amount` (minor units), `currency` and optional `reference`
 * (`intent-url` may then be omitted): the elements mount with no intent until the shopper commits.
 *
 * @tagname cpe-elements
 * @summary Controller provider.
 * @attr {string} pub-key - Your public key `pk_…` (property `pubKey`).
 * @attr {string} intent-url - Your backend's route answering `POST` with a PaymentIntentSession: `createServerIntent` (property `intentUrl`).
 * @attr {string} attach-url - `middleware.attach` (property `attachUrl`).
 * @attr {string} confirm-url - `middleware.confirm` (property `confirmUrl`).
 * @attr {string} authorise-url - `middleware.authorise` (property `authoriseUrl`).
 * @attr {string} verify-auth-url - `middleware.verifyAuth` (property `verifyAuthUrl`).
 * @attr {string} exchange-url - `middleware.exchange`: Checkout Context (property `exchangeUrl`).
 * @attr {number} amount - Checkout Context: the amount shown, in minor units (property `amount`).
 * @attr {string} currency - Checkout Context: its currency, such as `GBP` (property `currency`).
 * @attr {string} reference - Checkout Context: your basket's reference (property `reference`).
 * @fires {CustomEvent<{ controller: ElementsController }>} cpe-elements:ready - The controller exists (also the `controller` property); again after each change.
 * @fires {CustomEvent<{ message: string, code?: string, operation?: string }>} cpe:error - Invalid attributes (code `invalid_options`, operation `init`).
 */
export class CpeElements extends HTMLElementOrStub {
  static observedAttributes = ['pub-key', 'intent-url', 'attach-url', 'confirm-url', 'authorise-url', 'verify-auth-url', 'exchange-url', 'amount', 'currency', 'reference'];
  static props = CpeElements.observedAttributes.map(camel);

  /** The controller, once created (when the element is first connected, again after each attribute change). */
  controller?: ElementsController;
  #started = false;
  #pending = false;

  /** @internal An attribute's value as its property reads it (`amount` a number). */
  readOption(name: string): unknown {
    const value = this.getAttribute(kebab(name));
    return name === 'amount' && value ? Number(value) : (value ?? undefined);
  }

  /**
   * @internal Sets an attribute through its property: a value `createElements` would refuse throws
   * its SdkError. Only this option's rules: a framework sets the others one by one, after or before.
   */
  writeOption(name: string, value: unknown): void {
    const attribute = kebab(name);
    const text = value == null ? null : String(value);
    if (name === 'intentUrl') intentUrl(text);
    const path = name === 'pubKey' ? name : name.endsWith('Url') ? `middleware.${name.slice(0, -3)}` : `context.${name}`;
    parse('<cpe-elements>', guards.ElementsOptions, this.#options((a) => (a === attribute ? text : this.getAttribute(a))), path);
    if (text === null) this.removeAttribute(attribute);
    else this.setAttribute(attribute, text);
  }

  /** The controller's options, from the attributes `attr` reads. */
  #options(attr: (name: string) => string | null): ElementsOptions {
    const url = attr('intent-url');
    const middleware: MiddlewareRoutes = {};
    for (const key of ROUTES) {
      const value = attr(`${kebab(key)}-url`);
      if (value !== null) middleware[key] = value;
    }
    const [amount, currency, reference] = ['amount', 'currency', 'reference'].map((name) => attr(name) ?? undefined);
    return {
      pubKey: attr('pub-key')!,
      createServerIntent: url === null ? undefined : () => postJson(url, {}, {}),
      middleware,
      // Checkout Context: what the page shows until the shopper commits. Any of the three makes one, so a missing amount is an error, not ignored.
      context: (amount ?? currency ?? reference) === undefined ? undefined : { amount: amount && Number(amount), currency: currency!, reference },
    } as ElementsOptions;
  }

  /**
   * The controller is made in a microtask: a framework that inserts the element before it sets its
   * properties (Angular's bindings) has set them by then.
   */
  connectedCallback(): void {
    adoptEarlyProperties(this, CpeElements.props);
    this.#started = true;
    if (!this.controller) this.#schedule();
  }

  /**
   * Once connected, a change makes a new controller (the elements inside mount again with it): one
   * for all the changes of a task, as a framework sets several properties in a row.
   */
  attributeChangedCallback(_name: string, old: string | null, value: string | null): void {
    if (old !== value && this.#started) this.#schedule();
  }

  #schedule(): void {
    if (this.#pending) return;
    this.#pending = true;
    queueMicrotask(() => this.#create());
  }

  #create(): void {
    this.#pending = false;
    this.controller = undefined;
    try {
      intentUrl(this.getAttribute('intent-url'));
      this.controller = makeController(this.#options((name) => this.getAttribute(name)), undefined, '<cpe-elements>');
    } catch (error) {
      const { message, code } = error as SdkError;
      dispatchCpeEvent(this, 'cpe:error', { message, code, operation: 'init' });
      return;
    }
    this.dispatchEvent(new CustomEvent('cpe-elements:ready', { detail: { controller: this.controller } }));
  }
}

/** `<cpe-elements>`'s properties, one per attribute (unset: undefined). */
export interface CpeElementsProperties {
  pubKey?: string;
  intentUrl?: string;
  attachUrl?: string;
  confirmUrl?: string;
  authoriseUrl?: string;
  verifyAuthUrl?: string;
  exchangeUrl?: string;
  amount?: number;
  currency?: string;
  reference?: string;
}
export interface CpeElements extends CpeElementsProperties {}
