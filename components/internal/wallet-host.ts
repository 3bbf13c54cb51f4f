import type { ChangeState, FrameEventDetail, FrameEventName } from '../../protocol/schemas/bridge.ts';
import { frameUrl } from '../../protocol/runtime/frame-address.ts';
import { WalletSheetReady } from '../../protocol/runtime/guards.ts';
import { conforms } from '../../protocol/runtime/json-guard.ts';
import type { PaymentIntentSession } from '../../protocol/schemas/session.ts';
import type { WalletResult } from '../../protocol/schemas/wallet.ts';
import { encodeWalletRequest, WALLET_SESSION_TYPE, type WalletUnavailableReason } from '../../protocol/runtime/wallet.ts';
import type { ElementsController } from '../controller.ts';
import { SdkError } from '../errors.ts';
import { modal } from './challenge-dialog.ts';
import { Frame } from './frame.ts';
import { FrameHost } from './frame-host.ts';
import { resolveTarget, type WalletAOptions, type WalletBOptions } from './options.ts';
import { BOX_CSS, DIALOG_CSS, sheet } from './styles.ts';
import { sessionHeaders } from '../transport/transport.ts';

export type WalletAvailability = { available: boolean; reason?: WalletUnavailableReason };
export type WalletApproved = Omit<Extract<WalletResult, { status: 'approved' }>, 'token' | 'type' | 'session'>;

/** The wallet's real availability (live keys): its API and its own check, within 5 s. */
async function detect(wallet: 'a' | 'b'): Promise<WalletUnavailableReason | undefined> {
  if (!isSecureContext) return 'not_https';
  const session = (window as { ApplePaySession?: { canMakePayments(): boolean | Promise<boolean> } }).ApplePaySession;
  if (wallet === 'a') return !session ? 'unsupported_browser' : (await session.canMakePayments()) ? undefined : 'no_card_in_wallet';
  if (!window.PaymentRequest) return 'unsupported_browser';
  const request = new PaymentRequest(
    [{ supportedMethods: 'https://google.com/pay', data: { apiVersion: 2, apiVersionMinor: 0 } }],
    { total: { label: 'Total', amount: { currency: 'GBP', value: '0.00' } } },
  );
  if (!(await request.canMakePayment())) return 'unsupported_browser';
  return (await (request as PaymentRequest & { hasEnrolledInstrument(): Promise<boolean> }).hasEnrolledInstrument()) ? undefined : 'no_card_in_wallet';
}

const BOOLEANS = ['allowCreditCards', 'allowPrepaidCards', 'assuranceDetailsRequired', 'billingAddressRequired', 'emailAddressRequired'];

/**
 * A wallet button (`<cpe-wallet-a>`, `<cpe-wallet-b>`): the service's wallet button frame, and on
 * its `press` the wallet sheet (with test keys, the service's wallet test sheet) in a modal
 * `<dialog>` (focus moves in and back; Escape or the sheet's Cancel cancels). Before mounting it
 * checks availability: test keys (`pk_test_…`) everywhere; live keys the browser's real wallet.
 * Unavailable, it renders nothing, `init()` still resolves and `availability` says why.
 *
 * Events: `cpe:availability` `{available, reason?}`; `cpe:wallet:approved` (payment data received:
 * scheme, last4 and what the merchant asked for, never the token); `cpe:wallet:cancel` (not an error).
 *
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
 */
