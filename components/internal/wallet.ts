import type { WalletResult as WalletApproval } from '../../protocol/schemas/wallet.ts';
import type { WalletUnavailableReason } from '../../protocol/runtime/wallet.ts';
import { WALLETS, type WalletDescriptor, type WalletId } from '../../protocol/wallets/index.ts';
import { SdkError } from '../errors.ts';
import { dispatchCpeEvent } from '../events.ts';
import { loadDialogs } from './load-chunks.ts';
import type { FrameHost, HostController } from './frame-host.ts';
import { hostedFrame } from './hosted-frame.ts';
import type { WalletAOptions, WalletBOptions } from './options.ts';
import { BOX_CSS } from './styles.ts';
import { noop } from './frame-mount.ts';
import { pay } from './pay.ts';

export type WalletAvailability = { available: boolean; reason?: WalletUnavailableReason };
export type WalletApproved = Omit<WalletApproval, 'token' | 'type' | 'session'>;

/** The wallet's real availability (live keys): its API and its own check (its descriptor's), within 5 s. */
async function detect(wallet: WalletId): Promise<WalletUnavailableReason | undefined> {
  if (!isSecureContext) return 'not_https';
  const check: WalletDescriptor['check'] = WALLETS[wallet].check;
  const session = (window as { ApplePaySession?: { canMakePayments(): boolean | Promise<boolean> } }).ApplePaySession;
  if (check === 'session') return !session ? 'unsupported_browser' : (await session.canMakePayments()) ? undefined : 'no_card_in_wallet';
  if (!window.PaymentRequest) return 'unsupported_browser';
  const request = new PaymentRequest(
    [{ supportedMethods: check.method, data: check.data }],
    { total: { label: 'Total', amount: { currency: 'GBP', value: '0.00' } } },
  );
  if (!(await request.canMakePayment())) return 'unsupported_browser';
  return (await (request as PaymentRequest & { hasEnrolledInstrument(): Promise<boolean> }).hasEnrolledInstrument()) ? undefined : 'no_card_in_wallet';
}

/** A wallet element's options (wallet A's, and wallet B's flags). */
export type WalletSheetOptions = WalletAOptions & Partial<WalletBOptions>;
type Options = WalletSheetOptions;

/** A wallet button's shadow root: the button frame's box (the sheet's dialog brings its own styles, dialogs.ts). */
export const WALLET_CSS = BOX_CSS;

/**
 * Whether `wallet` can pay here: with test keys (`pk_test_…`) always; with live keys the browser's
 * real wallet, within 5 s.
 */
export async function walletAvailability(pubKey: string, wallet: WalletId): Promise<WalletAvailability> {
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
  wallet: WalletId,
  approved?: (token: string, detail: WalletApproved) => void,
  check?: (factory: boolean) => void,
): Promise<WalletAvailability> {
  const { name, asks } = WALLETS[wallet];
  let available!: (availability: WalletAvailability) => void;
  let options: Options = {};
  hostedFrame<Options>(host, host.localName, `[data-${host.localName}]`, 'wallet-button', name, ({ appearance: { type = 'plain', style = 'dark' } = {} }) => [48, { wallet, type, style }]);
  host.addController({
    /**
     * In HTML: `total-amount`, `total-label`, `appearance-type`, `appearance-style`; the flags its
     * sheet asks for (its descriptor's) present = true (`"false"` false). A label without an amount is the option `total` without its amount: an error, not ignored.
     */
    hostAttributes({ totalAmount, totalLabel, appearanceType, appearanceStyle, ...rest }) {
      for (const key of asks) if (key in rest) rest[key] = rest[key] !== 'false';
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
export async function sheetToken(host: FrameHost, wallet: WalletId, o: Options): Promise<string> {
  const approved = await openSheet(host, wallet, o);
  if (!approved) throw new SdkError('wallet_cancelled', `${WALLETS[wallet].name}: the shopper closed the wallet sheet`);
  dispatchCpeEvent(host, 'cpe:wallet:approved', approved.detail);
  return approved.token;
}

/** The sheet each element has open: one at a time. */
const open = new WeakSet<FrameHost>();

/**
 * Opens `wallet`'s sheet over `host` (wallet-sheet.ts, in the dialogs' chunk), one at a time:
 * resolves the approved token with what `cpe:wallet:approved` is to say, or undefined when the
 * shopper cancelled or a sheet is open already; a failure (the chunk not fetched too) is
 * `cpe:error` and rejects.
 */
export async function openSheet(host: FrameHost, wallet: WalletId, o: Options): Promise<{ token: string; detail: WalletApproved } | undefined> {
  if (open.has(host)) return undefined;
  open.add(host);
  try {
    return await (await loadDialogs(host.shadowRoot!)).walletSheet(host, wallet, o);
  } catch (error) {
    const { message, code = 'wallet_failed' } = error as SdkError;
    dispatchCpeEvent(host, 'cpe:error', { message, code, operation: 'wallet' });
    throw error;
  } finally {
    open.delete(host);
  }
}
