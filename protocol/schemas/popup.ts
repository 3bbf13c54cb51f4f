import * as z from 'zod/mini';
import { POPUP_CLOSE_TYPE, POPUP_INIT_TYPE, POPUP_READY_TYPE } from '../runtime/popup.ts';

export { POPUP_CLOSE_TYPE, POPUP_INIT_TYPE, POPUP_READY_TYPE } from '../runtime/popup.ts';

/**
 * The one page-to-popup channel: how the SDK talks to a page of the service that it shows over the
 * merchant's page in a modal dialog (the 3-D Secure challenge, the wallet test sheet). Both ends:
 * components/internal/popup-channel.ts (the SDK) and iframe-app/shared/popup-page.ts (the page).
 *
 * 1. The SDK puts a fresh uuid in the page's address fragment (the popup's `session`).
 * 2. Each document of the popup posts `PopupReady` (that uuid, its height; nothing else) to its
 *    parent, target '*'. The SDK hears it only from the service origin and from its dialog's frame
 *    window, with its uuid.
 * 3. The SDK answers `PopupInit` (the uuid, and the intent's session when the page acts on the
 *    intent: the wallet sheet) with port2 of a fresh MessageChannel, to the service origin only.
 *    The page accepts exactly one init per document: from its parent (its ancestor origin where the
 *    browser tells, and one of the origins the service named where it named them), with its uuid.
 * 4. Everything else goes on that port, each message with the uuid: the page's result (its own
 *    schema: ChallengeMessage, WalletResult), a new height (`PopupReady` again), or `PopupClose`.
 * 5. Closing is the same for every popup: the dialog's Escape or ×, or `PopupClose` from the page
 *    (its Escape, its Cancel); before the page has its port, `PopupClose` (it carries nothing) may
 *    come on the window, to its ancestor's origin only.
 */
export const PopupReady = z.object({
  type: z.literal(POPUP_READY_TYPE),
  session: z.string(),
  /** The content's height: the dialog fits the page to it (never taller than the screen). */
  height: z.optional(z.number().check(z.positive(), z.maximum(4000))),
});
export type PopupReady = z.infer<typeof PopupReady>;

/** The intent a popup acts on (the wallet sheet): never in the page's address. */
export const PopupIntent = z.object({ sessionToken: z.string(), paymentIntentId: z.string() });
export type PopupIntent = z.infer<typeof PopupIntent>;

export const PopupInit = z.object({ type: z.literal(POPUP_INIT_TYPE), session: z.string(), intent: z.optional(PopupIntent) });
export type PopupInit = z.infer<typeof PopupInit>;

/** The shopper closed the popup inside it (Escape, Cancel): nothing happened. */
export const PopupClose = z.object({ type: z.literal(POPUP_CLOSE_TYPE), session: z.string() });
export type PopupClose = z.infer<typeof PopupClose>;
