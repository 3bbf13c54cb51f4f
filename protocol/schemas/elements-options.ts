import * as z from 'zod/mini';
import { CardSchemesDisplay } from './bridge.ts';
import { LAYOUTS, PAYMENT_METHODS, THEMES } from '../runtime/frame-address.ts';
import { LANGUAGE_TAG } from '../runtime/patterns.ts';
import { CUSTOM_CHECKS, isRelativeUrl, RELATIVE_URL } from '../runtime/option-checks.ts';
import type { PaymentIntentSession } from './session.ts';
import { WALLET_A_STYLES, WALLET_A_TYPES, WALLET_B_STYLES, WALLET_B_TYPES } from '../wallets/buttons.ts';

export { isRelativeUrl };

/**
 * The options of the browser SDK's `createElements`, of its element factories and of the
 * ElementsApi operations: THE definition. The SDK does not carry zod: it validates with the guards
 * generated from these schemas (protocol/runtime/guards.ts, `npm run gen:guards`). So every rule
 * here must survive `z.toJSONSchema`: types, enums, patterns, bounds, strict objects. A refinement
 * would be lost; what JSON Schema cannot say (a function, an Element) is a `custom` check named in
 * the metadata (protocol/runtime/option-checks.ts). `message` (metadata) is the sentence after the option's
 * name in the SDK's error: `createElements: option "pubKey" must be your public key, …`.
 */
const say = (message: string, custom?: keyof typeof CUSTOM_CHECKS) => z.meta(custom ? { message, custom } : { message });
const custom = <T>(name: keyof typeof CUSTOM_CHECKS, message: string) => z.custom<T>(CUSTOM_CHECKS[name], message).check(say(message, name));
const optional = <T extends z.core.SomeType>(schema: T) => z.optional(schema);
const string = (message = 'must be a string') => z.string(message).check(say(message));
const boolean = z.boolean('must be true or false').check(say('must be true or false'));
const oneOf = <const T extends readonly string[]>(values: T) => {
  const message = `must be one of ${values.join(', ')}`;
  return z.enum(values, message).check(say(message));
};
const object = <T extends z.core.$ZodLooseShape>(shape: T, message = 'must be an object') => z.strictObject(shape, message).check(say(message));

const ROUTE = 'must be a relative URL on your backend, such as "/api/cpe/attach", not an absolute URL or another origin';
const route = optional(z.string(ROUTE).check(z.regex(RELATIVE_URL, ROUTE), say(ROUTE)));

/** Spec: "middleware: relative backend routes. Keys: attach, confirm, authorise, verifyAuth, exchange". Unknown keys are typos. */
export const MiddlewareRoutes = object(
  { attach: route, confirm: route, authorise: route, verifyAuth: route, exchange: route },
  'must be an object of relative backend routes: { attach?, confirm?, authorise?, verifyAuth?, exchange? }',
);
export type MiddlewareRoutes = z.infer<typeof MiddlewareRoutes>;

export type CreateServerIntent = () => Promise<PaymentIntentSession> | PaymentIntentSession;

const PUBLIC_KEY = 'must be your public key, a string starting "pk_"';

const CURRENCY = 'must be a three-letter currency code such as "GBP"';
const MINOR = 'must be a whole number of minor units (1234 for £12.34)';
const minor = z.int(MINOR).check(z.minimum(0, MINOR), say(MINOR));

/**
 * Checkout Context: what the page shows before any Payment Intent exists. The SDK posts it (with the
 * committing element's identifier) to `middleware.exchange`, which must answer an intent that agrees.
 */
export const CheckoutContext = object(
  {
    amount: minor,
    currency: z.string(CURRENCY).check(z.regex(/^[A-Za-z]{3}$/, CURRENCY), say(CURRENCY)),
    reference: optional(string()),
  },
  'must be an object { amount, currency, reference? } (what the page shows before an intent exists)',
);

export type CheckoutContext = z.infer<typeof CheckoutContext>;

const ELEMENTS = 'must be an object: { pubKey, createServerIntent, middleware?, context? }';
/**
 * The Elements controller options of the spec, as `createElements(options)` takes them.
 * `createServerIntent` may be omitted with Checkout Context (`middleware.exchange` and `context`);
 * the SDK checks that pairing itself (JSON Schema would need a conditional).
 */
export const ElementsOptions = z
  .object(
    {
      pubKey: z.string(PUBLIC_KEY).check(
        z.regex(/^(?!sk_)/, 'is a licence key (sk_…): never put it in browser code; pass your public key (pk_…) instead'),
        z.startsWith('pk_', PUBLIC_KEY),
        say(PUBLIC_KEY),
      ),
      createServerIntent: optional(
        custom<CreateServerIntent>(
          'function',
          'must be an async function that asks your backend to create a Payment Intent and resolves to { paymentIntentId, sessionToken, opaqueKey }',
        ),
      ),
      middleware: optional(MiddlewareRoutes),
      context: optional(CheckoutContext),
    },
    ELEMENTS,
  )
  .check(say(ELEMENTS));
