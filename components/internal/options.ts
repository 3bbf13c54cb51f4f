import type { CardSchemesDisplay } from '../../protocol/bridge.ts';
import type { AuthoriseResponse, ConfirmResponse } from '../../protocol/intent.ts';
import type { Layout, Theme } from '../../protocol/frame-address.ts';
import { check, type JsonSchema } from '../../protocol/json-guard.ts';
import { CUSTOM_CHECKS } from '../../protocol/option-checks.ts';
import type { WALLET_A_STYLES, WALLET_A_TYPES, WALLET_B_TYPES } from '../../protocol/wallet-sheet.ts';
import { describeIssues, SdkError } from '../errors.ts';

/** A mount target: a CSS selector (searched in `resolveOptions.within`, default the document) or an Element. */
export type MountTarget = string | Element;

/** How `element` (and the card fields' targets) are found. */
export interface ResolveOptions {
  /** When `element` is omitted, look for a known mount target (see each element's docs). Default false. */
  autoDiscover?: boolean;
  /** Allow mounting into a custom element (a tag with a dash, or `is=`). Default true. */
  allowCustomElement?: boolean;
  /** Where selectors and auto-discovery search. Default: the document. */
  within?: ParentNode;
}

/**
 * Settings every card element shares. These interfaces document the options; the rules are the zod
 * schemas of protocol/elements-options.ts, checked here through their generated guards.
 */
export interface SharedElementOptions {
  /** Instance identifier (several elements on one page). */
  identifier?: string;
  /** Mount target: the element is appended inside it. */
  element?: MountTarget;
  /** BCP 47 language of the frame, default `en`; an unknown one falls back to English. */
  language?: string;
  /** `auto` (default: follows the page around the element, else `prefers-color-scheme`), `light` or `dark`. */
  theme?: Theme;
  /** CSS width of the element, default `100%` of its container (a number is pixels). */
  width?: string | number;
  /** Height in pixels to reserve; never below the layout's minimum, and the frame still grows to its content. */
  height?: number;
  resolveOptions?: ResolveOptions;
  /** Card scheme badges: `detected` (default: only the scheme typed), `all` or `none`. */
  cardSchemesDisplay?: CardSchemesDisplay;
}

export interface CardElementOptions extends SharedElementOptions {
  /** `row` by default; see the spec's layout table. */
  layout?: Layout;
}

/** paymentFlow / verifyFlow: the card element's options; `identifier` defaults to `default_payment_flow` / `default_verify_flow`. */
export type FlowOptions = CardElementOptions;

/** The wallets' `total`: the amount in minor units (1234 for £12.34), shown on the wallet sheet. */
export interface WalletTotal {
  amount: number;
  label?: string;
}

export interface WalletAOptions {
  identifier?: string;
  element?: MountTarget;
  /** BCP 47 language of the button and the wallet sheet, default `en`. */
  language?: string;
  /** `auto` (default: the page around the element), `light` or `dark`: the wallet sheet and its dialog. */
  theme?: Theme;
  total?: WalletTotal;
  appearance?: { type?: (typeof WALLET_A_TYPES)[number]; style?: (typeof WALLET_A_STYLES)[number] };
}

export interface WalletBOptions {
  identifier?: string;
  element?: MountTarget;
  /** BCP 47 language of the button and the wallet sheet, default `en`. */
  language?: string;
  /** `auto` (default: the page around the element), `light` or `dark`: the wallet sheet and its dialog. */
  theme?: Theme;
  environment?: 'TEST' | 'PRODUCTION';
  /** Required: your wallet B merchant id. */
  merchantId: string;
  /** Required: the name shown to the shopper. */
  merchantName: string;
  total?: WalletTotal;
  appearance?: { type?: (typeof WALLET_B_TYPES)[number]; style?: 'dark' };
  allowCreditCards?: boolean;
  allowPrepaidCards?: boolean;
  assuranceDetailsRequired?: boolean;
  billingAddressRequired?: boolean;
  emailAddressRequired?: boolean;
}

/** The four hosted fields of `cardFieldsElement`: each its own iframe in its own mount target. */
export interface CardFieldTargets {
  number: MountTarget;
  expiry: MountTarget;
  cvc: MountTarget;
  /** Required, like the other three: the service refuses a card without the cardholder's name. */
  name: MountTarget;
}

