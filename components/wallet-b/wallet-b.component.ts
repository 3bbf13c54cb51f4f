import { WalletBOptions as schema } from '../../protocol/runtime/guards.ts';
import { WALLETS } from '../../protocol/wallets/index.ts';
import { kebab } from '../define.ts';
import { SdkError } from '../errors.ts';
import { dispatchCpeEvent, type CpeEvent } from '../events.ts';
import { FrameHost } from '../internal/frame-host.ts';
import type { WalletBOptions } from '../internal/options.ts';
import type { OptionProperties } from '../internal/properties.ts';
import { walletButton, WALLET_CSS, type WalletAvailability } from '../internal/wallet.ts';

/**
 * Wallet B's button. Register `onTokeniseEnd`, `onCancel` and `onError` before `init()` (an SdkError
 * names the missing ones). When the shopper approves the sheet, `onTokeniseEnd` fires (payment data
 * received, not yet a payment): then call `pay()` (attach, confirm, authorise in one), or the steps
 * `attach({})` (before approval it rejects: no payment data yet), `confirm({})` and your backend's
 * authorise. Cancelling fires `onCancel`; a failure `onError`.
 *
 * The button and its sheet: see wallet.ts. A flag attribute is true when present, false when
 * `"false"`.
 *
 * @tagname cpe-wallet-b
 * @summary Wallet B button (ElementsApi).
 * @attr {string} identifier - Instance identifier (property `identifier`).
 * @attr {string} [language=en] - BCP 47 language of the button and the wallet sheet (property `language`).
 * @attr {'auto' | 'light' | 'dark'} [theme=auto] - Colour scheme of the wallet sheet: `auto` follows the page and the system (property `theme`).
 * @attr {number} total-amount - The total the wallet asks for, in minor units (property `total.amount`); the test sheet shows the intent's amount as the service says it.
 * @attr {string} total-label - The label of that amount (property `total.label`).
 * @prop {{ amount: number, label?: string }} total - The factory's `total`: attributes `total-amount` and `total-label`.
 * @prop {{ type?: string, style?: string }} appearance - The factory's `appearance` (default `{type: 'plain', style: 'dark'}`): attributes `appearance-type` and `appearance-style`.
 * @fires {CustomEvent<{ available: boolean, reason?: string }>} cpe:availability - Whether the button renders here, and if not why.
 * @fires {CustomEvent<{ scheme: string, last4: string }>} cpe:wallet:approved - The shopper approved the sheet (never the token).
 * @fires {CustomEvent<{}>} cpe:wallet:cancel - The shopper cancelled the sheet; nothing was paid.
 * @csspart sheet - The wallet sheet's `<dialog>`.
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
export class CpeWalletB extends FrameHost {
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
    // The flags its sheet asks for (allow-credit-cards, …, email-address-required): its descriptor's.
    ...WALLETS.b.asks.map(kebab),
  ];
  /** Resolves once `init()` has checked: `{available: true}` or `{available: false, reason}`. */
  readonly availability: Promise<WalletAvailability>;
  protected override noToken = 'no payment data yet: the shopper has not approved the wallet sheet';
  #hooks = new Set<string>();
  /** The token the button's sheet approved, until attached or paid. */
  #approved?: string;

  constructor() {
    super('walletB', schema, WALLET_CSS);
    this.availability = walletButton(
      this,
      'b',
      (token, detail) => {
        // The token first: an onTokeniseEnd handler may call attach({}) or pay() at once.
        this.startAttempt((this.#approved = token));
        dispatchCpeEvent(this, 'cpe:wallet:approved', detail);
      },
      (factory) => {
        const missing = ['onTokeniseEnd', 'onCancel', 'onError'].filter((hook) => !this.#hooks.has(hook));
        if (factory && missing.length) throw new SdkError('invalid_state', `walletB: register ${missing.join(', ')} before init()`, missing[0]);
      },
    );
    // pay() in onTokeniseEnd pays with the token just approved; otherwise it opens the sheet.
    const open = this.walletToken!;
    this.walletToken = () => {
      const token = this.#approved;
      this.#approved = undefined;
      return token ? Promise.resolve(token) : open();
    };
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
