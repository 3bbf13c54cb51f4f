import { methodsIn, PAYMENT_METHODS, type PaymentMethod } from '../../protocol/runtime/frame-address.ts';
import { walletOfMethod } from '../../protocol/wallets/ids.ts';
import { PaymentElementOptions as schema } from '../../protocol/runtime/guards.ts';
import type { FrameEventDetail } from '../../protocol/schemas/bridge.ts';
import { buttonBand } from '../card/form-height.ts';
import { dispatchCpeEvent } from '../events.ts';
import { flowButton } from '../internal/flow-lifecycle.ts';
import { FrameHost, type HostController } from '../internal/frame-host.ts';
import { cardFormFrame } from '../internal/card-form-frame.ts';
import type { PaymentElementOptions } from '../internal/options.ts';
import type { OptionProperties } from '../internal/properties.ts';
import { sheetToken, walletAvailability, type WalletAvailability } from '../internal/wallet.ts';
import styles from './payment.styles.ts';

/** Each method's availability, as `init()` found it (the card always). */
export type PaymentAvailability = Record<PaymentMethod, WalletAvailability>;

/**
 * Every method the page may offer in one element, as Stripe's Payment Element: the card, wallet A
 * and wallet B as tabs (an accordion below 400 px) in one frame of the service, each wallet shown
 * only where it is available (`cpe:availability` says why not, with its `method`), and one Pay button
 * — or, with `payButton: false`, your own button calling `pay()`, which pays with the chosen tab.
 * The card's tab is the card form of the other elements (layouts, tokens, languages, events); a
 * wallet's opens its sheet when the shopper pays. Outcomes show in the element as in a Flow (a
 * declined card: Try again clears the number only; a cancelled challenge: the form again, nothing
 * cleared), and `cpe:payment:end` carries `pay()`'s result.
 *
 *   controller.paymentElement({ element: '#pay', methods: ['card', 'wallet-a'] })
 *   <cpe-elements pub-key="pk_…" intent-url="/api/intent"><cpe-payment></cpe-payment></cpe-elements>
 *
 * @tagname cpe-payment
 * @summary Every payment method in one element, as tabs (ElementsApi, `pay()`).
 * @attr {'stack' | 'row-minimal' | 'row-compact' | 'row' | 'column-compact' | 'column'} [layout=stack] - The card form's layout in the card tab (property `layout`).
 * @attr {string} [language=en] - BCP 47 language of the frame, the dialogs and the wallet sheets (property `language`).
 * @attr {'auto' | 'light' | 'dark'} [theme=auto] - Colour scheme: `auto` follows the page and the system (property `theme`).
 * @attr {string} identifier - Instance identifier (property `identifier`).
 * @attr {'all' | 'detected' | 'none'} [card-schemes-display=detected] - Scheme badges on the card form (property `cardSchemesDisplay`).
 * @attr {string | number} width - CSS width (a number is pixels), default the container's (property `width`).
 * @attr {number} height - Height in pixels to reserve until the form is shown, never below the form's own height (property `height`).
 * @attr {string} methods - The methods to offer, in this order, space-separated: `card wallet-a wallet-b` (the default; property `methods`, an array).
 * @attr {boolean} [pay-button=true] - `"false"`: no Pay button of its own; your button calls `pay()` (property `payButton`).
 * @fires {CustomEvent<ChangeState>} cpe:change - The card form changed: `{complete, empty, scheme, invalid}`, never digits.
 * @fires {CustomEvent<{ method: string, available: boolean, reason?: string }>} cpe:availability - One per wallet asked for: whether its tab shows, and if not why.
 * @fires {CustomEvent<{}>} cpe:processing:start - The card tab's `tokenise()` started.
 * @fires {CustomEvent<{}>} cpe:processing:end - The card tab's `tokenise()` ended.
 * @fires {CustomEvent<{ scheme: string, last4: string }>} cpe:wallet:approved - A wallet tab's sheet was approved (never the token).
 * @fires {CustomEvent<{}>} cpe:wallet:cancel - A wallet tab's sheet was closed; nothing was paid.
 * @csspart sheet - The wallet sheet's `<dialog>`.
 */
export class CpePayment extends FrameHost {
  static observedAttributes = ['layout', 'language', 'theme', 'identifier', 'card-schemes-display', 'width', 'height', 'methods', 'pay-button'];
  /** Resolves once `init()` has checked every method asked for. */
  readonly availability: Promise<PaymentAvailability>;

  constructor() {
    super('paymentElement', schema, styles, { layout: 'stack', methods: [...PAYMENT_METHODS], payButton: true });
    this.availability = methods(this);
    flowButton(this);
  }
}

/**
 * The methods' part: in HTML `methods` is space-separated and `pay-button="false"` turns the button
 * off; at init each wallet's availability (test keys: always), one `cpe:availability` each; the frame
 * gets the available ones in its address;
 * the tab the shopper chooses decides what `pay()` (and the button) pays with.
 */
function methods(host: CpePayment): Promise<PaymentAvailability> {
  let found!: (availability: PaymentAvailability) => void;
  let offered: PaymentMethod[] = ['card'];
  let options: PaymentElementOptions = {};
  const choose = (method: PaymentMethod) => {
    host.walletToken = method === 'card' ? undefined : () => sheetToken(host, walletOfMethod(method), options);
  };
  host.addController({
    hostAttributes({ methods: list, payButton, ...rest }) {
      if (typeof list === 'string') rest.methods = list.split(/[\s,]+/).filter(Boolean);
      if (payButton != null) rest.payButton = payButton !== 'false';
      return rest;
    },
    async hostInit(controller, o) {
      options = o;
      // Each once, in the page's order (the tabs').
      const asked = methodsIn(o.methods ?? PAYMENT_METHODS);
      const checks = await Promise.all(asked.map((m) => (m === 'card' ? { available: true } : walletAvailability(controller.pubKey, walletOfMethod(m)))));
      const availability = Object.fromEntries(PAYMENT_METHODS.map((m) => [m, { available: false }])) as PaymentAvailability;
      asked.forEach((m, i) => (availability[m] = checks[i]!));
      for (const m of asked) if (m !== 'card') dispatchCpeEvent(host, 'cpe:availability', { method: m, ...availability[m] });
      offered = asked.filter((m) => availability[m].available);
      choose(offered[0] ?? 'card');
      found(availability);
      return offered.length > 0;
    },
    hostFrameEvent(_frame, name, detail) {
      if (name === 'select') choose((detail as FrameEventDetail<'select'>).method);
    },
  } satisfies HostController<PaymentElementOptions>);
  // The methods found and the button go in the frame's address: its first render, at the height its
  // hello says, is its final one, and the element reserves it: the card form, with two methods or more
  // tabs (77 px) or below 400 px an accordion (a row of 44 px and a gap each), and its own button.
  cardFormFrame<PaymentElementOptions>(host, 'paymentElement', '[data-cpe-payment]', 'payment', 'Payment', 'stack', ({ payButton }, layout) => [
    (offered[1] ? (host.clientWidth < 400 ? 56 * offered.length : 77) : 0) + (payButton === false ? 0 : buttonBand(layout)),
    { methods: offered + '', button: payButton === false ? 'none' : undefined },
  ]);
  return new Promise((resolve) => (found = resolve));
}

/** `<cpe-payment>`'s option properties. */
export type CpePaymentProperties = OptionProperties<PaymentElementOptions, 'layout' | 'language' | 'theme' | 'cardSchemesDisplay' | 'methods' | 'payButton'>;
export interface CpePayment extends CpePaymentProperties {}
