import { WalletAOptions as schema } from '../../protocol/runtime/guards.ts';
import type { CpeEvent } from '../events.ts';
import type { WalletAOptions } from '../internal/options.ts';
import type { OptionProperties } from '../internal/properties.ts';
import { WalletHost, type WalletApproved } from '../internal/wallet-host.ts';

/**
 * Wallet A's button. With test keys it opens the service's wallet test sheet; once the shopper
 * approves, it runs the session by itself: attach the wallet token, confirm (3-D Secure in the same
 * modal as the card elements), authorise (`middleware.authorise`, else the session route) and notify
 * `middleware.verifyAuth`. `onAuthoriseEnd`'s `detail.success` false: declined or failed; the shopper
 * may press the button again (a new attempt on the same intent).
 *
 *   controller.walletA({ element: '#wallet', total: { amount: 1234, label: 'Order 42' }, appearance: { type: 'buy', style: 'dark' } })
 *
 * Attributes and properties: see WalletHost (`total` and `appearance` are properties of the
 * factory's shape, written as two attributes each).
 *
 * @tagname cpe-wallet-a
 * @summary Wallet A button (ElementsApi).
 * @attr {'add-money' | 'book' | 'buy' | 'check-out' | 'contribute' | 'donate' | 'order' | 'plain' | 'reload' | 'rent' | 'subscribe' | 'support' | 'tip' | 'top-up'} [appearance-type=plain] - The button's label (property `appearance.type`).
 * @attr {'dark' | 'white' | 'white-outline'} [appearance-style=dark] - The button's style (property `appearance.style`).
 */
export class CpeWalletA extends WalletHost {
  static observedAttributes = ['identifier', 'language', 'theme', 'total-amount', 'total-label', 'appearance-type', 'appearance-style'];
  protected readonly apiName = 'walletA';
  protected readonly wallet = 'a';
  protected readonly schema = schema;

  protected approved(token: string, detail: WalletApproved): void {
    this.emit('cpe:wallet:approved', detail);
    void this.lifecycle(token);
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
