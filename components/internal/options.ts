import type * as z from 'zod/mini';
import { check, type Guard } from '../../protocol/runtime/json-guard.ts';
import { CUSTOM_CHECKS } from '../../protocol/runtime/option-checks.ts';
import type * as schemas from '../../protocol/schemas/elements-options.ts';
import type { AuthoriseAnswer, AuthoriseResponse, ConfirmResponse } from '../../protocol/schemas/intent.ts';
import { describeIssues, SdkError } from '../errors.ts';

/**
 * The element factories' options are their zod schemas' input types (protocol/schemas/elements-options.ts,
 * where each option is documented), checked here through the guards generated from them: one
 * definition. `Dom` reads the schemas' stand-ins for DOM types as the DOM types (protocol/ has no DOM).
 */
export type Dom<T> = T extends schemas.DomElement
  ? Element
  : T extends schemas.DomParentNode
    ? ParentNode
    : T extends Node | ((...args: never[]) => unknown)
      ? T
      : T extends object
        ? { [K in keyof T]: Dom<T[K]> }
        : T;

/** The options a schema takes, as the SDK's public type. */
type OptionsOf<S extends z.core.$ZodType> = Dom<z.input<S>>;

/** A mount target: a CSS selector (searched in `resolveOptions.within`, default the document) or an Element. */
export type MountTarget = string | Element;

export type CardElementOptions = OptionsOf<typeof schemas.CardElementOptions>;

/** paymentFlow / verifyFlow: the card element's options; `identifier` defaults to `default_payment_flow` / `default_verify_flow`. */
export type FlowOptions = OptionsOf<typeof schemas.FlowOptions>;

/** Settings every card element shares (the card element's, but its layout). */
export type SharedElementOptions = Omit<CardElementOptions, 'layout'>;

/** How `element` (and the card fields' targets) are found. */
export type ResolveOptions = NonNullable<SharedElementOptions['resolveOptions']>;

export type WalletAOptions = OptionsOf<typeof schemas.WalletAOptions>;

export type WalletBOptions = OptionsOf<typeof schemas.WalletBOptions>;

/** The wallets' `total`: the amount in minor units (1234 for £12.34), shown on the wallet sheet. */
export type WalletTotal = NonNullable<WalletAOptions['total']>;

export type CardFieldsElementOptions = OptionsOf<typeof schemas.CardFieldsElementOptions>;

/** `paymentElement` / `<cpe-payment>`: the card element's options, `methods` and `payButton`. */
export type PaymentElementOptions = OptionsOf<typeof schemas.PaymentElementOptions>;

/** The four hosted fields of `cardFieldsElement`: each its own iframe in its own mount target. */
export type CardFieldTargets = NonNullable<CardFieldsElementOptions['fields']>;

/** The guard of an element's options (each element's own; every one has the shared settings). */
export type OptionsGuard =
  | Guard<z.input<typeof schemas.CardElementOptions>>
  | Guard<z.input<typeof schemas.WalletAOptions>>
  | Guard<z.input<typeof schemas.WalletBOptions>>
  | Guard<z.input<typeof schemas.CardFieldsElementOptions>>
  | Guard<z.input<typeof schemas.PaymentElementOptions>>;

/**
 * Checks `value` against a generated guard (protocol/runtime/guards.ts) or throws an SdkError
 * (`invalid_options`) naming every option at fault; with `only` (a path such as `total` or
 * `context.amount`), the faults of that option alone (a property set while other required options
 * are still to come).
 */
export function parse<T>(where: string, guard: Guard<T>, value: unknown, only?: string): Dom<T> {
  const issues = check(guard, value, CUSTOM_CHECKS).filter((issue) => !only || `${issue.path.join('.')}.`.startsWith(`${only}.`));
  if (!issues.length) return value as Dom<T>;
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

/** `pay(options)`: `authorise` (your backend's route) and `billingDetails` (who pays). */
export type PayOptions = OptionsOf<typeof schemas.PayOptions>;
export type BillingDetails = OptionsOf<typeof schemas.BillingDetails>;

/** The options of the ElementsApi operations (`attach`, `confirm`, `authoriseViaBackend`) and their results. */
export interface AttachOptions {
  /** Default: the session's Payment Intent. */
  intentId?: string;
  /** Default: the token of the last `tokenise()`. */
  token?: string;
  /** Vault the card (needs the intent's `account_id`). */
  storeCard?: boolean;
  /** Who pays with this card: verify shows it in place of the intent's `billTo`. */
  billingDetails?: BillingDetails;
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
export type AuthoriseResult = Partial<Omit<AuthoriseResponse, 'error'>> & z.infer<typeof AuthoriseAnswer> & { verify?: unknown };
export type ChallengeOutcome = 'completed' | 'failed' | undefined;
