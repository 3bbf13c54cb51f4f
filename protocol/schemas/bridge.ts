import * as z from 'zod/mini';
import { CARD_FIELDS, CARD_SCHEMES_DISPLAYS, PAYMENT_METHODS } from '../runtime/frame-address.ts';
import { LANGUAGE_TAG_MAX_LENGTH } from '../runtime/patterns.ts';

/**
 * THE bridge between a merchant-page element (components/) and its hosted frame (iframe-app/), both
 * sides validating every message they receive against these schemas. Version 1.
 *
 *   1. The element mounts `<iframe src="{service}/frames/{app}/?{FrameParams}#{session uuid}{look}">`:
 *      the query says what the page shows (so the service sends the form already in it), the fragment
 *      (never sent to the server) the mount's uuid and its look (frame-look.ts).
 *   2. One message each way. The frame posts `Hello` to `window.parent` (target '*': it carries the
 *      uuid, the form's height and the dialogs' texts, nothing secret) as soon as the form can be typed
 *      in, before its first paint: the element takes that height at once, so the form appears at its
 *      final size. The element checks `event.origin === serviceOrigin`, `event.source ===
 *      iframe.contentWindow` and the uuid; once its session is there it posts `Init` (the config, the
 *      session in it) to the frame with targetOrigin = serviceOrigin, transferring port2 of a fresh
 *      MessageChannel, and the element is ready. The frame checks `event.source === window.parent`,
 *      the uuid (and the origin against `location.ancestorOrigins[0]` where the browser has it), and
 *      that `config.pubKey` is its address's `pk`; it accepts exactly one init per load and ignores
 *      every other (iframe-app/shared/parent-init.ts). A session (in the init or a later `configure`)
 *      is taken once the service says it is that merchant's, and that intent's when the address has `ok`.
 *   3. From then on every message travels on the private port: `Request`/`Response` pairs (one
 *      mechanism, protocol/runtime/rpc.ts, for every ElementsApi method) and `FrameEvent`s from the
 *      frame. A request sent before the frame's code has taken the port waits in the port.
 *
 * A second `Hello` for the same session (the frame reloaded: a new load) starts the handshake again on a new port.
 */
import { BRIDGE_VERSION } from '../runtime/version.ts';

export { BRIDGE_VERSION };
const v = z.literal(BRIDGE_VERSION);


/** Session credentials the frame needs for its own service calls (tokenise). Travel only on the port. */
export const FrameSession = z.object({
  paymentIntentId: z.string(),
  sessionToken: z.string(),
});
export type FrameSession = z.infer<typeof FrameSession>;

/** `--cpe-*` theme tokens read from the host's computed style: name (with the dashes) → value. */
export const ThemeTokens = z.record(z.string().check(z.regex(/^--cpe-[a-z-]{1,32}$/)), z.string().check(z.maxLength(200)));
export type ThemeTokens = z.infer<typeof ThemeTokens>;

export const CardSchemesDisplay = z.enum(CARD_SCHEMES_DISPLAYS);
export type CardSchemesDisplay = z.infer<typeof CardSchemesDisplay>;

/** The colour scheme the element resolved: its `theme`, or with `auto` what the page around it shows. */
export const ColorScheme = z.enum(['light', 'dark']);
export type ColorScheme = z.infer<typeof ColorScheme>;

/** What the element tells the frame right after the handshake (and again with `configure`). */
export const FrameConfig = z.object({
  pubKey: z.string(),
  /** Absent until a Payment Intent exists (Checkout Context). */
  session: z.optional(FrameSession),
  tokens: ThemeTokens,
  /** Absent from an older SDK: the frame then follows `prefers-color-scheme` for `theme=auto`. */
  scheme: z.optional(ColorScheme),
  cardSchemesDisplay: z.optional(CardSchemesDisplay),
  /** Element-specific extras (a Flow's amount label, a wallet's options): each frame app parses its own. */
  extra: z.optional(z.record(z.string(), z.unknown())),
});
export type FrameConfig = z.infer<typeof FrameConfig>;

export const Init = z.object({ cpe: v, type: z.literal('init'), session: z.string(), config: FrameConfig });
export type Init = z.infer<typeof Init>;

// Requests: element → frame, on the port. Each method's params and result.

/** Only what may leave a frame after tokenising: never the number or the security code. */
export const TokeniseResult = z.object({
  data: z.object({
    cp_card_token: z.string(),
    scheme: z.string(),
    last4: z.string().check(z.regex(/^\d{4}$/)),
    expiry_month: z.number(),
    expiry_year: z.number(),
  }),
});
export type TokeniseResult = z.infer<typeof TokeniseResult>;

export const FocusParams = z.object({ position: z.enum(['first', 'last']) });

/**
 * After a payment that did not go through: focus `field` (the one to fix), clearing it first with
 * `clear` (the number of a declined card, a wrong security code) and showing `message` under it
 * until the shopper changes it. Every other field keeps its value. `focused`: this frame has the field.
 */
export const FixParams = z.object({ field: z.enum(CARD_FIELDS), clear: z.boolean(), message: z.optional(z.string().check(z.maxLength(300))) });

/**
 * A Flow frame's visible state, set by the element as it runs the lifecycle (the frame only shows
 * it): `processing` disables the button and announces it; `success` and `failure` show the message
 * (a failure's known `code` in the frame's language instead), and `failure` offers Try again (the frame emits `retry`); `idle` shows the form again.
 */
