import * as z from 'zod/mini';
import { CardSchemesDisplay } from '../../protocol/bridge.ts';
import { isRelativeUrl } from '../../protocol/elements-options.ts';
import { LAYOUTS, THEMES, type Layout, type Theme } from '../../protocol/frame-url.ts';
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

/** Settings every card element shares. */
export interface SharedElementOptions {
  /** Instance identifier (several elements on one page). */
  identifier?: string;
  /** Mount target: the element is appended inside it. */
  element?: MountTarget;
  /** BCP 47 language of the frame, default `en`; an unknown one falls back to English. */
  language?: string;
  /** `auto` (default, follows `prefers-color-scheme`), `light` or `dark`. */
  theme?: Theme;
  /** CSS width of the element, default `100%` of its container (a number is pixels). */
  width?: string | number;
  /** Height in pixels to reserve; never below the layout's minimum, and the frame still grows to its content. */
  height?: number;
  resolveOptions?: ResolveOptions;
  /** Card scheme badges: `all` (default), `detected` (only the scheme typed) or `none`. */
  cardSchemesDisplay?: CardSchemesDisplay;
}

export interface CardElementOptions extends SharedElementOptions {
  /** `row` by default; see the spec's layout table. */
  layout?: Layout;
}

/** The four hosted fields of `cardFieldsElement`: each its own iframe in its own mount target. */
export interface CardFieldTargets {
  number: MountTarget;
  expiry: MountTarget;
  cvc: MountTarget;
  /** Optional: without it no name field is shown and the card is tokenised without a name. */
  name?: MountTarget;
}

export interface CardFieldsElementOptions extends SharedElementOptions {
  /**
   * Mount targets of the fields. Default: the descendants `[data-cpe-field="number"]`, `"expiry"`,
   * `"cvc"` and `"name"` of `element` (or, with `autoDiscover`, of `within` / the document).
   */
  fields?: CardFieldTargets;
}

const isElement = (value: unknown): value is Element => !!value && (value as Node).nodeType === 1;
const target = z.custom<MountTarget>(
  (value) => (typeof value === 'string' && value.trim() !== '') || isElement(value),
  'must be a CSS selector or an Element',
);
const optional = <T extends z.core.SomeType>(schema: T) => z.optional(schema);
const boolean = z.boolean('must be true or false');

const shared = {
  identifier: optional(z.string('must be a string')),
  element: optional(target),
  language: optional(z.string().check(z.regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/, 'must be a language tag such as "en" or "pt-BR"'))),
  theme: optional(z.enum(THEMES, `must be one of ${THEMES.join(', ')}`)),
  width: optional(z.union([z.string(), z.number()], 'must be a CSS width such as "100%" or a number of pixels')),
  height: optional(z.number('must be a number of pixels').check(z.positive('must be a number of pixels'))),
  resolveOptions: optional(
    z.strictObject(
      {
        autoDiscover: optional(boolean),
        allowCustomElement: optional(boolean),
        within: optional(z.custom<ParentNode>((value) => typeof (value as ParentNode)?.querySelector === 'function', 'must be a Document, Element or ShadowRoot')),
      },
      'must be an object { autoDiscover?, allowCustomElement?, within? }',
    ),
  ),
  cardSchemesDisplay: optional(z.enum(CardSchemesDisplay.options, 'must be one of all, detected, none')),
};

export const CardElementOptionsSchema = z.strictObject(
  { ...shared, layout: optional(z.enum(LAYOUTS, `must be one of ${LAYOUTS.join(', ')}`)) },
  'must be an object',
);

export const CardFieldsElementOptionsSchema = z.strictObject(
  {
    ...shared,
    fields: optional(
      z.strictObject({ number: target, expiry: target, cvc: target, name: optional(target) }, 'must be an object { number, expiry, cvc, name? } of mount targets'),
    ),
  },
  'must be an object',
);

const relative = z.string('must be a relative URL on your backend, such as "/api/authorise"').check(
  z.refine(isRelativeUrl, 'must be a relative URL on your backend, such as "/api/authorise", never the service or another origin'),
);
const idempotencyKey = optional(z.string().check(z.regex(/^[\x21-\x7e]{1,255}$/, 'must be 1-255 visible ASCII characters')));
const intentId = optional(z.string('must be a string'));

/** Spec "Other payment shapes": AttachOptions, ConfirmOptions, AuthOptions. */
export const AttachOptionsSchema = z.strictObject({ intentId, token: optional(z.string('must be a string')), storeCard: optional(boolean) }, 'must be an object');
export const ConfirmOptionsSchema = z.strictObject(
  {
    intentId,
    autoHandle3DS: optional(boolean),
    autoAuthorise: optional(boolean),
    idempotencyKey,
    authorise: optional(z.strictObject({ endpoint: relative, payload: optional(z.unknown()) }, 'must be an object { endpoint, payload? }')),
  },
  'must be an object',
);
export const AuthOptionsSchema = z.strictObject(
  {
    intentId,
    endpoint: relative,
    headers: optional(z.record(z.string(), z.string(), 'must be an object of header names to string values')),
    timeoutMs: optional(z.number().check(z.positive('must be a positive number of milliseconds'))),
    payload: optional(z.unknown()),
    idempotencyKey,
    verify: optional(boolean),
  },
  'must be an object',
);
export const ChallengePayloadSchema = z.object({ url: z.string(), transaction_id: z.string() }, 'must be { url, transaction_id } as confirm returned it');

/** Parses `value` or throws an SdkError (`invalid_options`) naming every option at fault. */
export function parse<T>(where: string, schema: z.ZodMiniType, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data as T;
  const { message, option } = describeIssues(where, 'option', parsed.error.issues);
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
