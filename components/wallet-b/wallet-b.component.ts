import { WalletBOptions as schema } from '../../protocol/runtime/guards.ts';
import type { ElementsController } from '../controller.ts';
import { SdkError } from '../errors.ts';
import type { CpeEvent } from '../events.ts';
import type { WalletBOptions } from '../internal/options.ts';
import type { OptionProperties } from '../internal/properties.ts';
import { WalletHost, type WalletApproved } from '../internal/wallet-host.ts';

/**
 * Wallet B's button. Register `onTokeniseEnd`, `onCancel` and `onError` before `init()` (an SdkError
 * names the missing ones). When the shopper approves the sheet, `onTokeniseEnd` fires (payment data
 * received, not yet a payment): then call `attach({})` (before approval it rejects: no payment data
 * yet), `confirm({})` and your backend's authorise. Cancelling fires `onCancel`; a failure `onError`.
 *
 * Attributes and properties: see WalletHost, and these (a flag is true when present, false when
 * `"false"`).
 *
 * @tagname cpe-wallet-b
 * @summary Wallet B button (ElementsApi).
 * @attr {'book' | 'buy' | 'checkout' | 'donate' | 'order' | 'pay' | 'plain' | 'subscribe'} [appearance-type=plain] - The button's label (property `appearance.type`).
 * @attr {'dark'} [appearance-style=dark] - The button's style (property `appearance.style`).
 * @attr {'TEST' | 'PRODUCTION'} environment - Wallet B's environment (property `environment`).
 * @attr {string} merchant-id - Required: your wallet B merchant id (property `merchantId`).
 * @attr {string} merchant-name - Required: the name shown to the shopper (property `merchantName`).
 * @attr {boolean} allow-credit-cards - Accept credit cards (property `allowCreditCards`).
 * @attr {boolean} allow-prepaid-cards - Accept prepaid cards (property `allowPrepaidCards`).
 * @attr {boolean} assurance-details-required - Ask for the wallet's assurance details (property `assuranceDetailsRequired`).
 * @attr {boolean} billing-address-required - Ask for the billing address (property `billingAddressRequired`).
 * @attr {boolean} email-address-required - Ask for the email address (property `emailAddressRequired`).
 */
export class CpeWalletB extends WalletHost {
  static observedAttributes = [
    'identifier',
    'language',
    'theme',
    'environment',
    'merchant-id',
    'merchant-name',
    'total-amount',
    'total-label',
    'appearance-type',
    'appearance-style',
    'allow-credit-cards',
    'allow-prepaid-cards',
    'assurance-details-required',
    'billing-address-required',
    'email-address-required',
  ];
  protected readonly apiName = 'walletB';
  protected readonly wallet = 'b';
  protected readonly schema = schema;
  protected override noToken = 'no payment data yet: the shopper has not approved the wallet sheet';
  #hooks = new Set<string>();

  protected override precheck(controller: ElementsController): Promise<boolean> {
    const missing = ['onTokeniseEnd', 'onCancel', 'onError'].filter((hook) => !this.#hooks.has(hook));
    if (this.factory && missing.length) throw new SdkError('invalid_state', `walletB: register ${missing.join(', ')} before init()`, missing[0]);
    return super.precheck(controller);
  }

  /** The token first: an onTokeniseEnd handler may call attach({}) at once. */
  protected approved(token: string, detail: WalletApproved): void {
    this.attempt.start(token);
    this.emit('cpe:wallet:approved', detail);
  }

  #hook<K extends 'cpe:wallet:approved' | 'cpe:wallet:cancel' | 'cpe:error'>(hook: string, type: K, listener: (event: CpeEvent<K>) => void): this {
    this.#hooks.add(hook);
    return this.on(type, listener);
  }

  /** The shopper approved: payment data received (scheme, last4, what you asked for). Register before init(). */
  onTokeniseEnd(listener: (event: CpeEvent<'cpe:wallet:approved'>) => void): this {
    return this.#hook('onTokeniseEnd', 'cpe:wallet:approved', listener);
  }

  /** The shopper closed or cancelled the sheet: nothing to attach. Register before init(). */
  onCancel(listener: (event: CpeEvent<'cpe:wallet:cancel'>) => void): this {
    return this.#hook('onCancel', 'cpe:wallet:cancel', listener);
  }

  /** Wallet B failed or could not load (every `cpe:error`). Register before init(). */
  override onError(listener: (event: CpeEvent<'cpe:error'>) => void): this {
    return this.#hook('onError', 'cpe:error', listener);
  }
}

/** `<cpe-wallet-b>`'s option properties. */
export type CpeWalletBProperties = OptionProperties<WalletBOptions, 'appearance'>;
export interface CpeWalletB extends CpeWalletBProperties {}
