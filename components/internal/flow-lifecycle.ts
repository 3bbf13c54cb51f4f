import type { FlowState } from '../../protocol/schemas/bridge.ts';
import { scrub } from '../transport/transport.ts';
import type { FrameHost, HostController } from './frame-host.ts';
import type { Frame } from './frame.ts';
import { noop } from './frame-mount.ts';

/**
 * The Flow lifecycle (spec), for the elements that pay by themselves (a Flow's frame, wallet A once
 * the shopper approved): tokenise (unless a wallet's `token`), attach, confirm with 3-D Secure,
 * authorise through `middleware.authorise` or the session route `/intent/authorise`, and notify
 * `middleware.verifyAuth`. Never throws: `[true]` when authorised, else `[false, the service's
 * reason, its code]` (`attach_refused` for a card attach refuses for good, `authentication_failed`,
 * `challenge_cancelled`), which a Flow's frame says in the shopper's language.
 */
export async function runFlow(host: FrameHost, token?: string): Promise<[boolean, string?, string?]> {
  try {
    if (!token) await host.tokenise();
    const attached = await host.attach(token ? { token } : {});
    if (attached.status === 'requires_payment_method') {
      const error = attached.error;
      return [false, error?.message, error ? (error.retriable ? 'processing_error' : 'attach_refused') : undefined];
    }
    const confirmed = await host.confirm();
    if (confirmed.status !== 'requires_authorisation')
      return [false, undefined, confirmed.status === 'requires_customer_authentication' ? 'challenge_cancelled' : 'authentication_failed'];
    const { serviceOrigin, middleware } = host.controller!;
    const verify = !!middleware.verifyAuth;
    const answer = await host.authorise({ endpoint: middleware.authorise ?? `${serviceOrigin}/intent/authorise`, verify }, !middleware.authorise);
    return answer.authorised === false ? [false, answer.error?.message, answer.error?.code ?? undefined] : [true];
  } catch {
    return [false];
  }
}

/**
 * A Flow's frame: its `submit` runs the lifecycle while the frame shows processing, then success
 * or failure (the service's reason); its `retry` resets the element for a fresh attempt.
 */
export function flowButton(host: FrameHost): void {
  const state = (frame: Frame, state: FlowState) => void frame.request('flowState', state).catch(noop);
  host.addController({
    async hostFrameEvent(frame, name) {
      if (name === 'retry') host.reset().then(() => state(frame, { state: 'idle' }), noop);
      if (name !== 'submit') return;
      state(frame, { state: 'processing' });
      const [ok, message, code] = await runFlow(host);
      state(frame, ok ? { state: 'success' } : { state: 'failure', message: message && scrub(message).slice(0, 300), code: code?.slice(0, 60) });
    },
  } satisfies HostController);
}
