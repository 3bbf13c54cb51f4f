import { LitElement, css, html } from 'lit';
import type { ColorScheme } from '../../protocol/schemas/bridge.ts';
import type { Layout, Theme } from '../../protocol/schemas/frame-url.ts';
import { WALLET_BUTTONS } from '../../protocol/wallets/buttons.ts';
import { WALLETS, type WalletButtonLook, type WalletId } from '../../protocol/wallets/index.ts';
import { emitFrameEvent, type FrameApp } from '../shared/frame-app.ts';
import { en, type Catalogue } from '../shared/i18n.ts';

export type WalletStyle = (typeof WALLET_BUTTONS)[WalletId]['styles'][number];
/** The frame height the button asks for (`ready.height`): the button fills it, its focus ring drawn inside. */
export const WALLET_BUTTON_HEIGHT = 48;

/** The button's accessible name in a language: "Buy with Wallet A", "Wallet A" (plain A), "Pay with Wallet B" (plain B: its descriptor's `labels`). */
export function walletLabel(catalogue: Catalogue, wallet: WalletId, type: string): string {
  const look: WalletButtonLook = WALLET_BUTTONS[wallet];
  const key = look.labels?.[type] ?? type;
  const text = catalogue.walletTypes[key as keyof Catalogue['walletTypes']] ?? catalogue.walletTypes.plain;
  return text.replace('{wallet}', WALLETS[wallet].name);
}

/** Whether a wallet supports this appearance (the SDK validates first; the frame refuses anything else). */
export function validAppearance(wallet: WalletId, type: string, style: string): boolean {
  const { types, styles }: WalletButtonLook = WALLET_BUTTONS[wallet];
  return types.includes(type) && styles.includes(style);
}

/**
 * `<cpe-wallet-button>`: a wallet's button in its frame (`/frames/wallet-button/?wallet=a|b&type&style`),
 * filling the frame (minimum 40 px tall) with a visible focus ring. A click, Enter or Space emits
 * `press`; the element then opens the wallet (with test keys, the wallet test sheet). No card data
 * ever passes here: `tokenise` is refused (`not_supported`). Its frame app (`app`) has no card
 * members: the config is the theme only, and the methods are `focus`, an empty `reset` and that refusal.
 */
export class WalletButton extends LitElement {
  static override styles = css`
    :host {
      --_focus: var(--cpe-focus, #1a5fd6);
      display: block;
      box-sizing: border-box;
      height: 100vh;
      min-height: 40px;
      font-family: var(--cpe-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    }
    button {
      display: flex;
      align-items: center;
      justify-content: center;
      gap: 6px;
      width: 100%;
      height: 100%;
      min-height: 40px;
      margin: 0;
      padding: 0 16px;
      border: 1px solid transparent;
      border-radius: var(--cpe-radius, 6px);
      font-family: inherit;
      font-size: 16px;
      font-weight: 600;
      line-height: 1.2;
      white-space: nowrap;
      overflow: hidden;
      text-overflow: ellipsis;
      cursor: pointer;
    }
    /* Inside the button (the frame's edges are the button's): a ring of the focus colour within a white one. */
    button:focus-visible {
      outline: 2px solid #fff;
      outline-offset: -4px;
      box-shadow: inset 0 0 0 4px var(--_focus);
    }
    .dark {
      background: #000;
      color: #fff;
    }
    .b.dark {
      background: #202124;
    }
    .white {
      background: #fff;
      color: #000;
    }
    .white-outline {
      background: #fff;
      color: #000;
      border-color: #000;
    }
    .mark {
      font-size: 1.1em;
    }
  `;
  static override properties = { layout: { reflect: true }, theme: { reflect: true }, colorScheme: { reflect: true, attribute: 'scheme' }, catalogue: { attribute: false } };

  layout: Layout = 'stack';
  theme: Theme = 'auto';
  colorScheme?: ColorScheme;
  catalogue: Catalogue = en;

  constructor(
    readonly wallet: WalletId,
    readonly type: string,
    readonly buttonStyle: WalletStyle,
  ) {
    super();
  }

  get label(): string {
    return walletLabel(this.catalogue, this.wallet, this.type);
  }

  /** The button's frame app: it reports its fixed height and its label as the document title. */
  get app(): FrameApp {
    return {
      element: this,
      configure: () => {},
      handlers: {
        tokenise: () => Promise.reject({ code: 'not_supported', message: 'A wallet button does not tokenise: the wallet sheet does.' }),
        // The element's reset() resets every frame it has: a button has nothing to clear.
        reset: () => ({}),
        focus: () => {
          this.#focusButton();
          // The element's own iframe.focus() may reach this frame after this request: the frame's
          // focus then lands on its body (as in card-inputs.ts), and the button takes it back.
          addEventListener('focus', this.#refocus);
          return {};
        },
      },
      height: () => WALLET_BUTTON_HEIGHT,
      title: () => this.label,
    };
  }

  #focusButton = () => this.renderRoot.querySelector('button')?.focus();
  #refocus = () => document.activeElement === document.body && this.#focusButton();

  #press = () => {
    emitFrameEvent(this, { name: 'press', detail: {} });
  };

  override render() {
    const plain = this.type === 'plain' && (WALLET_BUTTONS[this.wallet] as WalletButtonLook).plainMark;
    return html`<button type="button" class="${this.wallet} ${this.buttonStyle}" @click=${this.#press}>
      ${plain ? html`<span class="mark" aria-hidden="true">◆</span>` : ''}${this.label}
    </button>`;
  }
}
if (!customElements.get('cpe-wallet-button')) customElements.define('cpe-wallet-button', WalletButton);
