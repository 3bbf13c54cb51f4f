import { WalletAOptions as schema } from '../../protocol/runtime/guards.ts';
import type { CpeEvent } from '../events.ts';
import { FrameHost } from '../internal/frame-host.ts';
import type { WalletAOptions } from '../internal/options.ts';
import type { OptionProperties } from '../internal/properties.ts';
import { walletButton, WALLET_CSS, type WalletAvailability } from '../internal/wallet.ts';

/**
 * Wallet A's button. With test keys it opens the service's wallet test sheet; once the shopper
 * approves, it runs the session by itself: attach the wallet token, confirm (3-D Secure in the same
 * modal as the card elements), authorise (`middleware.authorise`, else the session route) and notify
 * `middleware.verifyAuth`. `onAuthoriseEnd`'s `detail.success` false: declined or failed; the shopper
 * may press the button again (a new attempt on the same intent).
 *
 *   controller.walletA({ element: '#wallet', total: { amount: 1234, label: 'Order 42' }, appearance: { type: 'buy', style: 'dark' } })
 *
 * The button and its sheet: see wallet.ts. `total` and `appearance` are properties of the
 * factory's shape, written as two attributes each.
 *
 * @tagname cpe-wallet-a
 * @summary Wallet A button (ElementsApi).
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
 * @attr {'add-money' | 'book' | 'buy' | 'check-out' | 'contribute' | 'donate' | 'order' | 'plain' | 'reload' | 'rent' | 'subscribe' | 'support' | 'tip' | 'top-up'} [appearance-type=plain] - The button's label (property `appearance.type`).
 * @attr {'dark' | 'white' | 'white-outline'} [appearance-style=dark] - The button's style (property `appearance.style`).
 */
export class CpeWalletA extends FrameHost {
  static observedAttributes = ['identifier', 'language', 'theme', 'total-amount', 'total-label', 'appearance-type', 'appearance-style'];
  /** Resolves once `init()` has checked: `{available: true}` or `{available: false, reason}`. */
  readonly availability: Promise<WalletAvailability>;

  constructor() {
    super('walletA', schema, WALLET_CSS);
    this.availability = walletButton(this, 'a');
  }

  /** Authorisation started. */
  onAuthoriseStart(listener: (event: CpeEvent<'cpe:authorise:start'>) => void): this {
    return this.on('cpe:authorise:start', listener);
  }

  /** Authorisation finished: `event.detail.success`. */
  onAuthoriseEnd(listener: (event: CpeEvent<'cpe:authorise:end'>) => void): this {
    return this.on('cpe:authorise:end', listener);
  }
}

/** `<cpe-wallet-a>`'s option properties. */
export type CpeWalletAProperties = OptionProperties<WalletAOptions, 'appearance'>;
export interface CpeWalletA extends CpeWalletAProperties {}
