import { WalletSheetReady } from '../../protocol/runtime/guards.ts';
import { conforms } from '../../protocol/runtime/json-guard.ts';
import type { PaymentIntentSession } from '../../protocol/schemas/session.ts';
import type { WalletResult } from '../../protocol/schemas/wallet.ts';
import { encodeWalletRequest, WALLET_SESSION_TYPE, type WalletUnavailableReason } from '../../protocol/runtime/wallet.ts';
import { SdkError } from '../errors.ts';
import { dispatchCpeEvent } from '../events.ts';
import { loadDialogs } from './load-dialogs.ts';
import type { FrameHost, HostController } from './frame-host.ts';
import { hostedFrame } from './hosted-frame.ts';
import type { WalletAOptions, WalletBOptions } from './options.ts';
import { BOX_CSS } from './styles.ts';
import { readIntent } from '../transport/transport.ts';
import { noop } from './frame-mount.ts';
import { pay } from './pay.ts';
import { isPaid } from '../../protocol/runtime/intent-status.ts';

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

type Options = WalletAOptions & Partial<WalletBOptions>;

/** A wallet button's shadow root: the button frame's box (the sheet's dialog brings its own styles, dialogs.ts). */
export const WALLET_CSS = BOX_CSS;

/**
 * Whether `wallet` can pay here: with test keys (`pk_test_…`) always; with live keys the browser's
 * real wallet, within 5 s.
 */
export async function walletAvailability(pubKey: string, wallet: 'a' | 'b'): Promise<WalletAvailability> {
  const reason = pubKey.startsWith('pk_test_')
    ? undefined
    : await Promise.race([detect(wallet).catch(() => 'unsupported_browser' as const), new Promise<'timeout'>((r) => setTimeout(r, 5000, 'timeout'))]);
  return reason ? { available: false, reason } : { available: true };
}

/**
 * Adds a wallet button's parts to `host` (`<cpe-wallet-a>`, `<cpe-wallet-b>`): the service's wallet
 * button frame, and on its `press` the wallet sheet (openSheet). Before mounting it checks
 * availability: test keys (`pk_test_…`) everywhere; live keys the browser's real wallet.
 * Unavailable, the element renders nothing, `init()` still resolves and the availability
 * (returned: it resolves once `init()` has checked) says why.
 *
 * Events: `cpe:availability` `{available, reason?}`; `cpe:wallet:approved` (payment data received:
 * scheme, last4 and what the merchant asked for, never the token, which goes to `approved`);
 * `cpe:wallet:cancel` (not an error).
 *
 * @param approved What to do with the approved wallet's token (`detail`: the `cpe:wallet:approved` event's,
 *   never the token); without it, a press runs the whole payment (`pay()`, wallet A), whose
 *   `cpe:payment:end` says every outcome, a closed sheet included.
 * @param check Before the availability check, given whether the element is a factory's: a throw fails init.
 */
export function walletButton(
  host: FrameHost,
  wallet: 'a' | 'b',
  approved?: (token: string, detail: WalletApproved) => void,
  check?: (factory: boolean) => void,
): Promise<WalletAvailability> {
  const name = `Wallet ${wallet.toUpperCase()}`;
  let available!: (availability: WalletAvailability) => void;
  let options: Options = {};
  hostedFrame<Options>(host, host.localName, `[data-${host.localName}]`, 'wallet-button', name, ({ appearance: { type = 'plain', style = 'dark' } = {} }) => [48, { wallet, type, style }]);
  host.addController({
    /**
     * In HTML: `total-amount`, `total-label`, `appearance-type`, `appearance-style`; flags present =
     * true (`"false"` false). A label without an amount is the option `total` without its amount: an error, not ignored.
     */
    hostAttributes({ totalAmount, totalLabel, appearanceType, appearanceStyle, ...rest }) {
      for (const key of BOOLEANS) if (key in rest) rest[key] = rest[key] !== 'false';
      if ((totalAmount ?? totalLabel) != null) rest.total = { amount: totalAmount == null ? undefined : Number(totalAmount), label: totalLabel };
      if ((appearanceType ?? appearanceStyle) != null) rest.appearance = { type: appearanceType, style: appearanceStyle };
      return rest;
    },
    /** `check`, then availability (the element placed already): false renders nothing. */
    async hostInit(controller, o, factory) {
      options = o;
      check?.(factory);
      const availability = await walletAvailability(controller.pubKey, wallet);
      available(availability);
      dispatchCpeEvent(host, 'cpe:availability', availability);
      host.style.display = availability.available ? '' : 'none';
      return availability.available;
    },
    hostFrameEvent(_frame, event) {
      if (event !== 'press') return;
      if (approved) void openSheet(host, wallet, options).then((r) => r && approved(r.token, r.detail), noop);
      else void pay(host, {}, host.walletToken);
    },
  } satisfies HostController<Options>);
  host.walletToken = () => sheetToken(host, wallet, options);
  return new Promise((resolve) => (available = resolve));
}

