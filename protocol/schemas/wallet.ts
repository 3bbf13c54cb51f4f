import * as z from 'zod/mini';
import { WALLET_MESSAGE_TYPE, encodeWalletRequest as encode } from '../runtime/wallet.ts';
import { WALLET_IDS } from '../wallets/ids.ts';

export { WALLET_A_STYLES, WALLET_A_TYPES, WALLET_B_STYLES, WALLET_B_TYPES } from '../wallets/buttons.ts';
export {
  WALLET_MESSAGE_TYPE,
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
 * result to its element over the one page-to-popup channel (protocol/schemas/popup.ts: the intent's
 * session comes with the init's port, and the result goes back on that port): never on a window,
 * where any script of the page could read it. Cancel is the channel's close.
 */

/** What the merchant asked the sheet to collect (wallet B's flags; wallet A asks for nothing extra). */
export const WalletRequest = z.object({
  wallet: z.enum(WALLET_IDS),
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

/** What the sheet sends its element on the port once the shopper approved: a single-use token. Never card data. */
export const WalletResult = z.object({
  type: z.literal(WALLET_MESSAGE_TYPE),
  session: z.string(),
  /** A single-use tok_… like the card frames' tokens, marked as a wallet token by the service. */
  token: z.string(),
  scheme: z.string(),
  last4: z.string(),
  /** Only what the merchant asked for. */
  email: z.optional(z.string()),
  billingAddress: z.optional(z.object({ name: z.string(), address1: z.string(), postcode: z.string(), country: z.string() })),
  assuranceDetails: z.optional(z.object({ accountVerified: z.boolean(), cardHolderAuthenticated: z.boolean() })),
});
export type WalletResult = z.infer<typeof WalletResult>;

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
