import type { Customs } from './json-guard.ts';

/**
 * The option checks that JSON Schema cannot express, hand-written (no zod here: the merchant-side
 * SDK imports this module). The zod schemas in elements-options.ts use them through `z.custom` and
 * name them with `custom` in their metadata, so the generated guards (protocol/runtime/guards.ts)
 * call the same functions by name. Messages stay in the schemas.
 */
export const CUSTOM_CHECKS = {
  /** createServerIntent. */
  function: (value) => typeof value === 'function',
  /** A mount target: a non-blank CSS selector or an Element. */
  target: (value) => (typeof value === 'string' && value.trim() !== '') || (!!value && (value as { nodeType?: number }).nodeType === 1),
  /** resolveOptions.within: a Document, Element or ShadowRoot. */
  parentNode: (value) => typeof (value as { querySelector?: unknown } | null)?.querySelector === 'function',
} satisfies Customs;

/**
 * A merchant backend route: relative to the merchant page (`/api/attach`, `api/attach`), never
 * another origin: not empty, no scheme (`https:`, `javascript:`), not `//host` nor `\…`.
 */
export const RELATIVE_URL = /^(?![a-zA-Z][a-zA-Z0-9+.-]*:|\/\/|\\)[\s\S]/;
export const isRelativeUrl = (value: string) => RELATIVE_URL.test(value);
