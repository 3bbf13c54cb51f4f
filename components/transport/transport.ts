import { IDEMPOTENCY_HEADER, PUBLIC_KEY_HEADER, SESSION_TOKEN_HEADER } from '../../protocol/runtime/headers.ts';
import type { ElementsController } from '../controller.ts';
import { SdkError } from '../errors.ts';

/** What the steps need of the Elements controller: the service, the merchant routes, the key and the session. */
export type Backend = Pick<ElementsController, 'serviceOrigin' | 'middleware' | 'pubKey' | 'current' | 'session' | 'fetch'>;

/** Tokens, vaulted cards, session tokens (`cpe_st_…`) and opaque keys (`opq_…`) never reach an error message, whoever wrote it. */
export const scrub = (text: string) => text.replace(/\b(tok|card|cpe_st|st|ok|opq)_[\w-]{6,}/g, '[redacted]');

/**
 * POSTs JSON and answers the parsed body. A failure rejects with an SdkError: the service's (or the
 * merchant backend's) `{error: {code, message}}` when it sent one, else `network_error` or `timeout`.
 */
export async function postJson(url: string, body: unknown, headers: Record<string, string>, send: typeof fetch = fetch, timeoutMs = 30_000): Promise<any> {
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
  return answer;
}

/**
 * Attach or confirm through the configured transport (spec, transport rules 1, 2 and 5): the
 * merchant route `middleware[step]` when set, with only the idempotency key; otherwise the service's
 * session-backed `/intent/{step}` with the public key and the session token.
 */
export async function intentStep(controller: Backend, step: 'attach' | 'confirm', body: object, key: string): Promise<any> {
  const route = controller.middleware[step];
  return route ? postJson(route, body, { [IDEMPOTENCY_HEADER]: key }, controller.fetch) : postJson(`${controller.serviceOrigin}/intent/${step}`, body, await sessionHeaders(controller, key), controller.fetch);
}

/** The session's Payment Intent as the service shows it to the page (`GET /intent`, session-backed). */
export async function readIntent(controller: Backend): Promise<{ status?: string; amount?: number; currency?: string }> {
  return (await controller.fetch(`${controller.serviceOrigin}/intent`, { headers: await sessionHeaders(controller) })).json();
}

/** The session-backed routes' headers: the public key, the session token and (for a POST) the attempt's key. */
export async function sessionHeaders(controller: Backend, key?: string): Promise<Record<string, string>> {
  const headers: Record<string, string> = { [PUBLIC_KEY_HEADER]: controller.pubKey, [SESSION_TOKEN_HEADER]: (controller.current ?? (await controller.session())).sessionToken };
  if (key) headers[IDEMPOTENCY_HEADER] = key;
  return headers;
}