export type ElementsOptions = z.infer<typeof ElementsOptions>;

// The element factories' options: their TypeScript types (components/internal/options.ts) are these
// schemas' input types, so the docs of each option are here.

/**
 * Stand-ins for the DOM types an option takes (protocol/ has no DOM types): components/internal/options.ts
 * reads them as the DOM's `Element` and `ParentNode`. Types only.
 */
export interface DomElement {
  readonly domType: 'Element';
}
export interface DomParentNode {
  readonly domType: 'ParentNode';
}

const target = custom<string | DomElement>('target', 'must be a CSS selector or an Element');
const positive = (message: string) => z.number(message).check(z.positive(message), say(message));

/** How `element` (and the card fields' targets) are found. */
const ResolveOptions = object(
  {
    /** When `element` is omitted, look for a known mount target (see each element's docs). Default false. */
    autoDiscover: optional(boolean),
    /** Allow mounting into a custom element (a tag with a dash, or `is=`). Default true. */
    allowCustomElement: optional(boolean),
    /** Where selectors and auto-discovery search. Default: the document. */
    within: optional(custom<DomParentNode>('parentNode', 'must be a Document, Element or ShadowRoot')),
  },
  'must be an object { autoDiscover?, allowCustomElement?, within? }',
);

/** Settings every card element shares. */
const shared = {
  /** Instance identifier (several elements on one page). */
  identifier: optional(string()),
  /** Mount target: the element is appended inside it. A CSS selector (searched in `resolveOptions.within`, default the document) or an Element. */
  element: optional(target),
  /** BCP 47 language of the frame, default `en`; an unknown one falls back to English. */
  language: optional(string('must be a language tag such as "en" or "pt-BR"').check(z.regex(LANGUAGE_TAG, 'must be a language tag such as "en" or "pt-BR"'))),
  /** `auto` (default: follows the page around the element, else `prefers-color-scheme`), `light` or `dark`. */
  theme: optional(oneOf(THEMES)),
  /** CSS width of the element, default `100%` of its container (a number is pixels). */
  width: optional(z.union([z.string(), z.number()], 'must be a CSS width such as "100%" or a number of pixels').check(say('must be a CSS width such as "100%" or a number of pixels'))),
  /** Height in pixels to reserve; never below the layout's minimum, and the frame still grows to its content. */
  height: optional(positive('must be a number of pixels')),
  resolveOptions: optional(ResolveOptions),
  /** Card scheme badges: `detected` (default: only the scheme typed), `all` or `none`. */
  cardSchemesDisplay: optional(oneOf(CardSchemesDisplay.options)),
};

export const CardElementOptions = object({
  ...shared,
  /** `row` by default; see the spec's layout table. */
  layout: optional(oneOf(LAYOUTS)),
});

/** paymentFlow / verifyFlow: the card element's options (identifier defaults to default_payment_flow / default_verify_flow). */
export const FlowOptions = CardElementOptions;

/** The wallets' `total`: the amount in minor units (1234 for £12.34), shown on the wallet sheet. */
const total = optional(object({ amount: minor, label: optional(string()) }, 'must be an object { amount, label? } (amount in minor units)'));
const appearance = <const T extends readonly string[], const S extends readonly string[]>(types: T, styles: S) =>
  optional(object({ type: optional(oneOf(types)), style: optional(oneOf(styles)) }, 'must be an object { type?, style? }'));
/** A wallet's button and sheet speak `language` and take the `theme` (as the card element's). */
const wallet = {
  identifier: shared.identifier,
  element: shared.element,
  /** BCP 47 language of the button and the wallet sheet, default `en`. */
  language: shared.language,
  /** `auto` (default: the page around the element), `light` or `dark`: the wallet sheet and its dialog. */
  theme: shared.theme,
  total,
};

/** walletA: identifier, element, total, appearance (14 types, 3 styles). */
export const WalletAOptions = object({ ...wallet, appearance: appearance(WALLET_A_TYPES, WALLET_A_STYLES) });

/** walletB: merchantId and merchantName required; style dark only. */
export const WalletBOptions = object({
  ...wallet,
  environment: optional(oneOf(['TEST', 'PRODUCTION'])),
  /** Required: your wallet B merchant id. */
  merchantId: string('is required: your wallet B merchant id (a string)'),
  /** Required: the name shown to the shopper. */
  merchantName: string('is required: the name shown to the shopper (a string)'),
  appearance: appearance(WALLET_B_TYPES, WALLET_B_STYLES),
  allowCreditCards: optional(boolean),
  allowPrepaidCards: optional(boolean),
  assuranceDetailsRequired: optional(boolean),
  billingAddressRequired: optional(boolean),
  emailAddressRequired: optional(boolean),
});

