import { check, type Guard } from '../../protocol/runtime/json-guard.ts';
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