export const FlowState = z.object({
  /** `idle` with a `code` or `message`: the form again, with what happened said above the button (a cancelled challenge). */
  state: z.enum(['idle', 'processing', 'success', 'failure']),
  message: z.optional(z.string().check(z.maxLength(300))),
  /** Why it failed (`card_declined`, `insufficient_funds`, `attach_refused`, `authentication_failed`…): the frame says it in its language. */
  code: z.optional(z.string().check(z.maxLength(60))),
});
export type FlowState = z.infer<typeof FlowState>;

const empty = z.object({});

export const METHODS = {
  /** New config (tokens changed, session arrived). */
  configure: { params: FrameConfig, result: empty },
  /** Validate and tokenise inside the frame. Rejects with code `invalid_card` when fields are incomplete or invalid. */
  tokenise: { params: empty, result: TokeniseResult },
  /** Clear every field and its validation. */
  reset: { params: empty, result: empty },
  /** Focus the first (or last) field. */
  focus: { params: FocusParams, result: empty },
  /** Focus the field to fix after a failed payment, cleared when `clear`; the others keep their values. */
  fix: { params: FixParams, result: z.object({ focused: z.boolean() }) },
  /** Flow frames: show the lifecycle's state. */
  flowState: { params: FlowState, result: empty },
} as const;
export type Method = keyof typeof METHODS;
export type ParamsOf<M extends Method> = z.infer<(typeof METHODS)[M]['params']>;
export type ResultOf<M extends Method> = z.infer<(typeof METHODS)[M]['result']>;

export const Request = z.object({ cpe: v, kind: z.literal('request'), id: z.number(), method: z.string(), params: z.unknown() });
export type Request = z.infer<typeof Request>;

/** An error crossing the bridge: a code the SDK can switch on and a message safe to show. */
export const BridgeError = z.object({ code: z.string(), message: z.string(), field: z.optional(z.string()) });
export type BridgeError = z.infer<typeof BridgeError>;

export const Response = z.union([
  z.object({ cpe: v, kind: z.literal('response'), id: z.number(), ok: z.literal(true), result: z.unknown() }),
  z.object({ cpe: v, kind: z.literal('response'), id: z.number(), ok: z.literal(false), error: BridgeError }),
]);
export type Response = z.infer<typeof Response>;

// Events: frame → element, on the port.

export const CardField = z.enum(CARD_FIELDS);
export type CardField = z.infer<typeof CardField>;

/** The `cpe:change` state. Never digits: only what is complete, empty or invalid, and the scheme. */
export const ChangeState = z.object({
  complete: z.boolean(),
  empty: z.boolean(),
  scheme: z.string(),
  invalid: z.array(CardField),
  /** For cpe-card-fields: which field frame this state is about. */
  field: z.optional(CardField),
});
export type ChangeState = z.infer<typeof ChangeState>;

const text = z.string().check(z.maxLength(200));
/**
 * The texts of the SDK's dialogs (the 3-D Secure challenge, the wallet sheet) in the frame's
 * language, so the SDK carries no catalogue: `title` and `frame` name the challenge dialog and its
 * frame, `cancel` the dialogs' close button; `lang` and `dir` are the catalogue's. `reasons`: what
 * `pay()` tells the shopper when a payment did not go through, by error code (`card_declined`,
 * `challenge_cancelled`, `other`…); the element's own line when it cannot show its form:
 * `loadFailed` with a `retry` button (its intent could not be made), `notHere` (not set up for this page).
 */
export const DialogTexts = z.object({
  lang: z.string().check(z.maxLength(LANGUAGE_TAG_MAX_LENGTH)),
  dir: z.enum(['ltr', 'rtl']),
  title: text,
  frame: text,
  cancel: text,
  reasons: z.optional(z.record(z.string().check(z.maxLength(40)), text)),
  retry: z.optional(text),
  loadFailed: z.optional(text),
  notHere: z.optional(text),
});
export type DialogTexts = z.infer<typeof DialogTexts>;

/**
 * The frame's one message before the port: its form can be typed in (typing before its code has run
 * is kept), `height` is the form's in CSS pixels as it first paints, `texts` the dialogs' in its language.
 */
export const Hello = z.object({ cpe: v, type: z.literal('hello'), session: z.string(), height: z.number(), texts: z.optional(DialogTexts) });
export type Hello = z.infer<typeof Hello>;

export const EVENTS = {
  /** Content height changed (validation message shown, layout wrapped). */
  resize: z.object({ height: z.number() }),
  change: ChangeState,
  /** An operational problem inside the frame the page should hear about (catalogue failed to load…). */
  error: BridgeError,
  /** Flow frames: the shopper pressed Pay / Verify Card and the fields are valid. */
  submit: z.object({}),
  /** Flow frames: the shopper pressed Try again after a failure. */
  retry: z.object({}),
  /** Wallet button frames: the shopper pressed the wallet button. */
  press: z.object({}),
  /** The payment frame: the shopper chose a method (a tab); `pay()` pays with it. */
  select: z.object({ method: z.enum(PAYMENT_METHODS) }),
} as const;
export type FrameEventName = keyof typeof EVENTS;
export type FrameEventDetail<E extends FrameEventName> = z.infer<(typeof EVENTS)[E]>;

export const FrameEvent = z.object({ cpe: v, kind: z.literal('event'), name: z.string(), detail: z.unknown() });
export type FrameEvent = z.infer<typeof FrameEvent>;