/** The four hosted fields of `cardFieldsElement`: each its own iframe in its own mount target. */
const CardFieldTargets = object(
  {
    number: target,
    expiry: target,
    cvc: target,
    /** Required, like the other three: the service refuses a card without the cardholder's name. */
    name: target,
  },
  'must be an object { number, expiry, cvc, name } of mount targets',
);

export const CardFieldsElementOptions = object({
  ...shared,
  /**
   * Mount targets of the four fields, all required. Default: the descendants
   * `[data-cpe-field="number"]`, `"expiry"`, `"cvc"` and `"name"` of `element` (or, with
   * `autoDiscover`, of `within` / the document).
   */
  fields: optional(CardFieldTargets),
});

const AUTHORISE_ROUTE = 'must be a relative URL on your backend, such as "/api/authorise", never the service or another origin';
const relative = z.string(AUTHORISE_ROUTE).check(z.regex(RELATIVE_URL, AUTHORISE_ROUTE), say(AUTHORISE_ROUTE));
const idempotencyKey = optional(string('must be 1-255 visible ASCII characters').check(z.regex(/^[\x21-\x7e]{1,255}$/, 'must be 1-255 visible ASCII characters')));
const intentId = optional(string());

/**
 * What the shopper told your page about who pays (Stripe's `billing_details`): kept with this
 * attempt's card, and what the backend's verify shows as `auth.name`, `email`, `address` and
 * `postcode` (redacted unless unmasked) in place of the intent's `billTo`. The service checks each
 * value (lengths, the country code) at attach.
 */
export const BillingDetails = object(
  {
    name: optional(string()),
    email: optional(string()),
    address: optional(
      object({ line1: optional(string()), line2: optional(string()), city: optional(string()), postcode: optional(string()), country: optional(string()) }, 'must be an object { line1?, line2?, city?, postcode?, country? }'),
    ),
  },
  'must be an object { name?, email?, address? }',
);
export type BillingDetails = z.infer<typeof BillingDetails>;

/** Spec "Other payment shapes": AttachOptions, ConfirmOptions, AuthOptions. */
export const AttachOptions = object({ intentId, token: optional(string()), storeCard: optional(boolean), billingDetails: optional(BillingDetails) });
export const ConfirmOptions = object({
  intentId,
  autoHandle3DS: optional(boolean),
  autoAuthorise: optional(boolean),
  idempotencyKey,
  authorise: optional(object({ endpoint: relative, payload: optional(z.unknown()) }, 'must be an object { endpoint, payload? }')),
});
export const AuthOptions = object({
  intentId,
  endpoint: relative,
  headers: optional(z.record(z.string(), z.string(), 'must be an object of header names to string values').check(say('must be an object of header names to string values'))),
  timeoutMs: optional(positive('must be a positive number of milliseconds')),
  payload: optional(z.unknown()),
  idempotencyKey,
  verify: optional(boolean),
});
/** `handle3DSAuthentication(challenge)`: the challenge as confirm returned it. */
export const ChallengeOptions = z
  .object({ url: z.string(), transaction_id: z.string() }, 'must be { url, transaction_id } as confirm returned it')
  .check(say('must be { url, transaction_id } as confirm returned it'));

/**
 * `element.pay(options)`: the whole payment in one call. `authorise`: your backend's route that
 * authorises (default `middleware.authorise`; without either, the service's session route, as a
 * Flow does in direct mode).
 */
export const PayOptions = object({ authorise: optional(relative), billingDetails: optional(BillingDetails) }, 'must be an object { authorise?, billingDetails? }');
export type PayOptions = z.infer<typeof PayOptions>;


/**
 * `paymentElement(options)` / `<cpe-payment>`: every method the page may offer in one element, as
 * tabs (an accordion below 400 px). The card element's options, plus which methods (default all,
 * each shown only where available) and whether the element shows its own Pay button.
 */
export const PaymentElementOptions = object({
  ...shared,
  /** The card form's layout inside the card tab, `stack` by default. */
  layout: optional(oneOf(LAYOUTS)),
  /**
   * The methods to offer, in this order; default every one. A wallet not available here is left out
   * (see `cpe:availability`). As in HTML, a space-separated string is taken too (React 19 sets the
   * attribute's text as the property); its words are checked when the element mounts.
   */
  methods: optional(
    z.union([z.array(oneOf(PAYMENT_METHODS)), z.string()], 'must be an array of "card", "wallet-a", "wallet-b"').check(say('must be an array of "card", "wallet-a", "wallet-b"')),
  ),
  /** `true` (default): the element's own Pay button runs `pay()`. `false`: your own button calls `element.pay()`. */
  payButton: optional(boolean),
});