export abstract class WalletHost extends FrameHost {
  protected abstract readonly wallet: 'a' | 'b';
  declare protected options: WalletAOptions & Partial<WalletBOptions>;
  /** Resolves once `init()` has checked: `{available: true}` or `{available: false, reason}`. */
  readonly availability: Promise<WalletAvailability>;
  #available!: (availability: WalletAvailability) => void;
  #open = false;

  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).adoptedStyleSheets = [sheet(`${BOX_CSS}${DIALOG_CSS}.sheet{width:420px}.sheet iframe{height:min(600px,calc(100dvh - 53px))}`)];
    this.availability = new Promise((resolve) => (this.#available = resolve));
  }

  protected override async precheck(controller: ElementsController): Promise<boolean> {
    const reason = controller.pubKey.startsWith('pk_test_')
      ? undefined
      : await Promise.race([detect(this.wallet).catch(() => 'unsupported_browser' as const), new Promise<'timeout'>((r) => setTimeout(r, 5000, 'timeout'))]);
    const availability: WalletAvailability = reason ? { available: false, reason } : { available: true };
    this.#available(availability);
    this.emit('cpe:availability', availability);
    this.style.display = reason ? 'none' : '';
    return !reason;
  }

  protected override get defaults(): Record<string, unknown> {
    return { ...super.defaults, appearance: { type: 'plain', style: 'dark' } };
  }

  /**
   * In HTML: `total-amount`, `total-label`, `appearance-type`, `appearance-style`; flags present =
   * true (`"false"` false). A label without an amount is the option `total` without its amount: an error, not ignored.
   */
  protected override fromAttributes(o: Record<string, unknown>): Record<string, unknown> {
    const { totalAmount, totalLabel, appearanceType, appearanceStyle, ...rest } = o;
    for (const key of BOOLEANS) if (key in rest) rest[key] = rest[key] !== 'false';
    if ((totalAmount ?? totalLabel) != null) rest.total = { amount: totalAmount == null ? undefined : Number(totalAmount), label: totalLabel };
    if ((appearanceType ?? appearanceStyle) != null) rest.appearance = { type: appearanceType, style: appearanceStyle };
    return rest;
  }

  protected place(): void {
    if (this.factory && !this.isConnected) resolveTarget(this.localName, 'element', this.options.element, {}, `[data-${this.localName}]`).append(this);
  }

  protected mount(controller: ElementsController, session?: PaymentIntentSession): Frame[] {
    this.style.minHeight = '48px';
    const { type = 'plain', style = 'dark' } = this.options.appearance ?? {};
    const origin = controller.serviceOrigin;
    const src = (uuid: string) => frameUrl(origin, 'wallet-button', { pk: controller.pubKey, ok: session?.opaqueKey, lang: this.options.language ?? 'en', wallet: this.wallet, type, style }, uuid);
    return [new Frame(this, origin, src, `Wallet ${this.wallet.toUpperCase()}`).place(this.shadowRoot!)];
  }

  protected frameChange(_frame: Frame, _state: ChangeState): void {}

  override frameEvent<E extends FrameEventName>(frame: Frame, name: E, detail: FrameEventDetail<E>): void {
    super.frameEvent(frame, name, detail);
    if (name === 'press' && !this.#open) void this.#sheet();
  }

  /** What to do with the approved wallet's token; emits `cpe:wallet:approved` with `detail` (never the token). */
  protected abstract approved(token: string, detail: WalletApproved): void;

  /**
   * Opens the sheet; Checkout Context exchanges the context meanwhile (the sheet needs the intent to
   * approve). The sheet says it is ready on the window (its uuid only); the session goes to it with a
   * MessageChannel port, to the service origin only, and its result comes back on that port.
   */
  async #sheet(): Promise<void> {
    this.#open = true;
    const controller = this.controller!;
    const origin = controller.serviceOrigin;
    const abort = new AbortController();
    try {
      const o = this.options;
      // An intent already paid (another element of this controller took the payment): no sheet to
      // approve in vain (the service would refuse it with a 409); the page hears why.
      const known: { status?: string } = controller.context && !this.session ? {} : await (await fetch(`${origin}/intent`, { headers: await sessionHeaders(controller) })).json();
      if (known.status === 'succeeded' || known.status === 'requires_capture') {
        return void this.emit('cpe:error', { message: 'This payment is already complete.', code: 'payment_intent_paid', operation: 'wallet' });
      }
      const uuid = crypto.randomUUID();
      const name = `Wallet ${this.wallet.toUpperCase()}`;
      const r = encodeWalletRequest({ wallet: this.wallet, label: o.total?.label, ...Object.fromEntries(BOOLEANS.map((key) => [key, o[key as keyof WalletBOptions]])) });
      let sheet: Window | undefined;
      let session: PaymentIntentSession | undefined;
      let sent = false;
      let finish: (result?: WalletResult) => void;
      const send = () => {
        if (!sheet || !session || sent) return;
        sent = true;
        const { port1, port2 } = new MessageChannel();
        // The port is private to the sheet (the service origin's page, its init checked), which checks
        // its result against protocol/schemas/wallet.ts's guard before it sends it.
        port1.onmessage = ({ data }) => data?.session === uuid && finish(data);
        sheet.postMessage({ type: WALLET_SESSION_TYPE, session: uuid, sessionToken: session.sessionToken, paymentIntentId: session.paymentIntentId }, { targetOrigin: origin, transfer: [port2] });
      };
      const committed = this.commit().then(
        (s) => ((session = s), send()),
        (error) => (abort.abort(), Promise.reject(error)),
      );
      // The sheet speaks the element's language and takes its colour scheme, as the dialog around it does.
      const query = new URLSearchParams({ pk: controller.pubKey, r, lang: o.language ?? 'en', theme: this.scheme });
      const result = await modal<WalletResult>(
        this.shadowRoot!,
        origin,
        `${origin}/frames/wallet-sheet/?${query}#${uuid}`,
        { title: name, frame: name, look: { scheme: this.scheme, texts: this.texts } },
        abort.signal,
        (data, done, frame) => {
          finish = done;
          if (conforms(WalletSheetReady, data) && data.session === uuid) {
            sheet = frame.contentWindow!;
            send();
            // The dialog fits the sheet's content (never taller than the screen allows).
            if (data.height) frame.style.height = `min(${data.height}px, calc(100dvh - 53px))`;
          }
          // Only a cancel (it carries nothing) may come on the window, before the port.
          else if (data?.status === 'cancelled' && data.session === uuid) done();
        },
        'sheet',
      );
      await committed;
      if (result?.status !== 'approved') return void this.emit('cpe:wallet:cancel', {});
      const { token, type, session: _, ...detail } = result;
      this.approved(token, detail);
    } catch (error) {
      this.emit('cpe:error', { message: (error as Error).message, code: (error as SdkError).code ?? 'wallet_failed', operation: 'wallet' });
    } finally {
      this.#open = false;
    }
  }
}
