import type { FrameSession } from '../../protocol/schemas/bridge.ts';
import { PUBLIC_KEY_HEADER, SESSION_TOKEN_HEADER } from '../../protocol/runtime/headers.ts';
import { SessionIntent as SessionIntentGuard } from '../../protocol/runtime/guards.ts';
import { conforms } from '../../protocol/runtime/json-guard.ts';
import type { SessionIntent } from '../../protocol/schemas/intent.ts';

export type { SessionIntent };

/** A refusal the frame answers on its port (a FrameError's shape). */
export const refusal = (code: string, message: string) => ({ code, message });

/**
 * Asks the service whether `session` belongs to the merchant of `pubKey` (the frame's address's `pk`)
 * and, when the address names an intent (`ok`), to that intent: GET /intent with the session's
 * credentials, on the frame's own origin. It also starts the browser session of a new intent (open →
 * requires_payment_method). Resolves with the intent, rejects with a FrameError-shaped refusal.
 * A page script that hands the frame another merchant's session is refused here, before any card
 * data could be tokenised for it.
 */
export async function checkSession(pubKey: string, session: FrameSession, opaqueKey?: string): Promise<SessionIntent> {
  let response: Response;
  try {
    response = await fetch('/intent', { headers: { [PUBLIC_KEY_HEADER]: pubKey, [SESSION_TOKEN_HEADER]: session.sessionToken }, credentials: 'omit', cache: 'no-store' });
  } catch {
    throw refusal('network_error', 'The payment service could not be reached. Check the connection and try again.');
  }
  const intent: unknown = await response.json().catch(() => ({}));
  // Read as the generated guard says (protocol/schemas/intent.ts SessionIntent), not trusted as typed.
  if (!response.ok || !conforms(SessionIntentGuard, intent) || intent.paymentIntentId !== session.paymentIntentId || (opaqueKey && intent.opaque_key !== opaqueKey))
    throw refusal('invalid_session', "This session is not one of this frame's merchant (its address's pk) and intent: the frame refuses it.");
  return intent as SessionIntent;
}
