import { IDEMPOTENCY_HEADER, PUBLIC_KEY_HEADER, SESSION_TOKEN_HEADER } from '../../protocol/runtime/headers.ts';
import { SessionIntent as SessionIntentGuard } from '../../protocol/runtime/payment-guards.ts';
import type { SessionIntent } from '../../protocol/schemas/intent.ts';
import { SdkError } from '../errors.ts';
import { readAs, scrub, type Backend } from './transport.ts';

/*
 * The service's session-backed routes (the public key and the session token), which only the
 * payment code uses: in its chunk (components/internal/payment-steps.ts), not in cpe.js; the wallet
 * sheet reads the intent through that chunk.
 */

/** The session's Payment Intent as the service shows it to the page (`GET /intent`, session-backed), checked. */
export async function readIntent(controller: Backend): Promise<SessionIntent> {
  const url = `${controller.serviceOrigin}/intent`;
  const response = await controller.fetch(url, { headers: await sessionHeaders(controller) });
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw new SdkError(String(answer?.error?.code ?? `http_${response.status}`), scrub(String(answer?.error?.message ?? `${url} answered ${response.status}.`)));
  return readAs(SessionIntentGuard, answer, url, "the session's intent") as SessionIntent;
}

/** The session-backed routes' headers: the public key, the session token and (for a POST) the attempt's key. */
export async function sessionHeaders(controller: Backend, key?: string): Promise<Record<string, string>> {
  const headers: Record<string, string> = { [PUBLIC_KEY_HEADER]: controller.pubKey, [SESSION_TOKEN_HEADER]: (controller.current ?? (await controller.session())).sessionToken };
  if (key) headers[IDEMPOTENCY_HEADER] = key;
  return headers;
}
