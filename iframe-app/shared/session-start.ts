import type { FrameSession } from '../../protocol/bridge.ts';
import { PUBLIC_KEY_HEADER, SESSION_TOKEN_HEADER } from '../../protocol/headers.ts';

let started: string | undefined;

/**
 * The hosted frame starts the browser session of its intent: its first session-backed request moves a
 * new intent from open to requires_payment_method (waiting for a card), as the contract orders. Once
 * per session token, in the background: nothing waits on it, and a failure here only means the next
 * request (tokenise) starts the session instead.
 */
export function startSession(pubKey: string, session: FrameSession | undefined): void {
  if (!session || !pubKey || started === session.sessionToken) return;
  started = session.sessionToken;
  void fetch('/intent', { headers: { [PUBLIC_KEY_HEADER]: pubKey, [SESSION_TOKEN_HEADER]: session.sessionToken } }).catch(() => {
    started = undefined;
  });
}
