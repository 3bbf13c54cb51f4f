import { CardElementOptions as schema } from '../../protocol/runtime/guards.ts';
import { buttonBand } from '../card/form-height.ts';
import type { ElementsController } from '../controller.ts';
import { flowButton } from '../internal/flow-lifecycle.ts';
import { FrameHost, type HostController } from '../internal/frame-host.ts';
import { cardFormFrame } from '../internal/card-form-frame.ts';
import type { FlowOptions } from '../internal/options.ts';
import type { OptionProperties } from '../internal/properties.ts';
import styles from './payment-flow.styles.ts';

/**
 * The prebuilt payment flow: the card form and its own button (`Pay £12.34`, formatted in the frame
 * from the session's amount, or from Checkout Context's before an intent exists) in one frame.
 * The button runs the spec's Flow lifecycle (tokenise, attach, confirm with 3-D Secure, authorise
 * through `middleware.authorise` or the session route `/intent/authorise`, then `middleware.verifyAuth`)
 * and the frame shows processing, success or failure (the service's reason) with **Try again**, which
 * clears the card and starts a fresh attempt on the same intent and session. Same events as
 * `<cpe-card>`, in the same order. Each Flow of a controller has its own `identifier`
 * (default `default_payment_flow`): a second Flow with the same one is an SdkError.
 *
 *   <cpe-elements pub-key="pk_…" intent-url="/api/intent"><cpe-payment-flow layout="stack"></cpe-payment-flow></cpe-elements>
 *
 * Every attribute is also a property of the same name in camelCase (`el.layout = 'row'`), which
 * reads its default while unset (`identifier`: `default_payment_flow`) and re-renders the frame when set.
 *
 * @tagname cpe-payment-flow
 * @summary Prebuilt payment flow (ElementsApi).
 * @attr {'stack' | 'row-minimal' | 'row-compact' | 'row' | 'column-compact' | 'column'} [layout=stack] - The form's layout (property `layout`).
 * @attr {string} [language=en] - BCP 47 language of the frame; an unknown one falls back to English (property `language`).
 * @attr {'auto' | 'light' | 'dark'} [theme=auto] - Colour scheme: `auto` follows the page and the system (property `theme`).
 * @attr {string} identifier - The Flow's identifier, one per Flow of a controller, default `default_payment_flow` (property `identifier`).
 * @attr {'all' | 'detected' | 'none'} [card-schemes-display=detected] - Scheme badges: every accepted scheme, the one typed, or none (property `cardSchemesDisplay`).
 * @attr {string | number} width - CSS width (a number is pixels), default the container's (property `width`).
 * @attr {number} height - Height in pixels to reserve until the form is shown, never below the form's own height (property `height`).
 * @fires {CustomEvent<ChangeState>} cpe:change - The form changed: `{complete, empty, scheme, invalid}`, never digits.
 * @fires {CustomEvent<{}>} cpe:processing:start - `tokenise()` started.
 * @fires {CustomEvent<{}>} cpe:processing:end - `tokenise()` ended.
 */
export class CpePaymentFlow extends FrameHost {
  static observedAttributes = ['layout', 'language', 'theme', 'identifier', 'card-schemes-display', 'width', 'height'];
  /** `flow`: the frame's button and the names (`paymentFlow`, `default_payment_flow`; `verifyFlow`, `default_verify_flow`). */
  constructor(flow: 'pay' | 'verify' = 'pay') {
    const name = flow === 'pay' ? 'payment' : 'verify';
    const apiName = `${name}Flow`;
    const identifier = `default_${name}_flow`;
    super(apiName, schema, styles, { layout: 'stack', identifier });
    flowIdentity(this, apiName, identifier);
    cardFormFrame<FlowOptions>(this, apiName, '[data-cpe-flow]', 'flow', 'Card payment', 'stack', (_, layout) => [buttonBand(layout), { flow }]);
    flowButton(this);
  }
}

/**
 * A Flow's identifier, one per Flow of a controller (`controller.claim`): a second Flow with the
 * same one is the factory's SdkError, also when set as a property; a Flow removed from the page
 * (`released`) frees it. The frames get it in their config.
 */
function flowIdentity(host: CpePaymentFlow, where: string, identifier: string): void {
  const claim = (controller: ElementsController | undefined, value: unknown) => controller?.claim(host, where, (value ?? identifier) as string);
  host.addController({
    hostOption(name, value) {
      if (name === 'identifier') claim(host.controller, value);
    },
    hostInit(controller, options) {
      claim(controller, (options.identifier ??= identifier));
    },
  } satisfies HostController<FlowOptions>);
}

/** `<cpe-payment-flow>`'s and `<cpe-verify-flow>`'s option properties. */
export type CpePaymentFlowProperties = OptionProperties<FlowOptions, 'layout' | 'language' | 'theme' | 'cardSchemesDisplay' | 'identifier'>;
export interface CpePaymentFlow extends CpePaymentFlowProperties {}
