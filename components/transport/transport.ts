import { IDEMPOTENCY_HEADER, PUBLIC_KEY_HEADER, SESSION_TOKEN_HEADER } from '../../protocol/runtime/headers.ts';
import * as guards from '../../protocol/runtime/guards.ts';
import { check, type Guard } from '../../protocol/runtime/json-guard.ts';
import type { SessionIntent } from '../../protocol/schemas/intent.ts';
import type { ElementsController } from '../controller.ts';
import { describeIssues, SdkError } from '../errors.ts';

/** What the steps need of the Elements controller: the service, the merchant routes, the key and the session. */
export type Backend = Pick<ElementsController, 'serviceOrigin' | 'middleware' | 'pubKey' | 'current' | 'session' | 'fetch'>;

/** Tokens, vaulted cards, session tokens (`cpe_st_…`) and opaque keys (`opq_…`) never reach an error message, whoever wrote it. */
export const scrub = (text: string) => text.replace(/\b(tok|card|cpe_st|st|ok|opq)_[\w-]{6,}/g, '[redacted]');

/**
 * An answer read as `guard` says (generated from the protocol's schema, protocol/runtime/guards.ts),
 * or an SdkError `invalid_response` naming the route and each field at fault: a step never goes on
 * with a shape it did not expect (a proxy's page, a middleware that changed the answer).
 */
export function readAs<T>(guard: Guard<T>, answer: unknown, url: string, what: string): T {
  const issues = check(guard, answer);
  if (!issues.length) return answer as T;
  throw new SdkError('invalid_response', scrub(describeIssues(`${url} answered a body that is not ${what}`, 'field', issues, 'the answer').message));
}

/**
 * POSTs JSON and answers the parsed body, checked by `guard` when given. A failure rejects with an
 * SdkError: the service's (or the merchant backend's) `{error: {code, message}}` when it sent one,
 * else `network_error` or `timeout`; an answer of another shape, `invalid_response`.
 */
export async function postJson<T = unknown>(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  send: typeof fetch = fetch,
  timeoutMs = 30_000,
  guard?: Guard<T>,
  what = 'the expected answer',
): Promise<T> {
  let response: Response;
  try {
    response = await send(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const timeout = (error as Error)?.name === 'TimeoutError';
    throw new SdkError(timeout ? 'timeout' : 'network_error', timeout ? `No answer from ${url} within ${timeoutMs / 1000} s.` : `${url} could not be reached.`);
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok || !answer || typeof answer !== 'object') {
    const { code = `http_${response.status}`, message = `${url} answered ${response.status}.` } = answer?.error ?? {};
    throw new SdkError(String(code), scrub(String(message)));
  }
  return guard ? readAs(guard, answer, url, what) : (answer as T);
}

/** The session's Payment Intent as the service shows it to the page (`GET /intent`, session-backed), checked. */
export async function readIntent(controller: Backend): Promise<SessionIntent> {
  const url = `${controller.serviceOrigin}/intent`;
  const response = await controller.fetch(url, { headers: await sessionHeaders(controller) });
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw new SdkError(String(answer?.error?.code ?? `http_${response.status}`), scrub(String(answer?.error?.message ?? `${url} answered ${response.status}.`)));
  return readAs(guards.SessionIntent, answer, url, "the session's intent") as SessionIntent;
}

/** The session-backed routes' headers: the public key, the session token and (for a POST) the attempt's key. */
export async function sessionHeaders(controller: Backend, key?: string): Promise<Record<string, string>> {
  const headers: Record<string, string> = { [PUBLIC_KEY_HEADER]: controller.pubKey, [SESSION_TOKEN_HEADER]: (controller.current ?? (await controller.session())).sessionToken };
  if (key) headers[IDEMPOTENCY_HEADER] = key;
  return headers;
}