/** `pay()` on a wallet: the sheet's approved token (`cpe:wallet:approved` said first), or an SdkError `wallet_cancelled`. */
export async function sheetToken(host: FrameHost, wallet: 'a' | 'b', o: Options): Promise<string> {
  const approved = await openSheet(host, wallet, o);
  if (!approved) throw new SdkError('wallet_cancelled', `Wallet ${wallet.toUpperCase()}: the shopper closed the wallet sheet`);
  dispatchCpeEvent(host, 'cpe:wallet:approved', approved.detail);
  return approved.token;
}

/** The sheet each element has open: one at a time. */
const open = new WeakSet<FrameHost>();

/**
 * Opens `wallet`'s sheet over `host` (with test keys, the service's wallet test sheet) in a modal
 * `<dialog>` (focus moves in and back; Escape or the sheet's Cancel cancels); Checkout Context
 * exchanges the context meanwhile (the sheet needs the intent to approve). Resolves the approved
 * token with what the `cpe:wallet:approved` event is to say (never the token), or undefined when
 * the shopper cancelled (`cpe:wallet:cancel`) or a sheet is open already; a failure is `cpe:error`
 * and rejects.
 *
 * The sheet says it is ready on the window (its uuid only); the session goes to it with a
 * MessageChannel port, to the service origin only, and its result comes back on that port.
 */
export async function openSheet(host: FrameHost, wallet: 'a' | 'b', o: Options): Promise<{ token: string; detail: WalletApproved } | undefined> {
  if (open.has(host)) return undefined;
  open.add(host);
  const name = `Wallet ${wallet.toUpperCase()}`;
  const controller = host.controller!;
  const origin = controller.serviceOrigin;
  const abort = new AbortController();
  try {
    // An intent already paid (another element of this controller took the payment): no sheet to
    // approve in vain (the service would refuse it with a 409); the page hears why.
    const known = controller.context && !controller.current ? undefined : await readIntent(controller);
    if (isPaid(known?.status)) throw new SdkError('payment_intent_paid', 'This payment is already complete.');
    const { modal } = await loadDialogs(host.shadowRoot!);
    const uuid = crypto.randomUUID();
    const r = encodeWalletRequest({ wallet, label: o.total?.label, ...Object.fromEntries(BOOLEANS.map((key) => [key, o[key as keyof WalletBOptions]])) });
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
    const committed = host.commit().then(
      (s) => ((session = s), send()),
      (error) => (abort.abort(), Promise.reject(error)),
    );
    // The sheet speaks the element's language and takes its colour scheme, as the dialog around it does.
    const { scheme, texts, lang } = host.look();
    const query = new URLSearchParams({ pk: controller.pubKey, r, lang, theme: scheme });
    const result = await modal<WalletResult>(
      host.shadowRoot!,
      origin,
      `${origin}/frames/wallet-sheet/?${query}#${uuid}`,
      { title: name, frame: name, look: { scheme, texts } },
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
    if (result?.status !== 'approved') return void dispatchCpeEvent(host, 'cpe:wallet:cancel', {});
    const { token, type, session: _, ...detail } = result;
    return { token, detail };
  } catch (error) {
    const { message, code = 'wallet_failed' } = error as SdkError;
    dispatchCpeEvent(host, 'cpe:error', { message, code, operation: 'wallet' });
    throw error;
  } finally {
    open.delete(host);
  }
}
