import { CpePaymentFlow } from '../payment-flow/payment-flow.component.ts';

/**
 * The prebuilt card verification: `<cpe-payment-flow>` with a **Verify Card** button, run on an
 * intent your backend created with `purpose: 'verify'` (amount 0): confirmed, 3-D Secure as usual,
 * authorised without moving money. Identifier default `default_verify_flow`.
 *
 * Its attributes and properties are `<cpe-payment-flow>`'s.
 *
 * @tagname cpe-verify-flow
 * @summary Prebuilt card verification (ElementsApi).
 * @attr {string} [identifier=default_verify_flow] - The Flow's identifier, one per Flow of a controller (property `identifier`).
 */
export class CpeVerifyFlow extends CpePaymentFlow {
  constructor() {
    super('verify');
  }
}
