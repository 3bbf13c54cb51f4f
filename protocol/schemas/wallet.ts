import * as z from 'zod/mini';
import { WALLET_MESSAGE_TYPE, WALLET_READY_TYPE, WALLET_SESSION_TYPE, encodeWalletRequest as encode } from '../runtime/wallet.ts';

export {
  WALLET_A_STYLES,
  WALLET_A_TYPES,
  WALLET_B_STYLES,
  WALLET_B_TYPES,
  WALLET_MESSAGE_TYPE,
  WALLET_READY_TYPE,
  WALLET_SESSION_TYPE,
  WALLET_TEST_CARD_CHOICES,
  WALLET_UNAVAILABLE_REASONS,
  type WalletTestCardChoice,
  type WalletUnavailableReason,
} from '../runtime/wallet.ts';

/**
 * Wallets. With test keys both wallet buttons render anywhere and open the service's wallet test
 * sheet: a page of the service origin (`/frames/wallet-sheet/?…#uuid`) that the SDK shows in a modal
 * `<dialog>`, as it shows the 3-D Secure challenge. The sheet shows the amount, the merchant's name
 * and what the merchant asked for (billing address, e-mail, …), and **Approve** / **Cancel**. On
 * Approve it asks the service for a test wallet token (the shopper picks which test card the wallet
 * holds, so the processor accepts, declines or challenges as the card table does) and sends the
 * result to its element over the MessageChannel the element handed over with the session: never on a
 * window, where any script of the page could read it.
 */

/** What the merchant asked the sheet to collect (wallet B's flags; wallet A asks for nothing extra). */
export const WalletRequest = z.object({
  wallet: z.enum(['a', 'b']),
  /** The merchant's label beside the amount. The amount, currency and merchant name the sheet reads from the service. */
  label: z.optional(z.string().check(z.maxLength(100))),
  allowCreditCards: z.optional(z.boolean()),
  allowPrepaidCards: z.optional(z.boolean()),
  assuranceDetailsRequired: z.optional(z.boolean()),
  billingAddressRequired: z.optional(z.boolean()),
  emailAddressRequired: z.optional(z.boolean()),
});
export type WalletRequest = z.infer<typeof WalletRequest>;

/** The sheet's address carries the request as `?r=<base64url JSON of WalletRequest>&pk=…&ok=…#uuid`. */

/** What the sheet sends its element on the port: approved with a single-use token, or cancelled. Never card data. */
export const WalletResult = z.union([
  z.object({
    type: z.literal(WALLET_MESSAGE_TYPE),
    session: z.string(),
    status: z.literal('approved'),
    /** A single-use tok_… like the card frames' tokens, marked as a wallet token by the service. */
    token: z.string(),
    scheme: z.string(),
    last4: z.string(),
    /** Only what the merchant asked for. */
    email: z.optional(z.string()),
    billingAddress: z.optional(z.object({ name: z.string(), address1: z.string(), postcode: z.string(), country: z.string() })),
    assuranceDetails: z.optional(z.object({ accountVerified: z.boolean(), cardHolderAuthenticated: z.boolean() })),
  }),
  z.object({ type: z.literal(WALLET_MESSAGE_TYPE), session: z.string(), status: z.literal('cancelled') }),
]);
export type WalletResult = z.infer<typeof WalletResult>;


/**
 * The sheet's init, posted by the SDK to the sheet (`iframe.contentWindow.postMessage(…, {targetOrigin:
 * serviceOrigin, transfer: [port]})`) once the sheet said it is ready (`WalletSheetReady`) and the
 * intent exists, with port2 of a fresh MessageChannel: the session token is never in the sheet's
 * address, and every result goes back on that port. The sheet accepts exactly one per load
 * (iframe-app/shared/parent-init.ts: from `window.parent`, and from `location.ancestorOrigins[0]`
 * where the browser tells), with the uuid of its fragment, and only once the service said the session
 * is its address's merchant's (POST /frames/wallet/sheet, which also answers what the sheet shows).
 */
export const WalletSession = z.object({
  type: z.literal(WALLET_SESSION_TYPE),
  session: z.string(),
  sessionToken: z.string(),
  paymentIntentId: z.string(),
});
export type WalletSession = z.infer<typeof WalletSession>;

/**
 * Posted by the sheet to its parent (target '*': it carries only the uuid and its content's height,
 * which the dialog takes, so it has no empty area) once it listens for the session.
 */
export const WalletSheetReady = z.object({ type: z.literal(WALLET_READY_TYPE), session: z.string(), height: z.optional(z.number().check(z.positive(), z.maximum(4000))) });
export type WalletSheetReady = z.infer<typeof WalletSheetReady>;

/** `r` of the sheet's address: base64url (no padding) of the UTF-8 JSON of a WalletRequest. */
export const encodeWalletRequest = (request: WalletRequest): string => encode(request);


/** What POST /frames/wallet/approve answers (session auth; the sheet's own origin only). */
export const WalletApproval = z.object({
  token: z.string(),
  scheme: z.string(),
  last4: z.string(),
  origins: z.array(z.string()),
});
export type WalletApproval = z.infer<typeof WalletApproval>;
