import type { MiddlewareRoutes } from '../../protocol/elements-options.ts';
import { isRelativeUrl } from '../../protocol/option-checks.ts';
import { makeController, type ElementsController } from '../controller.ts';
import { SdkError } from '../errors.ts';
import { dispatchCpeEvent } from '../events.ts';
import { Base } from '../internal/frame-host.ts';
import { postJson } from '../transport/transport.ts';

/** The middleware routes; each one's attribute is its kebab-case name with `-url` (`verifyAuth` → `verify-auth-url`). */
const ROUTES: (keyof MiddlewareRoutes)[] = ['attach', 'confirm', 'authorise', 'verifyAuth', 'exchange'];

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
 * Invalid attributes emit `cpe:error` (code `invalid_options`) from this element.
 *
 * Checkout Context: `exchange-url` with `amount` (minor units), `currency` and optional `reference`
 * (`intent-url` may then be omitted): the elements mount with no intent until the shopper commits.
 *
 * @summary Controller provider.
 * @event cpe-elements:ready - `{ controller }`: the controller exists (also the `controller` property).
 */
export class CpeElements extends Base {
  /** The controller, once created (when the element is first connected). */
  controller?: ElementsController;

  connectedCallback(): void {
    if (this.controller) return;
    const intentUrl = this.getAttribute('intent-url');
    const amount = this.getAttribute('amount');
    try {
      if (intentUrl !== null ? !isRelativeUrl(intentUrl) : amount === null)
        throw new SdkError('invalid_options', '<cpe-elements>: attribute "intent-url" must be a relative URL on your backend, such as "/api/intent"', 'intent-url');
      const middleware: MiddlewareRoutes = {};
      for (const key of ROUTES) {
        const value = this.getAttribute(`${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}-url`);
        if (value !== null) middleware[key] = value;
      }
      this.controller = makeController({
        pubKey: this.getAttribute('pub-key')!,
        createServerIntent: intentUrl === null ? undefined : () => postJson(intentUrl, {}, {}),
        middleware,
        // Checkout Context (with exchange-url): what the page shows until the shopper commits.
        context: amount === null ? undefined : { amount: Number(amount), currency: this.getAttribute('currency')!, reference: this.getAttribute('reference') ?? undefined },
      });
    } catch (error) {
      const { message, code } = error as SdkError;
      dispatchCpeEvent(this, 'cpe:error', { message, code, operation: 'init' });
      return;
    }
    this.dispatchEvent(new CustomEvent('cpe-elements:ready', { detail: { controller: this.controller } }));
  }
}
