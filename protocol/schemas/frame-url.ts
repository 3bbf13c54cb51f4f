import * as z from 'zod/mini';
import { WALLET_IDS } from '../wallets/ids.ts';

/**
 * The address of a hosted frame: `{service}/frames/{app}/?{params}#{session uuid}`.
 *
 * The query names the merchant (`pk`, the public key; `ok`, the opaque key when an intent exists),
 * so the service can answer with `frame-ancestors` limited to that merchant's page origins, and the
 * language, layout, theme and scheme marks, so the service sends the page with the form already in it
 * (in that language, with those marks). Nothing secret goes in the address: the session token travels
 * only on the private port. The fragment (never sent to the server) holds the per-mount session uuid
 * the handshake checks, then the element's look (frame-look.ts), applied before the first paint.
 */
import { CARD_FIELDS, CARD_SCHEMES_DISPLAYS, LAYOUTS, THEMES } from '../runtime/frame-address.ts';
import { LANGUAGE_TAG, UUID } from '../runtime/patterns.ts';

export { FRAME_APPS, LAYOUTS, THEMES, frameUrl, type FrameAppName, type Layout, type Theme } from '../runtime/frame-address.ts';

export const FrameParams = z.object({
  pk: z.string().check(z.startsWith('pk_')),
  ok: z.optional(z.string()),
  lang: z.string().check(z.regex(LANGUAGE_TAG)),
  layout: z.optional(z.enum(LAYOUTS)),
  theme: z.optional(z.enum(THEMES)),
  /** The card schemes' marks (`cardSchemesDisplay`): all of them above the fields, the detected one in the number, or none. */
  marks: z.optional(z.enum(CARD_SCHEMES_DISPLAYS)),
  /**
   * The card form's bands the element reserved its height for at the width in the fragment
   * (components/card/form-height.ts): the frame keeps them at that width where they fit, though fewer
   * may fit too, so the element's height does not change when the form appears.
   */
  bands: z.optional(z.enum(['1', '2', '3', '4'])),
  /** Field frames (cpe-card-fields): which field, and the group uuid that names their shared channel. */
  field: z.optional(z.enum(CARD_FIELDS)),
  group: z.optional(z.string().check(z.regex(UUID))),
  /** Flow frames: a payment (`pay`, the button reads "Pay £12.34") or a card check (`verify`). */
  flow: z.optional(z.enum(['pay', 'verify'])),
  /** Wallet button frames: which wallet, and the button's appearance (validated by the SDK first). */
  wallet: z.optional(z.enum(WALLET_IDS)),
  type: z.optional(z.string().check(z.regex(/^[a-z-]{2,20}$/))),
  style: z.optional(z.enum(['dark', 'white', 'white-outline'])),
  /**
   * The payment frame (cpe-payment): the methods it offers, comma-separated in their order (the frame
   * keeps the names it knows), and `button=none` when the merchant's own button pays. In the address,
   * not the init, so its first render (the height its hello says) is its final one.
   */
  methods: z.optional(z.string().check(z.regex(/^[a-z,-]{2,40}$/))),
  button: z.optional(z.enum(['none'])),
});
export type FrameParams = z.infer<typeof FrameParams>;