export interface CardFieldsElementOptions extends SharedElementOptions {
  /**
   * Mount targets of the four fields, all required. Default: the descendants
   * `[data-cpe-field="number"]`, `"expiry"`, `"cvc"` and `"name"` of `element` (or, with
   * `autoDiscover`, of `within` / the document).
   */
  fields?: CardFieldTargets;
}

/**
 * Checks `value` against a generated guard (protocol/generated/guards.ts) or throws an SdkError
 * (`invalid_options`) naming every option at fault; with `only` (a path such as `total` or
 * `context.amount`), the faults of that option alone (a property set while other required options
 * are still to come).
 */
export function parse<T>(where: string, schema: JsonSchema, value: unknown, only?: string): T {
  const issues = check(schema, value, CUSTOM_CHECKS).filter((issue) => !only || `${issue.path.join('.')}.`.startsWith(`${only}.`));
  if (!issues.length) return value as T;
  const { message, option } = describeIssues(where, 'option', issues);
  throw new SdkError('invalid_options', message, option);
}

/**
 * Finds and checks one mount target (spec: it exists and is visible before init). `known` is the
 * selector `autoDiscover` uses. Throws an SdkError naming the option and the fix.
 */
export function resolveTarget(where: string, option: string, value: MountTarget | undefined, resolve: ResolveOptions = {}, known?: string, scope?: ParentNode): Element {
  const fail = (text: string): never => {
    throw new SdkError('invalid_mount_target', `${where}: ${text}.`, option);
  };
  const root = scope ?? resolve.within ?? document;
  let found: Element | null = null;
  if (typeof value === 'string') {
    try {
      found = root.querySelector(value);
    } catch {
      fail(`"${option}" ("${value}") is not a valid CSS selector`);
    }
    if (!found) fail(`"${option}" ("${value}") matches no element${resolve.within ? ' inside resolveOptions.within' : ''}`);
  } else if (value) {
    found = value;
  } else if (known && (scope || resolve.autoDiscover)) {
    found = root.querySelector(known);
    if (!found) fail(`no mount target found: add ${known} or pass "${option}"`);
  } else {
    fail(`option "${option}" is missing: pass a selector or Element${known ? ` (or autoDiscover ${known})` : ''}`);
  }
  const element = found!;
  if (!element.isConnected) fail(`"${option}" is not in the document`);
  if (!element.checkVisibility({ visibilityProperty: true })) fail(`"${option}" is hidden: show it before init()`);
  if (resolve.allowCustomElement === false && (element.localName.includes('-') || element.hasAttribute('is')))
    fail(`"${option}" <${element.localName}> is a custom element (allowCustomElement is false): use a <div>`);
  return element;
}

/** The options of the ElementsApi operations (`attach`, `confirm`, `authoriseViaBackend`) and their results. */
export interface AttachOptions {
  /** Default: the session's Payment Intent. */
  intentId?: string;
  /** Default: the token of the last `tokenise()`. */
  token?: string;
  /** Vault the card (needs the intent's `account_id`). */
  storeCard?: boolean;
}

export interface ConfirmOptions {
  intentId?: string;
  /** Show the 3-D Secure challenge when one is needed. Default true. */
  autoHandle3DS?: boolean;
  /** After `requires_authorisation`, call `authoriseViaBackend` with `authorise.endpoint` (or `middleware.authorise`). */
  autoAuthorise?: boolean;
  /** Overrides the attempt's key for confirm (and the automatic authorise). */
  idempotencyKey?: string;
  authorise?: { endpoint: string; payload?: unknown };
}

export interface AuthOptions {
  intentId?: string;
  /** A relative route of your backend (never the service): it receives `{payment_intent_id, ...payload}`. */
  endpoint: string;
  headers?: Record<string, string>;
  /** Default 30000. */
  timeoutMs?: number;
  /** Merged into the body (an object), or sent as `payload`. */
  payload?: unknown;
  idempotencyKey?: string;
  /** Then post `{payment_intent_id}` to `middleware.verifyAuth`; its answer is at `verify` of the result. */
  verify?: boolean;
}

/** `confirm()`'s answer; with `autoAuthorise`, the authorisation's answer is at `authorise`. */
export type ConfirmResult = ConfirmResponse & { authorise?: AuthoriseResult };
/** Your backend's answer to `authoriseViaBackend` (the service's AuthoriseResponse when forwarded as is). */
export type AuthoriseResult = Partial<AuthoriseResponse> & { authorised?: boolean; status?: string; verify?: unknown };
export type ChallengeOutcome = 'completed' | 'failed' | undefined;
