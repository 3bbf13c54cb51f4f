/**
 * The CPE browser SDK, served as one ES module at `<service>/sdk/cpe.js`:
 *
 *   import { createElements } from 'https://cpe.example/sdk/cpe.js';
 *   const elements = await createElements({ pubKey, createServerIntent, middleware });
 *
 * This module also defines the custom elements `<cpe-card>`, `<cpe-card-fields>`, `<cpe-payment-flow>`,
 * `<cpe-verify-flow>`, `<cpe-wallet-a>`, `<cpe-wallet-b>`, `<cpe-payment>` and `<cpe-elements>`
 * (through `defineElement`, a no-op during server-side rendering: importing it in Node does not throw,
 * and elements do nothing until connected in a browser).
 *
 * Content-Security-Policy of a merchant page: the service origin in `script-src` (this module),
 * `frame-src` (the hosted fields and the 3-D Secure page) and `connect-src` (direct mode's
 * `/intent/*`). No `unsafe-eval`, no `unsafe-inline` script or style: the elements' styles are
 * constructed stylesheets and sizes are set through the CSSOM.
 */
import type { ElementsOptions } from '../protocol/schemas/elements-options.ts';
import { makeController, type ElementsController } from './controller.ts';
import './elements/elements.ts';

export { ElementsController } from './controller.ts';
export { CpeCard } from './card/card.component.ts';
export { LAYOUT_MIN_HEIGHT } from './card/form-height.ts';
export { CpeCardFields, FIELD_MIN_HEIGHT } from './card-fields/card-fields.component.ts';
export { CpeElements } from './elements/elements.component.ts';
export { CpePaymentFlow } from './payment-flow/payment-flow.component.ts';
export { CpeVerifyFlow } from './verify-flow/verify-flow.component.ts';
export { CpeWalletA } from './wallet-a/wallet-a.component.ts';
export { CpeWalletB } from './wallet-b/wallet-b.component.ts';
export { CpePayment, type PaymentAvailability } from './payment/payment.component.ts';
export type { WalletAvailability, WalletApproved } from './internal/wallet.ts';
export type { WalletUnavailableReason } from '../protocol/runtime/wallet.ts';
export { FrameHost } from './internal/frame-host.ts';
export type { ElementsApi, AttachResponse, ConfirmResponse, ChallengePayload, TokeniseResult } from './internal/frame-host.ts';
export type { AttachOptions, ConfirmOptions, AuthOptions, ConfirmResult, AuthoriseResult, ChallengeOutcome } from './internal/options.ts';
export type { FlowOptions, WalletAOptions, WalletBOptions, WalletTotal, PaymentElementOptions, PayOptions, BillingDetails } from './internal/options.ts';
export type { PayResult, PayError } from './internal/pay.ts';
export type { PaymentMethod } from '../protocol/runtime/frame-address.ts';
export type { CardElementOptions, CardFieldsElementOptions, CardFieldTargets, MountTarget, ResolveOptions, SharedElementOptions } from './internal/options.ts';
export type { ChangeState, CardSchemesDisplay } from '../protocol/schemas/bridge.ts';
export type { Layout, Theme } from '../protocol/runtime/frame-address.ts';
export { SdkError, type SdkErrorCode } from './errors.ts';
export { CPE_EVENTS, dispatchCpeEvent, type CpeEvent, type CpeEventDetails, type CpeEventName } from './events.ts';
export type { ElementsOptions, MiddlewareRoutes, CreateServerIntent, CheckoutContext } from '../protocol/schemas/elements-options.ts';
export type { PaymentIntentSession } from '../protocol/schemas/session.ts';
export type { CpeCardProperties } from './card/card.component.ts';
export type { CpeCardFieldsProperties } from './card-fields/card-fields.component.ts';
export type { CpeElementsProperties } from './elements/elements.component.ts';
export type { CpePaymentFlowProperties } from './payment-flow/payment-flow.component.ts';
export type { CpeWalletAProperties } from './wallet-a/wallet-a.component.ts';
export type { CpeWalletBProperties } from './wallet-b/wallet-b.component.ts';
export type { CpePaymentProperties } from './payment/payment.component.ts';
export type { BaseJsxProps, CpeJsxElements, JsxProps, OptionAttributes } from './jsx.ts';

/**
 * Validates the options and returns the Elements controller. Invalid options reject with an
 * `SdkError` naming the option and the fix. No request is made until an element or
 * `getPaymentIntentId()` needs the session.
 */
export async function createElements(options: ElementsOptions): Promise<ElementsController> {
  return makeController(options);
}
