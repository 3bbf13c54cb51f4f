import { WalletResult } from '../../protocol/runtime/dialog-guards.ts';
import { isPaid } from '../../protocol/runtime/intent-status.ts';
import { conforms } from '../../protocol/runtime/json-guard.ts';
import { encodeWalletRequest } from '../../protocol/runtime/wallet.ts';
import { WALLETS, type WalletId } from '../../protocol/wallets/index.ts';
import { SdkError } from '../errors.ts';
import { dispatchCpeEvent } from '../events.ts';
import type { FrameHost } from './frame-host.ts';
import { noop } from './frame-mount.ts';
import type { WalletBOptions } from './options.ts';
import { popup } from './popup-channel.ts';
import type { WalletApproved, WalletSheetOptions } from './wallet.ts';

/**
 * The wallet sheet itself (in the dialogs' chunk: fetched when a wallet button is pressed; wallet.ts
 * `openSheet` opens it, one at a time, and says its failures): `wallet`'s sheet over `host` (with
 * test keys, the service's wallet test sheet) in a modal `<dialog>` (focus moves in and back;
 * Escape or the sheet's Cancel cancels); Checkout Context exchanges the context meanwhile (the
 * sheet needs the intent to approve). Resolves the approved token with what the
 * `cpe:wallet:approved` event is to say (never the token), or undefined when the shopper cancelled
 * (`cpe:wallet:cancel`).
 *
 * The sheet is a popup of the one page-to-popup channel (popup-channel.ts): the intent's session
 * goes to it with the init's port, to the service origin only, and its result comes back on that port.
 */
export async function walletSheet(host: FrameHost, wallet: WalletId, o: WalletSheetOptions): Promise<{ token: string; detail: WalletApproved } | undefined> {
  const { name, asks } = WALLETS[wallet];
  const controller = host.controller!;
  const origin = controller.serviceOrigin;
  const abort = new AbortController();
  // An intent already paid (another element of this controller took the payment): no sheet to
  // approve in vain (the service would refuse it with a 409); the page hears why.
  const known = controller.context && !controller.current ? undefined : await (await host.paymentCode()).readIntent(controller);
  if (isPaid(known?.status)) throw new SdkError('payment_intent_paid', 'This payment is already complete.');
  const r = encodeWalletRequest({ wallet, label: o.total?.label, ...Object.fromEntries(asks.map((key) => [key, o[key as keyof WalletBOptions]])) });
  const committed = host.commit().catch((error) => (abort.abort(), Promise.reject(error)));
  // The sheet speaks the element's language and takes its colour scheme, as the dialog around it does.
  const look = host.look();
  const result = await popup(
    host.shadowRoot!,
    origin,
    `${origin}/frames/wallet-sheet/?${new URLSearchParams({ pk: controller.pubKey, r, lang: look.lang, theme: look.scheme })}`,
    { title: name, frame: name, look },
    abort.signal,
    'sheet',
    (data) => (conforms(WalletResult, data) ? data : undefined),
    committed.then(({ sessionToken, paymentIntentId }) => ({ sessionToken, paymentIntentId }), noop),
  );
  await committed;
  if (!result) return void dispatchCpeEvent(host, 'cpe:wallet:cancel', {});
  const { token, type, session: _, ...detail } = result;
  return { token, detail };
}
