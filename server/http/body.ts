import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { ApiError } from './api-error.ts';
import type { AppState } from './app-state.ts';

const LIMIT = '64kb';

/**
 * The deepest body any route takes is three levels (`recurringIntent[type]` inside the body object);
 * 32 leaves room and keeps every later recursive walk (idempotency fingerprints) far from the stack.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * Names an object inherits: qs drops them from form bodies and query strings without a word (so they
 * cannot pollute anything), which would hide a client's mistake. They are refused instead, as an
 * unknown JSON field is.
 */
export const INHERITED: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** The first bracketed form key (`a[b][c]`) with a segment named after Object.prototype, in form notation. */
export function inheritedName(encoded: string): string | undefined {
  for (const pair of encoded.split('&')) {
    let key: string;
    try {
      key = decodeURIComponent(pair.split('=', 1)[0].replaceAll('+', ' '));
    } catch {
      continue; // qs keeps undecodable text as is: not an inherited name.
    }
    const segments = [/^[^[]*/.exec(key)![0], ...[...key.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1])];
    const at = segments.findIndex((segment) => INHERITED.has(segment));
    if (at >= 0) return segments[0] + segments.slice(1, at + 1).map((s) => `[${s}]`).join('');
  }
  return undefined;
}

/**
 * The first key of a parsed JSON value named after Object.prototype, in form notation
 * (`billTo[__proto__]`). JSON.parse makes such a key an own property (no pollution); the body parser
 * refuses `__proto__` outright, and this names it, so JSON and form bodies get the same answer.
 */
export function inheritedJsonName(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [item, path] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    const keys = Object.keys(item);
    for (const key of keys) {
      const name = path ? `${path}[${key}]` : key;
      if (INHERITED.has(key)) return name;
    }
    for (const key of keys.reverse()) stack.push([(item as Record<string, unknown>)[key], path ? `${path}[${key}]` : key]);
  }
  return undefined;
}

export const inheritedParam = (name: string) =>
  new ApiError('parameter_unknown', `Received unknown parameter: ${name}.`, name);

/** True when `value` nests deeper than `max` objects or arrays; iterative, so depth cannot overflow it. */
export function nestsDeeper(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * How many `&`-separated fields qs reads of a form body (its default `parameterLimit`, which the body
 * parser keeps) and of a query string (operation.ts): past it, qs drops the rest without a word.
 */
export const FORM_FIELD_LIMIT = 1_000;
export const QUERY_PARAMETER_LIMIT = 100;

/**
 * A 400 when `encoded` (form fields or a query string) has a field past the first `limit` that qs
 * would drop, so nothing a client sent is silently ignored; counts the fields it has.
 */
export function refuseDroppedFields(encoded: string, limit: number, what: 'form body' | 'query string'): void {
  const parts = encoded.split('&');
  if (parts.length <= limit || parts.slice(limit).every((part) => part === '')) return;
  const fields = parts.filter((part) => part !== '').length;
  const unit = what === 'form body' ? 'fields' : 'parameters';
  throw new ApiError('too_many_parameters',
    `The ${what} has ${fields} ${unit}; at most ${limit} are read: send fewer${what === 'form body' ? ', or send the body as JSON' : ''}.`,
  );
}

/** The methods whose bodies are read (as the body parser's own default): for any other, this middleware has nothing to do. */
const PARSED = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Parses JSON and form bodies (brackets nest, `billTo[firstname]=Ada`, as Stripe clients send them).
 * A body of any other type is a 415 rather than being silently ignored; one that does not decode as
 * its Content-Encoding is a 400, as is one nested deeper than MAX_BODY_DEPTH. Runs before
 * authentication, so these answers are the same with or without a credential.
 */

export function body(): Middleware<AppState> {
  const parse = bodyParser({ enableTypes: ['json', 'form'], jsonLimit: LIMIT, formLimit: LIMIT, jsonStrict: true, parsedMethods: [...PARSED] });
  const parsed = async () => {};
  const read: Middleware<AppState> = async (ctx, next) => {
    const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
    if (hasBody && !ctx.is('json', 'urlencoded')) {
      throw new ApiError('unsupported_media_type',
        `Unsupported Content-Type '${ctx.get('content-type') || '(none)'}': send application/json or application/x-www-form-urlencoded.`,
      );
    }
    try {
      await parse(ctx, parsed);
    } catch (error) {
      // zlib's errors (Z_DATA_ERROR, brotli's ERR_…) carry no HTTP status: the body is the client's fault.
      const { status, code } = error as { status?: unknown; code?: unknown };
      if (status === undefined && typeof code === 'string' && /^(Z_|ERR_)/.test(code)) {
        throw new ApiError('body_invalid', `The request body does not decode as its Content-Encoding (${ctx.get('content-encoding')}).`);
      }
      // JSON the parser refused for a `__proto__` key: the same parameter_unknown as a form field of that name.
      const text = (error as { body?: unknown }).body;
      if (status === 400 && typeof text === 'string' && ctx.is('json')) {
        let name: string | undefined;
        try {
          name = inheritedJsonName(JSON.parse(text));
        } catch {
          // Not JSON at all: body_invalid, below.
        }
        if (name !== undefined) throw inheritedParam(name);
      }
      throw error;
    }
    if (nestsDeeper(ctx.request.body, MAX_BODY_DEPTH)) {
      throw new ApiError('body_too_deep', `The request body nests deeper than ${MAX_BODY_DEPTH} levels.`);
    }
    if (ctx.is('urlencoded')) {
      refuseDroppedFields(String(ctx.request.rawBody ?? ''), FORM_FIELD_LIMIT, 'form body');
      const name = inheritedName(String(ctx.request.rawBody ?? ''));
      if (name !== undefined) throw inheritedParam(name);
    }
    return next();
  };
  // A GET (or DELETE, HEAD…) body is never parsed, so there is nothing to refuse or check in it.
  return (ctx, next) => (PARSED.has(ctx.method) ? read(ctx, next) : next());
}
